// The redactor itself (src/report/redact.ts): what it replaces, what it keeps, and that it is consistent.
// Audit findings (../shared/reviews/security-audit-2026-12-02.md): M5 (names glued to word characters) and
// L1 (other hosts, homes outside /home and /Users, secrets) are reproduced here on the strings the audit saw;
// H2 (commands that ignored --redact) is test/redact/canary.test.ts and test/redact/commands.test.ts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { renderHtml } from '../../src/report/html/render.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { createRedactor, knownFromPasswd, nameKind, redactDeep, redactModel } from '../../src/report/redact.js';
import { buildReportModel } from '../../src/report/model.js';
import { SERIAL, UUID, hogFindings, hogSnapshot } from './sample.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

describe('--redact', () => {
  const snapshot = hogSnapshot();
  const result = {
    snapshot,
    findings: hogFindings(),
    log: [
      'ssh alice@gpu-node-17 from 10.20.30.40',
      'cuDNN version 9.1.0.70 loaded from /home/alice/venv/lib',
      'peer fe80::1ff:fe23:4567:890a up',
      'bob ran it on gpu-node-17.example.com',
    ],
  };
  const red = redactDeep(result, createRedactor(result));
  const all = JSON.stringify(red);

  it('leaves no user name, host name, home path, IP address, GPU UUID or serial', () => {
    for (const secret of ['alice', 'bob', 'gpu-node-17', UUID, '86cd2dae', SERIAL, '10.20.30.40', 'fe80::1ff'])
      expect(all).not.toContain(secret);
  });

  it('replaces consistently: the same value is the same placeholder everywhere', () => {
    expect(red.snapshot.host.name).toBe('host-1');
    expect(red.snapshot.self.user).toBe('user-1'); // alice: self.user comes first
    expect(red.snapshot.processes.list[0]!.user).toBe('user-2'); // bob
    expect(red.snapshot.processes.list[0]!.cmdline).toEqual(['python3', '/home/user-2/hog.py', '1200', '90']);
    expect(red.snapshot.env.LD_LIBRARY_PATH).toBe('/home/user-1/cuda/lib64:/usr/local/cuda/lib64');
    expect(red.snapshot.env.SSH_CONNECTION_HOST).toBe('ip-1');
    expect(red.snapshot.nvidia.ok && red.snapshot.nvidia.gpus[0]!.uuid).toBe('GPU-UUID-1');
    expect(red.snapshot.nvidia.ok && red.snapshot.nvidia.gpus[0]!.serial).toBe('serial-1');
    expect(red.findings[0]!.message).toBe('PID 694 (user-2) holds 139.5 GiB on GPU 0: orphaned');
    expect(red.log).toEqual([
      'ssh user-1@host-1 from ip-1',
      'cuDNN version 9.1.0.70 loaded from /home/user-1/venv/lib',
      'peer ipv6-1 up',
      'user-2 ran it on host-1',
    ]);
  });

  it('keeps what is not personal: versions that look like addresses, PIDs, sizes, bus ids, root, public hosts', () => {
    expect(red.snapshot.nvidia.ok && red.snapshot.nvidia.driverVersion).toBe('580.159.04');
    expect(red.snapshot.system.kernelModule?.line).toContain('580.159.04');
    const r = createRedactor();
    for (const keep of [
      'nvidia-cudnn-cu12==8.9.7.29',
      'libcudnn.so.9.1.0.70',
      '/root/.cache and 127.0.0.1 and 00000000:00:06.0 at 12:34:56',
      'torch loads cuDNN 9.19.0: newer than the 9.17.1.4 it was built with',
      '/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cublas-13.1.0.3.dist-info',
      'pip install torch --index-url https://download.pytorch.org/whl/cu121',
      'see https://docs.nvidia.com/deeplearning/cudnn/ and https://github.com/pytorch/pytorch/issues/1',
      'python train.py --tokenizer gpt2 --max-tokens 512 --batch-size 64 --nodes 2 PWD=/work',
      'torch.cuda.OutOfMemoryError: CUDA out of memory; git@github.com:org/repo.git',
    ])
      expect(r.text(keep)).toBe(keep);
    expect(r.text('9.1.0.70', 'version')).toBe('9.1.0.70');
    expect(r.text('listening on 192.168.1.20:8080')).toBe('listening on ip-1:8080');
  });

  it('is applied before rendering, so the Markdown and the HTML show the same placeholders', () => {
    const m = buildReportModel(wordsFor(getLang()), {
      kind: 'check',
      generatedAt: 'now',
      tool: { name: 'g', version: '0' },
      snapshot: red.snapshot,
      findings: red.findings,
    });
    const md = renderMarkdown(wordsFor(getLang()), m);
    const html = renderHtml(wordsFor(getLang()), m);
    for (const out of [md, html]) {
      expect(out).not.toContain('alice');
      expect(out).not.toContain(UUID);
      expect(out).toContain('GPU-UUID-1');
      expect(out).toContain('host-1');
    }
  });

  it('changes nothing in a redacted model (placeholders are never replaced again)', () => {
    expect(redactModel(red)).toEqual(red);
  });

  it("keeps the tool's own identifiers when a machine or a user is named like one (gpu, memory)", () => {
    const snap = {
      ...hogSnapshot(),
      host: { name: 'gpu' },
      self: { pid: 1, uid: 1000, user: 'memory', pidNamespace: null },
    };
    const out = redactModel({
      snapshot: snap,
      findings: [{ ...hogFindings()[0]!, check: 'memory.holders', severity: 'warn', message: 'gpu memory is held' }],
      rows: [{ verdict: 'other user' }],
    });
    expect(out.findings[0]).toMatchObject({
      check: 'memory.holders',
      severity: 'warn',
      message: 'host-1 user-1 is held',
    });
    expect(out.rows[0]!.verdict).toBe('other user');
    expect(out.snapshot.host.name).toBe('host-1');
  });

  it('keeps Maps, Sets and identifier-like keys (a model keeps its shape)', () => {
    const r = createRedactor(result);
    const out = redactDeep(
      { m: new Map([[694, { user: 'bob' }]]), s: new Set(['alice']), '/home/alice/x': 1, user: 'alice' },
      r,
    );
    expect(out.m.get(694)).toEqual({ user: 'user-2' });
    expect([...out.s]).toEqual(['user-1']);
    expect(Object.keys(out)).toEqual(['m', 's', '/home/user-1/x', 'user']);
  });
});

