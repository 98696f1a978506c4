// The native cuDNN smoke test (`check --deep`): its plan from the loader emulation, the Python asset run for real
// (python3, ctypes) against fake CUDA libraries built with gcc (test/fixtures/cuda/fake), the H200 captures of the
// prototype (test/fixtures/h200/smoke), and the verdicts of libs.cudnn-smoke on each.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { cudnnSmokeCheck } from '../../src/judge/checks/libraries/cudnn-smoke.js';
import type { Finding } from '../../src/judge/finding.js';
import { realRunner, type RunResult } from '../../src/ports/runner.js';
import { smokePlans, type SmokePlan } from '../../src/gather/python/smoke-plan.js';
import { interpretSmokeRun, SMOKE_MARK, SMOKE_SOURCE, startSmokeTests } from '../../src/gather/python/smoke.js';
import type { SmokeRun } from '../../src/gather/snapshot/schema-smoke.js';
import { statusMeaning, SMOKE_STATUSES } from '../../src/judge/checks/libraries/smoke-status.js';
import { isRootCauseId } from '../../src/knowledge/root-causes.js';
import type { Consumer } from '../../src/gather/snapshot/schema-libraries.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildFakeCuda } from '../helpers/fake-cuda.js';
import { planted } from '../helpers/snapshots.js';

const PYTHON = (
  spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout || ''
).trim();
const CAPTURES = path.resolve(__dirname, '../fixtures/h200/smoke');

let libs: { cudart: string; cudnn: string; cublas: string };
beforeAll(() => {
  const dir = tempDir('ged-fake-cuda-');
  libs = buildFakeCuda({ cudart: dir, cudnn: dir, cublas: dir });
}, 60000);

const plan = (over: Partial<SmokePlan> = {}): SmokePlan => ({
  consumers: [
    {
      framework: 'torch',
      path: '/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so',
      environment: '/opt/torch/.venv',
    },
  ],
  files: [
    { role: 'libcudart', path: libs.cudart, version: '13.0.96' },
    { role: 'libcublas', path: libs.cublas, version: '13.1.0.3' },
    { role: 'libcudnn', path: libs.cudnn, version: '9.19.0' },
  ],
  cudart: libs.cudart,
  cudnn: libs.cudnn,
  cublas: libs.cublas,
  ...over,
});

/** Runs the real asset under python3 against the fake libraries, in the scenario FAKE_CUDA names. */
async function smoke(fake: string, p: SmokePlan = plan()): Promise<SmokeRun> {
  const started = startSmokeTests([p], () => PYTHON, {
    runner: realRunner,
    env: { PATH: process.env.PATH, FAKE_CUDA: fake },
    timeoutMs: 30000,
  });
  started.go();
  return (await started.results)[0]!;
}

/** The check's findings for a snapshot of the H200 (idle, or with the hog holding memory) carrying these runs. */
function verdicts(runs: SmokeRun[], snap: 'h200-idle' | 'h200-memory-held' = 'h200-idle'): Finding[] {
  const s = planted(snap, (x) => {
    x.smoke = { skipped: null, runs };
  });
  return cudnnSmokeCheck.evaluate(s);
}

