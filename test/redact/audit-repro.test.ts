// The audit's reproductions of H2, M5 and L1 (../shared/reviews/security-audit-2026-12-02.md), through the
// built CLI as users run it. The audit set the host name with `unshare -u hostname`, the user with `runuser`
// and a real process with `setsid`; here the same machine is a --root tree (hostname, /etc/passwd, /proc) and
// a fake nvidia-smi replaying the real H200 capture with bob's process in its list.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';

const UUID = 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7';
const SERIAL = '1653924093097';
const HOST = 'alice-ws01.example.com';
const BOB_CMD = [
  'python3',
  '/users/bob/train.py',
  '--run-id',
  'bob_exp42',
  '--token=hf_SECRETabcdef123456',
  '--master',
  'gpu-node-17.cluster.local',
];

let dir: string;
let root: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = tempDir('ged-audit-redact-');
  root = makeRoot({
    passwd:
      'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/bash\nbob:x:1001:1001::/users/bob:/bin/bash\n',
    procs: [{ pid: 7200, ppid: 1, comm: 'python3', uid: 1001, gpuFd: true, cmdline: BOB_CMD }],
    files: { '/proc/sys/kernel/hostname': `${HOST}\n` },
  });
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'smi.xml'),
    fs
      .readFileSync(path.join(FIXTURES, 'h200/hog/nvidia-smi-q-hog.xml'), 'utf8')
      .replace('<pid>694</pid>', '<pid>7200</pid>'),
  );
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${bin}/smi.xml' ;;
  --query-gpu=index,uuid,memory.used,memory.total) while :; do echo "0, ${UUID}, 142857, 143771"; sleep 0.1; done ;;
  --query-gpu=*) cat '${FIXTURES}/h200/idle/query-gpu.csv' ;;
  --query-compute-apps=*) while :; do echo "7200, python3, 142848 MiB, ${UUID}"; sleep 0.1; done ;;
  *) exit 2 ;;