describe('M5: user names glued to other word characters', () => {
  // the audit: CONDA_PREFIX=/opt/conda/envs/alice_env VIRTUAL_ENV=/home/alice/venvs/exp_alice check --redact --json
  // printed "/opt/conda/envs/alice_env" and "/home/user1/venvs/exp_alice"; bob's "--run-id bob_exp42" stayed.
  const seed = {
    snapshot: {
      ...hogSnapshot(),
      env: { CONDA_PREFIX: '/opt/conda/envs/alice_env', VIRTUAL_ENV: '/home/alice/venvs/exp_alice' },
    },
  };
  const r = createRedactor(seed);

  it('replaces a known name next to _ . - and digits', () => {
    expect(r.text('/opt/conda/envs/alice_env')).toBe('/opt/conda/envs/user-1_env');
    expect(r.text('/home/alice/venvs/exp_alice')).toBe('/home/user-1/venvs/exp_user-1');
    expect(r.text('python train.py --run-id bob_exp42')).toBe('python train.py --run-id user-2_exp42');
    expect(r.text('(alice_env) alice@gpu-node-17:~$ ls runs/alice2 alice.smith bob-7')).toBe(
      '(user-1_env) user-1@host-1:~$ ls runs/user-12 user-1.smith user-2-7',
    );
  });

  it('does not replace a name inside a longer word', () => {
    expect(r.text('malice bobby alicex Bob')).toBe('malice bobby alicex Bob');
  });

  it('short names (ai, li) only as whole tokens or _-./-delimited parts, never inside words or next to digits', () => {
    const s = createRedactor({
      snapshot: {
        ...hogSnapshot(),
        self: { pid: 1, uid: 1, user: 'ai', pidNamespace: null },
        processes: { ok: true, list: [{ ...hogSnapshot().processes.list[0]!, user: 'li' }] },
      },
    });
    expect(s.text('training libcudnn train_ai ai ai-lab li_env lib/li ai2 li3 mail')).toBe(
      'training libcudnn train_user-1 user-1 user-1-lab user-2_env lib/user-2 ai2 li3 mail',
    );
  });

  it('never leaves a known user or host as a token or a _-./-delimited part (property)', () => {
    const names = ['alice', 'bob', 'gpu-node-17.example.com'];
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('alice', 'bob', 'gpu-node-17.example.com', ' ', '/', ':', '-', '_', 'x', '7', '.', '@', UUID),
        ),
        (parts) => {
          const out = r.text(parts.join(''));
          // split where the word rule says a name ends: at anything that is not a letter (digits glue only to digits)
          for (const w of out.split(/[^A-Za-z]+/)) expect(names).not.toContain(w);
          expect(out).not.toContain('86cd2dae');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('L1: other hosts, homes outside /home and /Users, secrets in command lines', () => {
  it("the audit's LD_LIBRARY_PATH: /users/dave, /u/hank (unknown users) and /home/erin", () => {
    const r = createRedactor();
    expect(r.text('/users/dave/cuda/lib64:/home/erin/lib:/u/hank/lib')).toBe(
      '/users/user-1/cuda/lib64:/home/user-2/lib:/u/user-3/lib',
    );
  });

  it('homes of /etc/passwd accounts wherever they are, and those users anywhere', () => {
    const passwd =
      'root:x:0:0:root:/root:/bin/bash\nsys:x:3:3:sys:/dev:/usr/sbin/nologin\ndave:x:1002:1002::/data/dave:/bin/bash\nerin:x:1003:1003::/nfs/h/u7731:/bin/bash\n';
    expect(knownFromPasswd(passwd).map((k) => k.value)).toEqual(['dave', '/data/dave', 'erin', '/nfs/h/u7731']);
    const r = createRedactor(undefined, knownFromPasswd(passwd));
    // numbered in the order the rules meet them; the same name is the same placeholder everywhere
    expect(r.text('/data/dave/venv:/nfs/h/u7731/lib:/scratch/gpfs/carol/x:/root/.cache:/sys/class dave_exp')).toBe(
      '/data/user-3/venv:~user-1/lib:/scratch/gpfs/user-2/x:/root/.cache:/sys/class user-3_exp',
    );
  });

  it("the audit's command line: --token=… and --master HOST, and the NCCL line of another host", () => {
    const r = createRedactor({
      processes: { list: [] },
      cmd: [
        '/usr/bin/python3',
        '-c',
        'import time; time.sleep(300)',
        '--token=hf_SECRETabcdef123456',
        '--master',
        'gpu-node-17.cluster.local',
      ],
    });
    const out = redactDeep(
      [
        '/usr/bin/python3',
        '-c',
        'import time; time.sleep(300)',
        '--token=hf_SECRETabcdef123456',
        '--master',
        'gpu-node-17.cluster.local',
      ],
      r,
    );
    expect(out).toEqual([
      '/usr/bin/python3',
      '-c',
      'import time; time.sleep(300)',
      '--token=secret-1',
      '--master',
      'host-1',
    ]);
    // learned from the command line, the host is known bare elsewhere (its short name too)
    expect(r.text('gpu-node-17:12345:12399 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>')).toBe(
      'host-1:12345:12399 [0] NCCL INFO Bootstrap : Using eth0:ip-1<0>',
    );
    expect(r.text('reached gpu-node-17.cluster.local')).toBe('reached host-1');
  });

  it('secrets: flags, assignments, headers, URLs with credentials, key shapes', () => {
    const r = createRedactor();
    const cases: [string, string][] = [
      [
        '--password hunter2 --api-key=abc123 --hf_token xyz',
        '--password secret-1 --api-key=secret-2 --hf_token secret-3',
      ],
      [
        'PASSWORD=p1 API_KEY=k1 MY_SECRET=s1 AWS_SECRET_ACCESS_KEY="s/2+x" HF_TOKEN=t1',
        'PASSWORD=secret-4 API_KEY=secret-5 MY_SECRET=secret-6 AWS_SECRET_ACCESS_KEY="secret-7" HF_TOKEN=secret-8',
      ],
      [
        'curl -H "Authorization: Bearer abc.def.ghi" https://user:pw@git.corp.internal/r.git',
        'curl -H "Authorization: Bearer secret-10" https://secret-9@host-1/r.git',
      ],
      [
        '{"password": "s3cr3t", "token": "t0k"} password: hunter3',
        '{"password": "secret-11", "token": "secret-12"} password: secret-13',
      ],
      [
        'AKIAIOSFODNN7EXAMPLE ghp_0123456789abcdefghijklmnopqrstuvwxyzAB hf_abcdefghijklmnopqrstu sk-proj-abcdefghijklmnopqrstuvwx',
        'secret-14 secret-15 secret-16 secret-17',
      ],
      ['--token-file /etc/tok --no-auth run.py', '--token-file /etc/tok --no-auth run.py'],
    ];
    for (const [input, want] of cases) expect(r.text(input)).toBe(want);
  });

  it('a value under a key or fact that names a secret or a host (snapshot env, diff and fleet facts)', () => {
    const out = redactModel({
      env: { HF_TOKEN: 'hf_x', MASTER_ADDR: 'gpu-node-9', NCCL_DEBUG: 'INFO' },
      differences: [{ fact: 'env[WANDB_API_KEY]', a: 'k1', b: null }],
      usual: { 'env[HF_TOKEN]': 'hf_x' },
    });
    expect(out).toEqual({
      env: { HF_TOKEN: 'secret-1', MASTER_ADDR: 'host-1', NCCL_DEBUG: 'INFO' },
      differences: [{ fact: 'env[WANDB_API_KEY]', a: 'secret-2', b: null }],
      usual: { 'env[HF_TOKEN]': 'secret-1' },
    });
    expect(['--token', 'HF_TOKEN', 'db_password', 'apiKey', 'AWS_SECRET_ACCESS_KEY'].map(nameKind)).toEqual([
      'secret',
      'secret',
      'secret',
      'secret',
      'secret',
    ]);
    expect(['--master', 'MASTER_ADDR', 'SLURM_JOB_NODELIST', 'hostname'].map(nameKind)).toEqual([
      'host',
      'host',
      'host',
      'host',
    ]);
    expect(['--tokenizer', 'max_tokens', 'PWD', 'MASTER_PORT', 'token_file', 'no-auth'].map(nameKind)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('other identifiers: GPU UUID prefixes, MIG and bare UUIDs, MAC addresses, labelled serials and machine ids', () => {
    const r = createRedactor({ snapshot: hogSnapshot() });
    expect(r.text('CUDA_VISIBLE_DEVICES=GPU-86cd2dae,MIG-0d1c2b3a-1111-2222-3333-444455556666')).toBe(
      'CUDA_VISIBLE_DEVICES=GPU-UUID-1,MIG-UUID-1',
    );
    expect(r.text('boot 4f1e2d3c-aaaa-bbbb-cccc-0123456789ab mac 0a:1b:2c:3d:4e:5f')).toBe('boot uuid-1 mac mac-1');
    expect(r.text('Serial Number : 1320123456789  machine-id: 0123456789abcdef0123456789abcdef')).toBe(
      'Serial Number : serial-2  machine-id: machine-id-1',
    ); // serial-1: the snapshot's GPU
  });

  it('hosts by context: URLs, user@host, c10d, srun, labels, private suffixes, machine-like public names', () => {
    const r = createRedactor();
    expect(
      r.text(
        'tcp://head-node:29500 ssh bob@dgx07 [worker-3]:29500 srun: error: gpu-a12: task 0 hostname: login2 db.prod.internal dgx01.acme.com docs.acme.com',
      ),
    ).toBe(
      'tcp://host-1:29500 ssh user-1@host-2 [host-3]:29500 srun: error: host-4: task 0 hostname: host-5 host-6 host-7 docs.acme.com',
    );
  });
});