describe('the plan: one test per distinct set of files the frameworks would load', () => {
  const resolved = (family: string, p: string, version: string | null = null) => ({
    name: path.basename(p),
    family,
    path: p,
    realPath: p,
    version,
    via: 'rpath' as const,
    how: 'needed' as const,
    requestedBy: null,
    shadowed: [],
  });
  const consumer = (framework: Consumer['framework'], subsDir: string): Consumer => ({
    path: `/sp/${framework}/lib.so`,
    framework,
    environment: '/venv',
    notes: [],
    resolved: [
      resolved('libcudnn', '/sp/nvidia/cudnn/lib/libcudnn.so.9', '9.19.0'),
      resolved('libcudnn_cnn', `${subsDir}/libcudnn_cnn.so.9`),
      resolved('libcudnn_graph', `${subsDir}/libcudnn_graph.so.9`),
      resolved('libcudart', '/sp/nvidia/cu13/lib/libcudart.so.13', '13.0.96'),
      resolved('libcuda', '/usr/local/nvidia/lib64/libcuda.so.1', '580.159.04'),
      resolved('libcublas', '/sp/nvidia/cu13/lib/libcublas.so.13'),
    ],
  });

  it('loads libcuda, the runtime, cuBLAS, the sub-libraries (graph before cnn), then libcudnn; torch and JAX with the same files share one run', () => {
    const { plans } = smokePlans({
      consumers: [consumer('torch', '/sp/nvidia/cudnn/lib'), consumer('jax', '/sp/nvidia/cudnn/lib')],
    });
    expect(plans).toHaveLength(1);
    expect(plans[0]!.consumers.map((c) => c.framework)).toEqual(['torch', 'jax']);
    expect(plans[0]!.files.map((f) => f.role)).toEqual([
      'libcuda',
      'libcudart',
      'libcublas',
      'libcudnn_graph',
      'libcudnn_cnn',
      'libcudnn',
    ]);
  });

  it('a framework whose sub-libraries come from another folder gets a run of its own; CuPy and consumers without cuDNN get none', () => {
    const noCudnn: Consumer = {
      ...consumer('tensorflow', '/x'),
      resolved: consumer('tensorflow', '/x').resolved.filter((r) => r.family !== 'libcudnn'),
    };
    const { plans } = smokePlans({
      consumers: [
        consumer('torch', '/sp/nvidia/cudnn/lib'),
        consumer('jax', '/usr/lib/x86_64-linux-gnu'),
        consumer('cupy', '/x'),
        noCudnn,
      ],
    });
    expect(plans.map((p) => p.consumers.map((c) => c.framework))).toEqual([['torch'], ['jax']]);
    expect(smokePlans({ consumers: [noCudnn] })).toMatchObject({
      plans: [],
      skipped: expect.stringMatching(/no framework here loads cuDNN/),
    });
  });
});

