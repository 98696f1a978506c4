// A world seeded with canaries for the --redact tests: a saved snapshot (the real H200 one, with every field
// that can carry a name, an address, an id or a secret set to a canary), a second machine's snapshot, a fleet
// folder, an error log (the real H200 OOM log with canary lines around it), and a live machine: a --root tree
// (hostname, /etc/passwd, /proc with a GPU process whose command line holds secrets) with a fake nvidia-smi
// replaying the H200 capture with canary GPU ids. Every canary starts with "zq" or is a distinctive value, so a
// leak is found by a plain substring search (case-insensitive).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';

export const HOST = 'zqhost-ws01.zqcorp.example.com';
export const SELF_USER = 'zqalice';
export const OTHER_USER = 'zqbob';
export const GPU_UUID = 'GPU-c0ffee00-1234-5678-9abc-def012345678';
export const SERIAL = '9876543210123';
export const TOKEN = 'hf_zqSECRETtoken1234567890';
export const AWS_KEY = 'AKIAZQZQZQZQZQZQZQZQ';

/** What must never appear in a redacted output. `passwdOnly`: known only from /etc/passwd (given with --root). */
export const CANARIES: { value: string; what: string; passwdOnly?: boolean }[] = [
  { value: 'zqhost', what: 'this host (full and short name)' },
  { value: 'zqcorp', what: "this host's domain" },
  { value: 'zqnode', what: 'other hosts named in command lines, logs and NCCL lines' },
  { value: 'zqmaster', what: 'a host given as --master / MASTER_ADDR' },
  { value: 'zqfleet', what: "fleet machines' host names" },
  { value: 'zqalice', what: 'this user, also glued: zqalice_env, exp_zqalice' },
  { value: 'zqbob', what: "another user's process, also glued: zqbob_exp42" },
  { value: 'zqcarol', what: 'a user seen only in a /scratch path' },
  { value: 'zqdave', what: 'a user whose home is /data/zqdave', passwdOnly: true },
  { value: 'u7731', what: 'an NFS home not named after its account (/nfs/h/u7731)', passwdOnly: true },
  { value: 'zqhank', what: 'a user seen only in /u/zqhank' },
  { value: 'zqerin', what: 'a user seen only in /home/zqerin' },
  { value: 'zqfrank', what: "a fleet machine's user" },
  { value: 'zqgina', what: 'a user in a prompt (zqgina@…)' },
  { value: 'c0ffee00', what: 'GPU UUID' },
  { value: 'def012345678', what: 'GPU UUID (last group)' },
  { value: SERIAL, what: 'GPU serial' },
  { value: '10.77.88.99', what: 'IPv4 address' },
  { value: 'fd00:77', what: 'IPv6 address' },
  { value: '3d:4e:5f', what: 'MAC address' },
  { value: 'zqSECRET', what: '--token=… (Hugging Face shaped)' },
  { value: 'zqpassw0rd', what: '--password x' },
  { value: 'zqwandbkey', what: 'WANDB_API_KEY=…' },
  { value: 'zqmysecret', what: 'MY_SECRET=…' },
  { value: 'zqdbpass', what: 'DB_PASSWORD=…' },
  { value: 'zqbearer', what: 'Authorization: Bearer …' },
  { value: 'zqurluser', what: 'https://user:pw@host (user)' },
  { value: 'zqurlpass', what: 'https://user:pw@host (password)' },
  { value: AWS_KEY, what: 'AWS access key id' },
  { value: 'zqinternal', what: 'a URL host not on the public list (data.zqinternal-corp.net)' },
  { value: 'zqamzsig', what: 'a signed URL: X-Amz-Signature=…' },
  { value: 'zqsigvalue', what: 'a signed URL: sig=…' },
  { value: 'zqwkey', what: '--wandb-key HEX' },
  { value: 'zqkeyval', what: '--key=…' },
  { value: 'zqpwdval', what: '--pwd …' },
  { value: 'zqcurlpw', what: 'curl -u user:password (the password)' },
];