esac`,
  );
  env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, USER: 'alice' };
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { env: { ...env, ...extra }, cwd: dir });
const clean = (out: string, ...secrets: string[]) => secrets.filter((s) => out.toLowerCase().includes(s.toLowerCase()));

describe('H2: --redact is applied by every command that prints machine facts', () => {
  it('snapshot --redact: no host name, user, GPU UUID or serial (the audit grep finds nothing)', () => {
    const r = cli(['snapshot', '--root', root, '--redact']);
    expect(r.code).toBe(0);
    expect(clean(r.stdout, 'alice', 'ws01', '86cd2dae', SERIAL, 'bob')).toEqual([]);
    const s = JSON.parse(r.stdout);
    expect([s.host.name, s.self.user, s.nvidia.gpus[0].uuid, s.nvidia.gpus[0].serial]).toEqual([
      'host-1',
      'user-1',
      'GPU-UUID-1',
      'serial-1',
    ]);
    // without --redact the same command shows them: the test above can fail
    expect(clean(cli(['snapshot', '--root', root]).stdout, 'alice-ws01', '86cd2dae')).toHaveLength(2);
  });

  it('fix --dry-run, procs: no host, no other user, no /users/bob', () => {
    for (const args of [['fix', '--dry-run'], ['procs'], ['procs', '--json']]) {
      const r = cli([...args, '--root', root, '--redact']);
      expect(clean(r.stdout + r.stderr, 'alice', 'ws01', 'bob', '/users/b'), args.join(' ')).toEqual([]);
    }
    expect(cli(['fix', '--dry-run', '--root', root, '--redact']).stdout).toContain(
      'gpu-env-doctor fix on host-1: the plan',
    );
  });

  it('diff A.json B.json --redact: neither the host names of the files nor /scratch/alice/venv', () => {
    const a = path.join(dir, 'A.json');
    fs.writeFileSync(a, cli(['snapshot', '--root', root], { VIRTUAL_ENV: '/scratch/alice/venv' }).stdout);
    const r = cli(['diff', a, path.join(FIXTURES, 'snapshots/h200-idle.json'), '--redact']);
    expect(r.code).toBe(1);
    expect(clean(r.stdout, 'alice', 'ws01', 'bob')).toEqual([]);
    expect(r.stdout).toMatch(/^A .*A\.json \(host host-1\)/m);
  });

  it('fleet DIR --redact, text and --html: no host names, no "PID 7200 (bob)"', () => {
    const fleet = path.join(dir, 'fleet');
    fs.mkdirSync(fleet, { recursive: true });
    fs.writeFileSync(path.join(fleet, 'ws01.json'), cli(['snapshot', '--root', root]).stdout);
    fs.copyFileSync(path.join(FIXTURES, 'snapshots/h200-idle.json'), path.join(fleet, 'vm.json'));
    const r = cli(['fleet', fleet, '--redact', '--html', 'fleet.html']);
    const html = fs.readFileSync(path.join(dir, 'fleet.html'), 'utf8');
    expect(clean(r.stdout + r.stderr + html, 'alice', 'ws01', 'bob', 'hf_SECRET')).toEqual([]);
    expect(r.stdout).toContain('host-1');
  });

  it('libs --redact --json with VIRTUAL_ENV=/home/alice/venv: no /home/alice', () => {
    fs.mkdirSync(path.join(root, 'home/alice/venv/lib/python3.12/site-packages'), { recursive: true });
    fs.writeFileSync(path.join(root, 'home/alice/venv/pyvenv.cfg'), 'home = /usr/bin\nversion = 3.12.3\n');
    const r = cli(['libs', '--root', root, '--redact', '--json'], { VIRTUAL_ENV: '/home/alice/venv' });
    expect(r.stdout).not.toContain('/home/alice');
    expect(cli(['libs', '--root', root, '--json'], { VIRTUAL_ENV: '/home/alice/venv' }).stdout).toContain(
      '/home/alice',
    );
  });
});

describe('M5: user names glued to other word characters', () => {
  it('check --redact --json: CONDA_PREFIX …/alice_env, VIRTUAL_ENV …/exp_alice and --run-id bob_exp42 lose the names', () => {
    const r = cli(['check', '--root', root, '--redact', '--json'], {
      CONDA_PREFIX: '/opt/conda/envs/alice_env',
      VIRTUAL_ENV: '/home/alice/venvs/exp_alice',
    });
    expect(clean(r.stdout, 'alice', 'bob')).toEqual([]);
    const s = JSON.parse(r.stdout).snapshot;
    expect(s.env.CONDA_PREFIX).toBe('/opt/conda/envs/user-1_env');
    expect(s.env.VIRTUAL_ENV).toBe('/home/user-1/venvs/exp_user-1');
    expect(s.processes.list[0].cmdline).toContain('user-2_exp42');
  });

  it('run --redact --report FILE.md: the prompt line "(alice_env) alice@alice-ws01:~$" in the report', () => {
    const prompt = '(alice_env) alice@alice-ws01:~/proj$ python train.py';
    const r = cli([
      'run',
      '--root',
      root,
      '--redact',
      '--report',
      'm5.md',
      '--interval',
      '100',
      '--',
      'sh',
      '-c',
      `echo '${prompt}' >&2; exit 1`,
    ]);
    const stderr = r.stderr
      .split('\n')
      .filter((l) => l !== prompt)
      .join('\n'); // the job's own line passes through
    const report = fs.readFileSync(path.join(dir, 'm5.md'), 'utf8');
    expect(report).toContain('(user-1_env) user-1@host-1:~/proj$ python train.py');
    expect(clean(report + stderr, 'alice', 'ws01')).toEqual([]);
  });
});

describe("L1: other hosts' names, homes outside /home and /Users, secrets in command lines", () => {
  it('LD_LIBRARY_PATH=/users/dave/cuda/lib64:/home/erin/lib:/u/hank/lib check --redact --json', () => {
    const r = cli(['check', '--root', root, '--redact', '--json'], {
      LD_LIBRARY_PATH: '/users/dave/cuda/lib64:/home/erin/lib:/u/hank/lib',
    });
    expect(JSON.parse(r.stdout).snapshot.env.LD_LIBRARY_PATH).toMatch(
      /^\/users\/user-\d+\/cuda\/lib64:\/home\/user-\d+\/lib:\/u\/user-\d+\/lib$/,
    );
  });

  it('--token=hf_SECRET… and --master gpu-node-17.cluster.local in a process command line: not in Markdown, JSON or HTML', () => {
    const r = cli(['check', '--root', root, '--redact', '--markdown', '--html', 'check.html']);
    const json = cli(['check', '--root', root, '--redact', '--json']).stdout;
    const html = fs.readFileSync(path.join(dir, 'check.html'), 'utf8');
    for (const out of [r.stdout, json, html])
      expect(clean(out, 'hf_SECRET', 'gpu-node-17', 'cluster.local')).toEqual([]);
    expect(json).toContain('--token=secret-1');
    // without --redact the token is there (the audit's count: 1 Markdown line)
    expect(cli(['check', '--root', root, '--markdown']).stdout).toContain('hf_SECRET');
  });

  it("run --redact: another host's NCCL line (gpu-node-17:12345:…) is not in the report", () => {
    const nccl = 'gpu-node-17:12345:12399 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>';
    const r = cli([
      'run',
      '--root',
      root,
      '--redact',
      '--report',
      'l1.json',
      '--interval',
      '100',
      '--',
      'sh',
      '-c',
      `echo '${nccl}' >&2; exit 1`,
    ]);
    const stderr = r.stderr
      .split('\n')
      .filter((l) => l !== nccl)
      .join('\n');
    const report = fs.readFileSync(path.join(dir, 'l1.json'), 'utf8');
    expect(clean(report + stderr, 'gpu-node-17', '10.1.2.3')).toEqual([]);
    expect(JSON.parse(report).tail.at(-1).text).toBe('host-2:12345:12399 [0] NCCL INFO Bootstrap : Using eth0:ip-1<0>');
  });
});