describe('the asset under python3 against fake CUDA libraries', () => {
  it('idle: loads the files, creates the context, handle and cuBLAS, runs the convolution with the workspace to try every algorithm', async () => {
    const run = await smoke('');
    expect(run.exit).toBe('ok');
    expect(run.load).toEqual({ ok: true, error: null, file: null });
    expect(run.versions).toMatchObject({ cudnn: 91900, runtime: 13000 });
    expect(run.mapped).toEqual(expect.arrayContaining([libs.cudart, libs.cudnn, libs.cublas]));
    expect(run.gpus).toHaveLength(1);
    expect(run.gpus[0]).toMatchObject({
      device: 0,
      busId: '0000:00:06.0',
      handle: true,
      cublas: { code: 0, name: 'CUBLAS_STATUS_SUCCESS' },
      error: null,
    });
    expect(run.gpus[0]!.conv).toHaveLength(1);
    expect(run.gpus[0]!.conv[0]).toMatchObject({ ok: true, workspace: 'largest', algo: 1 });
    const f = verdicts([run]);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'info', status: 'ok', affects: { gpu: 0 } });
    expect(f[0]!.message).toMatch(/^cuDNN 9\.19\.0 ran a convolution on GPU 0 \(NVIDIA H200\) with PyTorch's files/);
  });

  it('a holder leaves 175 MiB: the workspace to try every algorithm does not fit, the smallest does; said as memory held by the other process', async () => {
    const run = await smoke('free=184090624');
    const g = run.gpus[0]!;
    expect(g.conv.map((c) => [c.workspace, c.ok])).toEqual([
      ['largest', false],
      ['smallest', true],
    ]);
    expect(g.conv[0]!.error).toMatchObject({
      api: 'cuda',
      call: 'cudaMalloc',
      code: 2,
      name: 'cudaErrorMemoryAllocation',
    });
    const f = verdicts([run], 'h200-memory-held');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warn', rootCause: 'memory_held_by_other_process' });
    expect(f[0]!.message).toMatch(
      /cuDNN works on GPU 0 \(NVIDIA H200\), but with 176 MiB free after its CUDA context it could not get the 743 MiB that a convolution trying every algorithm asks for/,
    );
    expect(f[0]!.message).toMatch(/with the smallest workspace \(0 MiB\) it ran/);
    expect(f[0]!.fix?.commands).toEqual(['gpu-env-doctor procs']);
    // on an idle machine the same failure is the job's own size, not another process
    expect(verdicts([run])[0]!.rootCause).toBe('gpu_memory_exhausted');
  });

  it('nothing free at all: even the tiny convolution fails, an error for memory', async () => {
    const run = await smoke('free=0');
    expect(run.gpus[0]!.conv.map((c) => c.ok)).toEqual([false, false, false]);
    const f = verdicts([run], 'h200-memory-held');
    expect(f[0]).toMatchObject({ severity: 'error', status: 'fail', rootCause: 'memory_held_by_other_process' });
    expect(f[0]!.message).toMatch(
      /could not run even a tiny convolution on GPU 0 \(NVIDIA H200\): 0 MiB free after the CUDA context \(cudaErrorMemoryAllocation\)/,
    );
  });

  it("compat libcuda older than the driver: CUDA's 803 from cudaGetDeviceCount, the driver named as the cause", async () => {
    const run = await smoke('init=803');
    expect(run.devices).toMatchObject({
      ok: false,
      error: { code: 803, name: 'cudaErrorSystemDriverMismatch', call: 'cudaGetDeviceCount' },
    });
    const f = verdicts([run]);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      severity: 'error',
      rootCause: 'driver_too_old',
      fix: { commands: ['gpu-env-doctor libs'] },
    });
    expect(f[0]!.message).toBe(
      "CUDA could not start with PyTorch's files: cudaErrorSystemDriverMismatch (803) from cudaGetDeviceCount: the libcuda that loaded does not match the kernel driver (a forward-compatibility libcuda from cuda-compat older than, or not meant for, this driver)",
    );
  });

  it('CUDNN_STATUS_NOT_INITIALIZED with plenty free is not called memory; with little free it is', async () => {
    const roomy = verdicts([await smoke('create=1001')]);
    expect(roomy[0]).toMatchObject({ severity: 'error', rootCause: 'other' });
    expect(roomy[0]!.message).toMatch(
      /cuDNN could not start on GPU 0 \(NVIDIA H200\): CUDNN_STATUS_NOT_INITIALIZED \(1001, cudnn\) from cudnnCreate/,
    );
    const tight = verdicts([await smoke('create=1001,free=50000000')], 'h200-memory-held');
    expect(tight[0]).toMatchObject({ rootCause: 'memory_held_by_other_process' });
    expect(tight[0]!.message).toMatch(/memory is the likely reason/);
  });

  it("a failing kernel is cuDNN's own status, not memory", async () => {
    const f = verdicts([await smoke('conv=5000')]);
    expect(f[0]).toMatchObject({ severity: 'error', rootCause: 'hardware_or_driver_fault' });
    expect(f[0]!.message).toMatch(
      /cuDNN failed a convolution on GPU 0 \(NVIDIA H200\): CUDNN_STATUS_EXECUTION_FAILED \(5000, cudnn\) from cudnnConvolutionForward/,
    );
  });

  it('every visible GPU is tried, each in its own thread', async () => {
    const run = await smoke('devices=3');
    expect(run.gpus.map((g) => [g.device, g.busId, g.conv[0]?.ok])).toEqual([
      [0, '0000:00:06.0', true],
      [1, '0000:01:06.0', true],
      [2, '0000:02:06.0', true],
    ]);
  });

  it('a file that does not load is the loader’s own message, and the run stops there', async () => {
    const run = await smoke(
      '',
      plan({
        files: [{ role: 'libcudnn_cnn', path: '/nonexistent/libcudnn_cnn.so.9', version: null }, ...plan().files],
      }),
    );
    expect(run.load).toMatchObject({ ok: false, file: '/nonexistent/libcudnn_cnn.so.9' });
    const f = verdicts([run]);
    expect(f[0]).toMatchObject({ severity: 'error', rootCause: 'library_missing' });
    expect(f[0]!.message).toMatch(/PyTorch's CUDA libraries do not load: .*nonexistent\/libcudnn_cnn\.so\.9/);
  });

  it('waits for the go-ahead before touching the GPU, and stops quietly without it', async () => {
    const p = plan();
    const r = await realRunner.run(
      PYTHON,
      [
        '-I',
        '-S',
        '-c',
        SMOKE_SOURCE,
        JSON.stringify({
          load: p.files.map((f) => f.path),
          cudart: p.cudart,
          cudnn: p.cudnn,
          cublas: p.cublas,
          wait: true,
        }),
      ],
      { input: '', env: { PATH: process.env.PATH } },
    );
    const run = interpretSmokeRun(p, PYTHON, r, 0);
    expect(run.load?.ok).toBe(true);
    expect(run.devices).toBeNull();
    expect(run.gpus).toEqual([]);
  });

  it('a cuDNN without the call the test needs: the test says it stopped, and why, without a verdict', async () => {
    const odd = buildFakeCuda(
      { cudart: tempDir('ged-odd-'), cudnn: tempDir('ged-odd-'), cublas: tempDir('ged-odd-') },
      ['NO_V7'],
    );
    const run = await smoke(
      '',
      plan({
        cudart: odd.cudart,
        cudnn: odd.cudnn,
        cublas: odd.cublas,
        files: [
          { role: 'libcudart', path: odd.cudart, version: null },
          { role: 'libcudnn', path: odd.cudnn, version: null },
        ],
      }),
    );
    expect(run.gpus[0]).toMatchObject({ handle: true, conv: [] });
    expect(run.gpus[0]!.crash).toMatch(/AttributeError: .*cudnnGetConvolutionForwardAlgorithm_v7/);
    const f = verdicts([run]);
    expect(f[0]).toMatchObject({ severity: 'warn', status: 'unknown' });
    expect(f[0]!.message).toMatch(/^The cuDNN smoke test stopped on GPU 0 \(NVIDIA H200\): AttributeError/);
  });

  it('told to stop (nvidia-smi hung): leaves after loading, never touching the GPU', async () => {
    const started = startSmokeTests([plan()], () => PYTHON, {
      runner: realRunner,
      env: { PATH: process.env.PATH },
      timeoutMs: 30000,
    });
    started.stop();
    const run = (await started.results)[0]!;
    expect(run.exit).toBe('ok');
    expect(run.load?.ok).toBe(true);
    expect(run.devices).toBeNull();
  });

  const py36 = ['/root/.pyenv/versions/3.6.15/bin/python3'].find((p) => fs.existsSync(p));
  it.skipIf(!py36)('runs under Python 3.6 (standard library only, no newer syntax)', async () => {
    const started = startSmokeTests([plan()], () => py36!, {
      runner: realRunner,
      env: { PATH: process.env.PATH, FAKE_CUDA: 'free=184090624' },
      timeoutMs: 30000,
    });
    started.go();
    const run = (await started.results)[0]!;
    expect(run.gpus[0]!.conv.map((c) => c.ok)).toEqual([false, true]);
  });
});