const SECRET_ARGS = [
  `--token=${TOKEN}`,
  '--password',
  'zqpassw0rd',
  '--master',
  'gpu-zqnode-17.cluster.local',
  '--dist-url',
  'tcp://zqmaster:29500',
  'MY_SECRET=zqmysecret',
  '--wandb-key',
  'zqwkey0123456789abcdef0123456789abcdef01',
  '--key=zqkeyvalue123456',
  '--pwd',
  'zqpwdvalue99',
  '-u',
  'zqcurluser:zqcurlpw99',
  '--data',
  'https://data.zqinternal-corp.net/ds.tar?X-Amz-Signature=zqamzsig0123456789&X-Amz-Credential=zqamzcred0123&sig=zqsigvalue99',
];

/** The canary lines of the log (also printed by the job that `run` watches). */
export const LOG_LINES = [
  `(zqalice_env) zqalice@zqhost-ws01:~/proj$ python train.py --run-id zqbob_exp42 ${SECRET_ARGS.join(' ')}`,
  'gpu-zqnode-18:12345:12399 [0] NCCL INFO Bootstrap : Using eth0:10.77.88.99<0> fd00:77:88::99 0a:1b:2c:3d:4e:5f',
  `export WANDB_API_KEY=zqwandbkey0123456789 DB_PASSWORD=zqdbpass AWS_ACCESS_KEY_ID=${AWS_KEY} MASTER_ADDR=zqmaster`,
  'curl -H "Authorization: Bearer zqbearer0123456789" https://zqurluser:zqurlpass@git.zqcorp.internal/repo.git',
  `GPU 0: NVIDIA H200 (UUID: ${GPU_UUID})  Serial Number : ${SERIAL}`,
  'zqgina@gpu-zqnode-20:~$ tail -f /home/zqerin/runs/exp_zqalice/log.txt',
  '  File "/scratch/gpfs/zqcarol/proj/train.py", line 10, in <module>',
  '  File "/u/zqhank/lib/model.py", line 20, in forward',
  '  File "/data/zqdave/venvs/exp_zqalice/lib/python3.12/site-packages/torch/nn/modules/conv.py", line 554, in forward',
  'srun: error: gpu-zqnode-19: task 0: Exited with exit code 1',
];

export interface CanaryWorld {
  dir: string;
  /** the canary snapshot (this machine, saved) */
  snap: string;
  /** another machine's canary snapshot */
  snapB: string;
  fleet: string;
  log: string;
  root: string;
  /** env for the CLI: the fake nvidia-smi first on PATH, and canary environment values */
  env: Record<string, string>;
}

