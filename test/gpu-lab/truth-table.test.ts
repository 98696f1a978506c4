// The truth table's judge (gpu-lab/truth/judge.mjs) on recorded scenario folders: it must call agreement and
// disagreement from the facts, never by hand. And the staging script in dry mode (fake python3 and
// nvidia-smi): a live holder stays a child of the script (parent alive) and every process it started is ended.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

import * as judge from '../../gpu-lab/truth/judge.mjs';
const REPO = path.resolve(__dirname, '../..');
const CAPTURES = path.join(REPO, 'test/fixtures/h200-truth/framework');

function scenario(files: Record<string, string | object>): string {
  const d = tempDir('ged-truthjudge-');
  for (const [name, content] of Object.entries(files))
    fs.writeFileSync(path.join(d, name), typeof content === 'string' ? content : JSON.stringify(content));
  return d;
}
const meta = (id: string, framework: string, causes: string) =>
  `id=${id}\ntitle=${id}\nframework=${framework}\ncauses=${causes}\n`;
const finding = (o: object) => ({
  severity: 'error',
  status: 'fail',
  rootCause: 'other',
  message: '',
  evidence: [],
  ...o,
});

describe('judge: PYTORCH_CUDA_ALLOC_CONF', () => {
  const garbage = fs.readFileSync(path.join(CAPTURES, 'torch-allocconf-garbage.txt'), 'utf8');
  it('torch aborted at import (the H200 capture, exit 134) and check said so: agree', () => {
    const d = scenario({
      'meta.env': meta('allocconf-0', 'torch', '-'),
      'job-alloc.out': garbage,
      'job-alloc.exit': '134',
      'check.json': {
        findings: [
          finding({
            check: 'env.allocators',
            message:
              'PyTorch aborts at import: PYTORCH_CUDA_ALLOC_CONF — "garbage" breaks its key:value,key:value structure',
          }),
        ],
      },
    });
    const r = judge.judgeScenario(d);
    expect(r.agree.check).toBe(true);
    expect(r.did).toMatch(/exit 134: what\(\): i < config_\.size\(\) INTERNAL ASSERT FAILED .* \(fails at: import\)/);
  });
  it('the same failure told as "at the first CUDA call" (what check used to say): disagree', () => {
    const d = scenario({
      'meta.env': meta('allocconf-0', 'torch', '-'),
      'job-alloc.out': garbage,
      'job-alloc.exit': '134',
      'check.json': {
        findings: [
          finding({
            check: 'env.allocators',
            severity: 'warn',
            status: 'warn',
            message: 'PyTorch fails at the first CUDA call: PYTORCH_CUDA_ALLOC_CONF',
          }),
        ],
      },
    });
    expect(judge.judgeScenario(d).agree.check).toBe(false);
  });
});

describe('judge: the system cuDNN first, torch', () => {
  const version = fs.readFileSync(path.join(CAPTURES, 'torch-system-first.txt'), 'utf8');
  const mix = (consequences: object[]) => ({
    findings: [
      finding({
        check: 'libs.cudnn-sublibrary-mismatch',
        affects: { framework: 'torch' },
        message: 'PyTorch loads libcudnn 9.19.0 …',
        consequences,
      }),
    ],
  });
  const base = {
    'meta.env': meta('system-cudnn-torch', 'torch', 'cudnn_version_mismatch,library_conflict'),
    'job-conv.out': 'JOB-OK torch conv\n',
    'job-conv.exit': '0',
    'job-version.out': version,
    'job-version.exit': '1',
  };
  it('conv ran, cudnn.version() raised; check says runs + fails: agree', () => {
    const d = scenario({
      ...base,
      'check.json': mix([
        { framework: 'torch', outcome: 'runs', certainty: 'verified' },
        { framework: 'torch', outcome: 'fails', certainty: 'verified' },
      ]),
    });
    expect(judge.judgeScenario(d).agree.check).toBe(true);
  });
  it('check saying only that torch fails (the conv ran): disagree', () => {
    const d = scenario({
      ...base,
      'check.json': mix([{ framework: 'torch', outcome: 'fails', certainty: 'verified' }]),
    });
    expect(judge.judgeScenario(d).agree.check).toBe(false);
  });
  it('check --deep: the version() failure must reach its findings', () => {
    const deepOk = {
      findings: [
        {
          check: 'python.deep-conv',
          severity: 'info',
          status: 'ok',
          message: 'PyTorch: a convolution on the GPU ran',
          affects: { framework: 'torch' },
        },
      ],
    };
    const deepBad = {
      findings: [
        {
          check: 'python.deep-conv',
          severity: 'error',
          status: 'fail',
          message:
            'PyTorch: the convolution ran in venv x, but torch.backends.cudnn.version() raised RuntimeError: cuDNN version incompatibility',
          affects: { framework: 'torch' },
        },
      ],
    };
    expect(judge.judgeScenario(scenario({ ...base, 'deep.json': deepOk })).agree.deep).toBe(false);
    expect(judge.judgeScenario(scenario({ ...base, 'deep.json': deepBad })).agree.deep).toBe(true);
  });
});