describe('what the H200 captures of the prototype say (test/fixtures/h200/smoke)', () => {
  /** The prototype's steps, put into the asset's format: the same facts (codes, names, versions, memory, maps). */
  function fromPrototype(file: string, mainVersion = '9.19.0'): SmokeRun {
    const steps = fs
      .readFileSync(path.join(CAPTURES, file), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown> & { step: string });
    const out: string[] = [];
    const emit = (o: object) => out.push(SMOKE_MARK + JSON.stringify(o));
    const v = steps.find((s) => s.step === 'versions');
    const maps = steps.find((s) => s.step === 'maps');
    emit({
      step: 'load',
      ok: true,
      files: [],
      versions: v ? { cudnn: v.cudnn, cudnnCudart: v.cudnnCudart, runtime: v.runtime, driver: v.driver } : {},
    });
    const fail = steps.find((s) => s.ok === false && s.step.startsWith('cuda'));
    if (fail)
      emit({
        step: 'devices',
        ok: false,
        error: { call: fail.step, api: 'cuda', code: fail.code, name: fail.name, text: fail.error },
      });
    else {
      const ctx = steps.find((s) => s.step === 'context')!;
      const conv = steps.find((s) => s.step === 'conv')!;
      emit({ step: 'devices', ok: true, count: ctx.devices });
      emit({
        step: 'device',
        device: 0,
        busId: '0000:00:06.0',
        contextMs: ctx.ms,
        freeBefore: ctx.free,
        total: ctx.total,
        handle: true,
        conv: [
          {
            shape: [8, 16, 64, 64, 32],
            workspace: 'smallest',
            algo: conv.algo,
            workspaceBytes: conv.workspace,
            tensorBytes: 0,
            ok: conv.ok,
          },
        ],
        freeAfter: conv.free,
      });
    }
    emit({ step: 'done', files: (maps?.files as string[] | undefined) ?? [] });
    const p: SmokePlan = {
      consumers: [
        {
          framework: 'torch',
          path: '/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so',
          environment: '/opt/torch/.venv',
        },
      ],
      files: [
        {
          role: 'libcudnn',
          path: '/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9',
          version: mainVersion,
        },
      ],
      cudart: '/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcudart.so.13',
      cudnn: '/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9',
      cublas: null,
    };
    const r: RunResult = fail
      ? { kind: 'non-zero', code: 4, stdout: out.join('\n'), stderr: '', durationMs: 700 }
      : { kind: 'ok', stdout: out.join('\n'), stderr: '', durationMs: 700 };
    return interpretSmokeRun(p, '/opt/torch/.venv/bin/python3', r, 700);
  }

  it('idle: cuDNN 9.19.0 ran on the H200', () => {
    const f = verdicts([fromPrototype('idle.jsonl')]);
    expect(f.map((x) => x.status)).toEqual(['ok']);
    expect(f[0]!.message).toMatch(
      /^cuDNN 9\.19\.0 ran a convolution on GPU 0 \(NVIDIA H200\) with PyTorch's files \(0\.70 s in all, CUDA context ready at 0\.26 s\)$/,
    );
  });

  it('compat libcuda: 803, the driver and compat library as the cause', () => {
    const f = verdicts([fromPrototype('compat.jsonl')]);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'error', rootCause: 'driver_too_old' });
    expect(f[0]!.message).toMatch(/cudaErrorSystemDriverMismatch \(803\)/);
  });

  it("system cuDNN first: cuDNN ran, but reports 9.14.0 for a 9.19.0 libcudnn, and names the sub-libraries' folder", () => {
    const f = verdicts([fromPrototype('system-first.jsonl')]);
    const mixed = f.find((x) => x.rootCause === 'cudnn_version_mismatch')!;
    expect(mixed).toMatchObject({ severity: 'warn' });
    expect(mixed.message).toBe(
      'cuDNN reports version 9.14.0 although libcudnn is 9.19.0: its sub-libraries came from /usr/lib/x86_64-linux-gnu',
    );
    expect(f.some((x) => x.status === 'ok' && /^cuDNN 9\.14\.0 ran a convolution/.test(x.message))).toBe(true);
  });

  it('the system copy alone is consistent (no mix to report)', () => {
    const f = verdicts([fromPrototype('system-only.jsonl', '9.14.0')]);
    expect(f.map((x) => x.status)).toEqual(['ok']);
  });
});

describe('the status table', () => {
  it('every row has a meaning, a source and a contract root cause (or none, when the evidence decides)', () => {
    for (const s of SMOKE_STATUSES) {
      expect(s.meaning.length, s.name).toBeGreaterThan(10);
      expect(s.source, s.name).toMatch(/docs\.nvidia\.com/);
      if (s.rootCause !== null) expect(isRootCauseId(s.rootCause), s.name).toBe(true);
    }
    expect(new Set(SMOKE_STATUSES.map((s) => s.name)).size).toBe(SMOKE_STATUSES.length);
  });

  it("cuDNN 9's sub-codes fall back to their family; unknown names stay unknown", () => {
    expect(statusMeaning('CUDNN_STATUS_NOT_SUPPORTED_SHAPE')?.name).toBe('CUDNN_STATUS_NOT_SUPPORTED');
    expect(statusMeaning('CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH')?.rootCause).toBe('gpu_arch_unsupported');
    expect(statusMeaning('CUDNN_STATUS_EXECUTION_FAILED_CUDART')?.kind).toBe('hardware');
    expect(statusMeaning('cudaErrorSomethingNew')).toBeNull();
  });
});