export function buildCanaryWorld(): CanaryWorld {
  const dir = tempDir('ged-canary-');
  const base = fs.readFileSync(path.join(FIXTURES, 'redact/h200-memory-held-full.json'), 'utf8');
  // The real venv path becomes a glued name under a home outside /home: every python and library path carries it.
  const snapshotText = base.replaceAll('/opt/torch/.venv', '/data/zqdave/venvs/exp_zqalice');

  const snap = canarySnapshot(JSON.parse(snapshotText), {
    host: HOST,
    self: SELF_USER,
    other: OTHER_USER,
    passwdPaths: true,
  });
  // other machines: their own users' paths (nothing there is known only from this machine's /etc/passwd)
  const otherText = base.replaceAll('/opt/torch/.venv', '/home/zqfrank/venvs/exp_zqfrank');
  const snapB = canarySnapshot(JSON.parse(otherText), {
    host: 'zqfleet-b2.zqcorp.example.com',
    self: 'zqfrank',
    other: OTHER_USER,
    passwdPaths: false,
  });
  const write = (p: string, v: unknown) => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, JSON.stringify(v, null, 2));
    return p;
  };
  const files = {
    snap: write(path.join(dir, 'snap.json'), snap),
    snapB: write(path.join(dir, 'snap-b.json'), snapB),
  };
  // the fleet: three machines (no passwd-only canaries: fleet does not read this machine's accounts)
  const fleet = path.join(dir, 'fleet');
  write(path.join(fleet, 'b2.json'), snapB);
  write(
    path.join(fleet, 'c3.json'),
    canarySnapshot(JSON.parse(otherText), { host: 'zqfleet-c3', self: 'zqfrank', other: 'zqgina', passwdPaths: false }),
  );
  // a node's snapshot that cannot be read: its name is the node's host name, which no snapshot states
  fs.writeFileSync(path.join(fleet, 'zqfleet-d4.json'), '{"schemaVersion": 1, "host": ');
  write(path.join(fleet, 'a1.json'), {
    schemaVersion: 1,
    snapshot: canarySnapshot(JSON.parse(otherText), {
      host: 'zqfleet-a1',
      self: 'zqfrank',
      other: OTHER_USER,
      passwdPaths: false,
    }),
    findings: [],
  });

  const log = path.join(dir, 'train.log');
  const oom = fs.readFileSync(path.join(FIXTURES, 'h200/logs/conv-keep1200-bs64.txt'), 'utf8');
  fs.writeFileSync(log, `${LOG_LINES.join('\n')}\n${oom}`);

  // the live machine
  const gpuPid = 5001;
  const root = makeRoot({
    passwd: [
      'root:x:0:0:root:/root:/bin/bash',
      'zqalice:x:1000:1000::/home/zqalice:/bin/bash',
      'zqbob:x:1001:1001::/home/zqbob:/bin/bash',
      'zqdave:x:1002:1002::/data/zqdave:/bin/bash',
      'zqerin:x:1003:1003::/nfs/h/u7731:/bin/bash',
      '',
    ].join('\n'),
    procs: [
      {
        pid: gpuPid,
        ppid: 1,
        comm: 'python3',
        uid: 1001,
        gpuFd: true,
        cmdline: ['python3', '/home/zqbob/train.py', '--run-id', 'zqbob_exp42', ...SECRET_ARGS],
      },
    ],
    files: {
      '/proc/sys/kernel/hostname': `${HOST}\n`,
      '/proc/driver/nvidia/version':
        'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (zqalice@zqhost-ws01)\n',
    },
  });
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const xml = fs
    .readFileSync(path.join(FIXTURES, 'h200/hog/nvidia-smi-q-hog.xml'), 'utf8')
    .replaceAll('GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7', GPU_UUID)
    .replaceAll('1653924093097', SERIAL)
    .replace('<pid>694</pid>', `<pid>${gpuPid}</pid>`);
  fs.writeFileSync(path.join(bin, 'smi.xml'), xml);
  fs.writeFileSync(
    path.join(bin, 'query.csv'),
    fs
      .readFileSync(path.join(FIXTURES, 'h200/idle/query-gpu.csv'), 'utf8')
      .replaceAll('GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7', GPU_UUID),
  );
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${bin}/smi.xml' ;;
  --query-gpu=index,uuid,memory.used,memory.total) while :; do echo "0, ${GPU_UUID}, 142857, 143771"; sleep 0.1; done ;;
  --query-gpu=*) cat '${bin}/query.csv' ;;
  --query-compute-apps=*) while :; do echo "${gpuPid}, python3, 142848 MiB, ${GPU_UUID}"; sleep 0.1; done ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac`,
  );
  const env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    NO_COLOR: '1',
    USER: SELF_USER,
    HOME: `/home/${SELF_USER}`,
    LD_LIBRARY_PATH: '/home/zqerin/cuda/lib64:/u/zqhank/lib:/nfs/h/u7731/lib:/data/zqdave/lib',
    CONDA_PREFIX: '/opt/conda/envs/zqalice_env',
    CONDA_DEFAULT_ENV: 'zqalice_env',
    VIRTUAL_ENV: '/data/zqdave/venvs/exp_zqalice',
    PYTHONPATH: '/scratch/gpfs/zqcarol/src',
    CUDA_VISIBLE_DEVICES: GPU_UUID.slice(0, 12),
    XLA_FLAGS: '--xla_dump_to=/home/zqalice/xla',
  };
  return { dir, ...files, fleet, log, root, env };
}

/** The snapshot with a canary in every field that can hold one. */
function canarySnapshot(
  s: Record<string, any>,
  o: { host: string; self: string; other: string; passwdPaths: boolean },
): Record<string, unknown> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const home = o.passwdPaths ? '/nfs/h/u7731' : `/home/${o.self}`;
  s.host = { name: o.host };
  s.self = { ...s.self, user: o.self, uid: 1000 };
  s.system.kernelModule.line = `NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (${o.self}@${o.host.split('.')[0]})`;
  s.system.container.evidence = [`container=${o.self}_env`, 'KUBERNETES_SERVICE_HOST is set: 10.77.88.99'];
  const gpu = s.nvidia.gpus[0];
  gpu.uuid = GPU_UUID;
  gpu.serial = SERIAL;
  gpu.processes = [
    { pid: 666, name: 'python3', usedMiB: 141948, type: 'C' },
    { pid: 667, name: `${o.other}_worker`, usedMiB: 10, type: 'C' },
  ];
  const hog = s.processes.list[0];
  s.processes.list = [
    {
      ...hog,
      user: o.other,
      uid: 1001,
      cmdline: ['python3', `/home/${o.other}/train.py`, '--run-id', `${o.other}_exp42`, ...SECRET_ARGS],
      parentName: `${o.other}_launcher`,
    },
    {
      ...hog,
      pid: 667,
      usedMiB: 10,
      user: o.self,
      uid: 1000,
      name: 'python3',
      cmdline: [
        'python3',
        '-c',
        'import time',
        `https://zqurluser:zqurlpass@git.zqcorp.internal/x`,
        'Authorization: Bearer zqbearer0123456789',
        `${home}/run.py`,
      ],
      orphaned: false,
      parentName: 'bash',
    },
  ];
  s.processes.message = `PID 668 of ${o.other} could not be read on ${o.host}`;
  s.env = {
    ...s.env,
    LD_LIBRARY_PATH: `/home/zqerin/cuda/lib64:/u/zqhank/lib:${home}/lib:/usr/local/nvidia/lib64`,
    CONDA_PREFIX: `/opt/conda/envs/${o.self}_env`,
    VIRTUAL_ENV: `/home/${o.self}/venvs/exp_${o.self}`,
    PYTHONPATH: '/scratch/gpfs/zqcarol/src',
    CUDA_VISIBLE_DEVICES: GPU_UUID.slice(0, 12),
    XLA_FLAGS: `--xla_dump_to=/home/${o.self}/xla`,
    // not kept by today's probe, but a snapshot may carry more (a newer tool, an edited file)
    HF_TOKEN: TOKEN,
    WANDB_API_KEY: 'zqwandbkey0123456789',
    MASTER_ADDR: 'gpu-zqnode-17.cluster.local',
    NCCL_SOCKET_IFNAME: 'eth0',
    SSH_CONNECTION: '10.77.88.99 52000 10.77.88.100 22',
  };
  s.probes = [...s.probes, { id: 'hostname', ok: true, durationMs: 1, message: `read ${o.host} as ${o.self}` }];
  if (s.toolkit?.nvcc)
    s.toolkit.nvcc = {
      ...s.toolkit.nvcc,
      path: '/scratch/gpfs/zqcarol/cuda/bin/nvcc',
      root: '/scratch/gpfs/zqcarol/cuda',
    };
  const env0 = s.python?.environments?.[0];
  if (env0) {
    env0.name = `exp_${o.self}`;
    env0.problems = [
      ...(env0.problems ?? []),
      `${home}/.local/lib/python3.12/site-packages: permission denied (owner ${o.other})`,
    ];
  }
  return s;
}