describe('judge: holders and JAX settings', () => {
  const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.\n';
  const base = {
    'meta.env': meta('holder-live', 'torch', 'memory_held_by_other_process'),
    'job-gib.out': oom,
    'job-gib.exit': '1',
    'holders.txt': '4242 torch live\n',
  };
  it('a live holder shown as active PyTorch: agree; shown as orphaned: disagree', () => {
    const row = (verdict: string) => ({
      processes: [{ pid: 4242, verdict, usedMiB: 142571, framework: { name: 'torch', evidence: [] } }],
    });
    expect(judge.judgeScenario(scenario({ ...base, 'procs.json': row('active') })).agree.procs).toBe(true);
    expect(judge.judgeScenario(scenario({ ...base, 'procs.json': row('orphaned') })).agree.procs).toBe(false);
  });
  it('JAX fell back to the CPU (exit 0): only "runs on the CPU" agrees', () => {
    const out = fs
      .readFileSync(path.join(CAPTURES, 'jax-memfrac-abc.txt'), 'utf8')
      .replace('jax conv ok (8, 32, 64, 64)', 'JOB-OK jax conv (8, 32, 64, 64) platform cpu memory {}');
    const files = { 'meta.env': meta('jax-setting-0', 'jax', 'other'), 'job-conv.out': out, 'job-conv.exit': '0' };
    expect(
      judge.judgeScenario(
        scenario({
          ...files,
          'check.json': {
            findings: [
              finding({
                check: 'env.allocators',
                message: 'JAX runs on the CPU, not the GPU: XLA_PYTHON_CLIENT_MEM_FRACTION="abc" is not a number',
              }),
            ],
          },
        }),
      ).agree.check,
    ).toBe(true);
    expect(
      judge.judgeScenario(
        scenario({
          ...files,
          'check.json': {
            findings: [
              finding({
                check: 'env.allocators',
                severity: 'warn',
                status: 'warn',
                message: 'XLA_PYTHON_CLIENT_MEM_FRACTION="abc" must be a fraction between 0 and 1',
              }),
            ],
          },
        }),
      ).agree.check,
    ).toBe(false);
  });
  it('the table marks a row NO when one command disagrees, and counts', () => {
    const rows: judge.ScenarioResult[] = [
      { m: { id: 'a', title: 'a', causes: [] }, did: 'x', cells: { check: 'ok' }, agree: { check: true } },
      {
        m: { id: 'b', title: 'b | c', causes: [] },
        did: 'y',
        cells: { check: 'no', run: 'exit 1' },
        agree: { check: false, run: true },
      },
    ];
    const t = judge.renderTable(rows, []);
    expect(t).toContain('| b \\| c | y |');
    expect(t).toMatch(/\| NO \|/);
    expect(t).toContain('1 agree, 1 disagree, 0 not applicable or not staged.');
  });
});

describe('truth-table.sh in dry mode (fake python3 and nvidia-smi)', () => {
  it('stages a live holder (its parent, the script, alive), writes the table and the archive, and ends every process it started', () => {
    const work = tempDir('ged-truthdry-');
    const out = tempDir('ged-truthout-');
    const r = spawnSync('bash', [path.join(REPO, 'gpu-lab/truth-table.sh')], {
      cwd: REPO,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/root',
        TRUTH_DRY: '1',
        TRUTH_ONLY: 's_holder_state live',
        TRUTH_PAR: '2',
        OUT: out,
        TRUTH_WORK: work,
      },
      encoding: 'utf8',
      timeout: 170000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const table = fs.readFileSync(path.join(out, 'truth-table.md'), 'utf8');
    expect(table).toMatch(
      /\| a hog\.py holder that is live; a torch job of 4 GiB \| gib: exit 1: torch\.OutOfMemoryError/,
    );
    expect(table).toMatch(/\*\*procs\*\*: PID \d+: active/);
    expect(fs.statSync(path.join(out, 'truth-table.tgz')).size).toBeGreaterThan(1000);
    const pid = Number(fs.readFileSync(path.join(work, 's/holder-live/holders.txt'), 'utf8').split(' ')[0]);
    expect(fs.existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))).toBe(
      false,
    );
  }, 180000);
});

describe('judge: the rows of issue 27', () => {
  const H200_XML = fs.readFileSync(path.join(REPO, 'test/fixtures/h200/idle/nvidia-smi-q.xml'), 'utf8');
  const SHM_DF = '           Size Mounted on\n 134217728000 /dev/shm\n';
  const nodeFiles = {
    'meta.env': meta('node-facts', 'none', '-'),
    'nvidia-smi-q.xml': H200_XML,
    'shm-df.txt': SHM_DF,
    'dmesg.exit': '0',
    'dmesg.txt': '[    5.1] NVRM: loading NVIDIA UNIX Open Kernel Module\n',
  };
  const nodeCheck = (statuses: Record<string, string>) => ({
    findings: Object.entries(statuses).map(([check, status]) =>
      finding({ check, status, severity: status === 'ok' ? 'info' : 'warn', message: `${check} ${status}` }),
    ),
  });

  it('node facts: the H200 capture (persistence on, Default, idle, gen 5 x16) read as the node checks should', () => {
    const e = judge.nodeExpectations(H200_XML, SHM_DF, 0, '');
    expect(e['node.persistence']).toEqual({ raw: 'persistence_mode Enabled', want: ['ok'] });
    expect(e['node.compute-mode']!.raw).toBe('compute_mode Default');
    expect(e['node.clocks']).toEqual({ raw: 'reasons Active: gpu_idle', want: ['ok'] });
    expect(e['node.pcie-link']).toEqual({ raw: 'gen 5/5 x16/x16 idle', want: ['ok'] });
    expect(e['node.shm']!.want).toEqual(['ok']);
    expect(
      judge.nodeExpectations(
        H200_XML.replace('<persistence_mode>Enabled', '<persistence_mode>Disabled').replace(
          '<current_link_width>16x',
          '<current_link_width>8x',
        ),
        ' 67108864 /dev/shm\n',
        1,
        '',
      ),
    ).toMatchObject({
      'node.persistence': { want: ['warn'] },
      'node.pcie-link': { raw: 'gen 5/5 x8/x16 idle', want: ['warn'] },
      'node.shm': { raw: '/dev/shm 64 MiB', want: ['warn'] },
      'node.kernel-log': { raw: 'dmesg exit 1', want: ['unknown'] },
    });
  });
  it('node facts: every check as the raw values say agrees; a persistence warning on a GPU with persistence on does not; a missing check is n/a', () => {
    const all = {
      'node.persistence': 'ok',
      'node.compute-mode': 'ok',
      'node.clocks': 'ok',
      'node.pcie-link': 'ok',
      'node.shm': 'ok',
      'node.kernel-log': 'ok',
    };
    const good = judge.judgeScenario(scenario({ ...nodeFiles, 'check.json': nodeCheck(all) }));
    expect(Object.values(good.agree).every((v) => v === true)).toBe(true);
    expect(good.cells['node.persistence']).toBe('persistence_mode Enabled → ok');
    const bad = judge.judgeScenario(
      scenario({ ...nodeFiles, 'check.json': nodeCheck({ ...all, 'node.persistence': 'warn' }) }),
    );
    expect(bad.agree['node.persistence']).toBe(false);
    const older = judge.judgeScenario(scenario({ ...nodeFiles, 'check.json': nodeCheck({ 'node.clocks': 'ok' }) }));
    expect(older.agree['node.shm']).toBeNull();
    expect(judge.renderTable([older], [])).toContain('**node.clocks**: reasons Active: gpu_idle → ok ✓');
  });
  it('the kernel log as another user: dmesg refused (dmesg_restrict=1) and only "unknown" agrees, never "no Xid"', () => {
    const files = {
      'meta.env': meta('node-kernel-log-nobody', 'none', '-'),
      'dmesg.exit': '1',
      'dmesg.err': 'dmesg: read kernel buffer failed: Operation not permitted\n',
    };
    const unknown = judge.judgeScenario(
      scenario({ ...files, 'check.json': nodeCheck({ 'node.kernel-log': 'unknown' }) }),
    );
    expect(unknown.cells).toEqual({ 'node.kernel-log': 'dmesg exit 1 → unknown' });
    expect(unknown.agree).toEqual({ 'node.kernel-log': true });
    expect(
      judge.judgeScenario(scenario({ ...files, 'check.json': nodeCheck({ 'node.kernel-log': 'ok' }) })).agree,
    ).toEqual({ 'node.kernel-log': false });
  });
  it('a 64 MiB /dev/shm: the DataLoader died and only a node.shm warning agrees', () => {
    const files = {
      'meta.env': meta('node-shm-small', 'torch', '-'),
      'shm-df.txt': ' 67108864 /dev/shm\n',
      'job-dataloader.out':
        'ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\nRuntimeError: DataLoader worker (pid(s) 4242) exited unexpectedly\n',
      'job-dataloader.exit': '1',
    };
    expect(
      judge.judgeScenario(scenario({ ...files, 'check.json': nodeCheck({ 'node.shm': 'warn' }) })).agree.check,
    ).toBe(true);
    expect(judge.judgeScenario(scenario({ ...files, 'check.json': nodeCheck({ 'node.shm': 'ok' }) })).agree.check).toBe(
      false,
    );
  });

  const twoOut =
    'JAX ready in PID 77 platform gpu memory {"pool_bytes": 112583507968}\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 33.51 GiB is free. Including non-PyTorch memory, this process has 105.76 GiB memory in use.\n';
  const two = (cause: string, fixedExit: string) =>
    scenario({
      'meta.env': meta('two-frameworks', 'torch', 'framework_preallocation'),
      'job-both.out': twoOut,
      'job-both.exit': '1',
      'job-fixed.out': 'JOB-OK jax then torch allocated 40 GiB\n',
      'job-fixed.exit': fixedExit,
      'explain-both.json': { causes: [{ id: cause, confidence: 0.9 }] },
      'run-both.exit': '1',
      'run-both.json': { diagnosis: { causes: [{ id: cause, confidence: 0.9 }] } },
    });
  it('two frameworks in one process: framework_preallocation agrees, "the job does not fit" does not; the re-run with preallocation off must run', () => {
    const good = judge.judgeScenario(two('framework_preallocation', '0'));
    expect(good.agree).toEqual({ explain: true, run: true, rerun: true });
    expect(good.did).toMatch(/both: exit 1: torch\.OutOfMemoryError.*\(JAX ready in PID 77/);
    const wrong = judge.judgeScenario(two('gpu_memory_exhausted', '0'));
    expect(wrong.agree.explain).toBe(false);
    expect(wrong.agree.run).toBe(false);
    expect(judge.judgeScenario(two('framework_preallocation', '1')).agree.rerun).toBe(false);
  });

  it('a nearly full GPU: explain and run must name the holder PID; check must give an error', () => {
    const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n';
    const base = {
      'meta.env': meta('nearly-full', 'torch', 'memory_held_by_other_process'),
      'holders.txt': '4242 torch\n',
      'job-torch.out': oom,
      'job-torch.exit': '1',
      'job-jax.out': 'jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: out of memory\n',
      'job-jax.exit': '1',
      'job-cupy.out': 'cupy.cuda.memory.OutOfMemoryError: Out of memory\n',
      'job-cupy.exit': '1',
    };
    const cause = (text: string) => ({
      causes: [{ id: 'memory_held_by_other_process', confidence: 0.97, evidence: [{ text }] }],
    });
    const headroom = {
      findings: [
        finding({
          check: 'memory.headroom',
          rootCause: 'memory_held_by_other_process',
          message: 'GPU 0: 0.3 GiB free of 140.4 GiB',
        }),
      ],
    };
    const deep = {
      findings: [
        finding({ check: 'libs.cudnn-smoke', message: 'cudaSetDevice failed: cudaErrorMemoryAllocation (2)' }),
      ],
    };
    const good = judge.judgeScenario(
      scenario({
        ...base,
        'check.json': headroom,
        'deep.json': deep,
        'explain-torch.json': cause('PID 4242 python3 holds 139.5 GiB'),
      }),
    );
    expect(good.agree).toEqual({ check: true, deep: true, explain: true });
    const noPid = judge.judgeScenario(
      scenario({
        ...base,
        'check.json': {
          findings: [finding({ check: 'memory.headroom', severity: 'info', status: 'ok', message: 'ok' })],
        },
        'explain-torch.json': cause('another process holds 139.5 GiB'),
      }),
    );
    expect(noPid.agree).toEqual({ check: false, explain: false });
  });

  it('another user\'s holder: "other user" in procs, alive after fix --yes, its user named by check', () => {
    const base = {
      'meta.env': meta('other-user', 'torch', 'memory_held_by_other_process'),
      'holders.txt': '4242 torch other\n',
      'holder-user.txt': 'nobody\n',
      'holder.out': 'HOLDING small PID 4242 uid 65534\n',
      'check.json': {
        findings: [
          finding({
            check: 'memory.holders',
            severity: 'warn',
            status: 'warn',
            message: 'PID 4242 (nobody) holds 2.0 GiB on GPU 0: other user',
          }),
        ],
      },
    };
    const procs = (verdict: string) => ({ processes: [{ pid: 4242, verdict, user: 'nobody' }] });
    expect(
      judge.judgeScenario(
        scenario({ ...base, 'procs.json': procs('other user'), 'after-fix.txt': 'alive\n', 'fix.exit': '0' }),
      ).agree,
    ).toEqual({ procs: true, check: true, fix: true });
    const killed = judge.judgeScenario(
      scenario({ ...base, 'procs.json': procs('orphaned'), 'after-fix.txt': 'gone\n', 'fix.exit': '0' }),
    );
    expect(killed.agree).toEqual({ procs: false, check: true, fix: false });
    expect(killed.cells.fix).toBe('exit 0; PID 4242 ended');
  });

  it('LD_PRELOAD: libs must name the preloaded file and each sub-library as /proc/self/maps shows it (LD_DEBUG when the process died)', () => {
    const d = scenario({
      'meta.env': meta('preload-torch', 'torch', 'cudnn_version_mismatch,library_conflict'),
      'job-torch.out':
        'RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).\n',
      'job-torch.exit': '1',
    });
    for (const f of [
      'sys/libcudnn.so.9.14.0',
      'sys/libcudnn_graph.so.9.14.0',
      'pip/libcudnn.so.9',
      'pip/libcudnn_graph.so.9',
    ]) {
      fs.mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
      fs.writeFileSync(path.join(d, f), '');
    }
    const p = (f: string) => path.join(d, f);
    fs.writeFileSync(p('preload-real.txt'), `${p('sys/libcudnn.so.9.14.0')}\n`);
    fs.writeFileSync(
      p('maps-torch.txt'),
      [p('pip/libcudnn.so.9'), p('sys/libcudnn.so.9.14.0'), p('sys/libcudnn_graph.so.9.14.0')].join('\n'),
    );
    const libs = (main: string, graph: string) => ({
      libraries: {
        consumers: [
          {
            framework: 'torch',
            resolved: [
              { name: 'libcudnn.so.9', realPath: p(main), via: 'x' },
              { name: 'libcudnn_graph.so.9', realPath: p(graph), via: 'y' },
            ],
          },
        ],
      },
    });
    fs.writeFileSync(p('libs.json'), JSON.stringify(libs('sys/libcudnn.so.9.14.0', 'sys/libcudnn_graph.so.9.14.0')));
    fs.writeFileSync(
      p('deep.json'),
      JSON.stringify({
        findings: [
          finding({
            check: 'libs.cudnn-smoke',
            severity: 'info',
            status: 'ok',
            message: 'cuDNN 9.14.0 ran a convolution on GPU 0',
          }),
        ],
      }),
    );
    let r = judge.judgeScenario(d);
    expect(r.agree['libs --json']).toBe(true);
    expect(r.agree.deep).toBe(true);
    // what the tool said before: the pip copy "preloaded", a convolution by 9.19.0
    fs.writeFileSync(p('libs.json'), JSON.stringify(libs('pip/libcudnn.so.9', 'pip/libcudnn_graph.so.9')));
    fs.writeFileSync(
      p('deep.json'),
      JSON.stringify({
        findings: [
          finding({
            check: 'libs.cudnn-smoke',
            severity: 'info',
            status: 'ok',
            message: 'cuDNN 9.19.0 ran a convolution on GPU 0',
          }),
        ],
      }),
    );
    r = judge.judgeScenario(d);
    expect(r.agree['libs --json']).toBe(false);
    expect(r.agree.deep).toBe(false);
    fs.rmSync(p('maps-torch.txt'));
    fs.writeFileSync(p('lddebug-torch-cudnn.txt'), `calling init: ${p('sys/libcudnn.so.9.14.0')}\n`);
    expect(judge.mappedCudnn(d, 'torch')).toEqual({ from: 'LD_DEBUG', files: [p('sys/libcudnn.so.9.14.0')] });
  });

  it('a truncated sub-library: the jobs died (SIGBUS) and only a libs.unloadable error naming the cut file agrees', () => {
    const sh = '/tmp/ged-truth/shadow/libcudnn_graph.so.9';
    const base = {
      'meta.env': meta('truncated-graph', 'torch', 'library_missing'),
      'shadow.txt': `${sh} 1048576 of 4451728 bytes\n`,
      'job-torch.out': '',
      'job-torch.exit': '135',
      'job-jax.out': '',
      'job-jax.exit': '135',
      'lddebug-torch-cudnn.txt': `trying file=${sh}\n`,
      'libs.json': {
        consumers: [
          {
            framework: 'torch',
            resolved: [
              {
                name: 'libcudnn_graph.so.9',
                path: sh,
                realPath: sh,
                via: 'ld_library_path',
                error: 'truncated dynamic section',
              },
            ],
          },
        ],
      },
    };
    const unloadable = {
      findings: [
        finding({
          check: 'libs.unloadable',
          rootCause: 'library_missing',
          affects: { framework: 'torch' },
          message: `PyTorch: libcudnn_graph.so.9 is reached first at ${sh} (LD_LIBRARY_PATH), a file cut short`,
        }),
      ],
    };
    const r = judge.judgeScenario(scenario({ ...base, 'check.json': unloadable }));
    expect(r.agree['check torch']).toBe(true);
    expect(r.agree['libs torch']).toBe(true);
    expect(r.agree['check jax']).toBe(false);
    expect(r.did).toBe('torch: exit 135:  (SIGBUS); jax: exit 135:  (SIGBUS)');
    const warnOnly = judge.judgeScenario(
      scenario({
        ...base,
        'check.json': { findings: [finding({ ...unloadable.findings[0], severity: 'warn', status: 'warn' })] },
      }),
    );
    expect(warnOnly.agree['check torch']).toBe(false);
  });

  it("procs: a row that is not a staged holder (the tool's own nvidia-smi) makes the row NO", () => {
    const a = scenario({
      'holders.txt': '4242 torch live\n',
      'procs.json': { processes: [{ pid: 4242, verdict: 'active' }] },
    });
    expect(judge.procsSelfRow([a])?.row).toBe('yes');
    const b = scenario({
      'holders.txt': '4242 torch live\n',
      'procs.json': {
        processes: [
          { pid: 4242, verdict: 'active' },
          { pid: 1379, name: 'nvidia-smi', verdict: 'invisible' },
        ],
      },
    });
    expect(judge.procsSelfRow([a, b])).toMatchObject({
      row: 'NO',
      said: expect.stringContaining('PID 1379 nvidia-smi (invisible)'),
    });
    expect(judge.procsSelfRow([scenario({ 'holders.txt': '1\n' })])).toBeNull();
  });
});

describe('truth-table.sh TRUTH_ROWS=new in dry mode', () => {
  it('stages every new row, judges each, and ends every process it started; an unknown TRUTH_ROWS is exit 2', () => {
    const work = tempDir('ged-truthnew-');
    const out = tempDir('ged-truthnewout-');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      TRUTH_DRY: '1',
      TRUTH_ROWS: 'new',
      OUT: out,
      TRUTH_WORK: work,
    };
    const r = spawnSync('bash', [path.join(REPO, 'gpu-lab/truth-table.sh')], {
      cwd: REPO,
      env,
      encoding: 'utf8',
      timeout: 170000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const table = fs.readFileSync(path.join(out, 'truth-table.md'), 'utf8');
    for (const id of [
      'nearly-full',
      'two-frameworks',
      'other-user',
      'node-facts',
      'node-shm-small',
      'node-kernel-log-nobody',
      'preload-torch',
      'preload-jax',
      'truncated-graph',
    ])
      expect(fs.existsSync(path.join(work, 's', id, 'meta.env')), id).toBe(true);
    // the old rows stay out of TRUTH_ROWS=new
    expect(fs.existsSync(path.join(work, 's/idle'))).toBe(false);
    expect(table).toMatch(
      /\| a nearly full GPU .* \| torch: exit 1: torch\.OutOfMemoryError.*; jax: exit 1: .*; cupy: exit 1: cupy\.cuda\.memory\.OutOfMemoryError/,
    );
    // the fake nvidia-smi counts the hog: check gives its headroom error
    expect(table).toMatch(
      /used, free, total: 142856 MiB, 300 MiB, 143771 MiB\) \| \*\*check\*\*: ✗ GPU 0 has 300 MiB free .* ✓<br>/,
    );
    expect(table).toMatch(
      /\| two frameworks in one process.*\*\*the same job with the fix\*\*: XLA_PYTHON_CLIENT_PREALLOCATE=false: fixed: ran \(exit 0\) ✓/,
    );
    expect(table).toMatch(/\*\*fix --yes\*\*: exit \d+; PID \d+ still alive afterwards ✓/);
    expect(table).toMatch(/node checks against .*persistence_mode Enabled; compute_mode Default/);
    expect(table).toMatch(/truncated libcudnn_graph\.so\.9 .* \| torch: exit 135: {2}\(SIGBUS\); jax: exit 135/);
    expect(table).toContain('procs lists only the holders staged here');
    for (const d of ['nearly-full', 'other-user']) {
      const pid = Number(fs.readFileSync(path.join(work, 's', d, 'holders.txt'), 'utf8').split(' ')[0]);
      expect(fs.existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))).toBe(
        false,
      );
    }
    const bad = spawnSync('bash', [path.join(REPO, 'gpu-lab/truth-table.sh')], {
      cwd: REPO,
      env: { ...env, TRUTH_ROWS: 'newest' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('TRUTH_ROWS must be old, new or all, not "newest"\n');
  }, 180000);
});
