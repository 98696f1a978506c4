// python.deep-conv and python.import-failed over probe results planted into the real H200 snapshots:
// at rest (h200-idle) and with hog.py holding all but 1200 MiB (h200-memory-held). The error texts are
// the ones the frameworks printed on that machine (test/fixtures/h200/logs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepConvCheck } from '../../src/judge/checks/python/deep-conv.js';
import { importFailedCheck } from '../../src/judge/checks/python/import-failed.js';
import type { ConvAttempt, FrameworkProbe, PythonSection } from '../../src/gather/snapshot/schema-python.js';
import { planted } from '../helpers/snapshots.js';
import { FIXTURES } from '../helpers/fake-bin.js';

const log = (name: string) => fs.readFileSync(path.join(FIXTURES, 'h200/logs', name), 'utf8');
const PY = '/opt/torch/.venv/bin/python3';

function probe(
  framework: FrameworkProbe['framework'],
  conv: Partial<ConvAttempt>[],
  extra: Partial<FrameworkProbe> = {},
): FrameworkProbe {
  return {
    framework,
    interpreter: PY,
    exit: 'ok',
    exitDetail: null,
    durationMs: 2100,
    imported: true,
    importError: null,
    info:
      framework === 'torch'
        ? { version: '2.11.0+cu130', cudnnVersion: 91900, archList: ['sm_90'] }
        : { version: '0.11.2', backend: 'gpu' },
    conv: conv.map((c) => ({ mode: 'configured', ok: false, error: null, alone: true, durationMs: 300, ...c })),
    loadedLibraries: ['/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9'],
    stderrTail: '',
    ...extra,
  };
}

function section(probes: FrameworkProbe[]): PythonSection {
  return {
    deep: true,
    deepSkipped: null,
    environments: [
      {
        prefix: '/opt/torch/.venv',
        kind: 'venv',
        interpreter: PY,
        pythonVersion: '3.12',
        sitePackages: ['/opt/torch/.venv/lib/python3.12/site-packages'],
        active: true,
        scanned: true,
        foundVia: ['PATH'],
        packages: [],
        distributionCount: 200,
        duplicates: [],
        frameworks: [
          {
            framework: 'torch',
            version: '2.11.0+cu130',
            cuda: '13.0',
            cudnn: null,
            hip: null,
            gpuBuild: true,
            computeCapabilities: null,
            sources: [],
            details: {},
          },
          {
            framework: 'jax',
            version: '0.11.2',
            cuda: '13',
            cudnn: null,
            hip: null,
            gpuBuild: true,
            computeCapabilities: null,
            sources: [],
            details: {},
          },
          {
            framework: 'tensorflow',
            version: '2.18.0',
            cuda: '12.5.1',
            cudnn: '9',
            hip: null,
            gpuBuild: true,
            computeCapabilities: null,
            sources: [],
            details: {},
          },
        ],
        probes,
        problems: [],
      },
    ],
  };
}

function run(base: 'h200-idle' | 'h200-memory-held', probes: FrameworkProbe[]) {
  const s = planted(base, (x) => {
    x.python = section(probes);
  });
  return { deep: deepConvCheck.evaluate(s), imports: importFailedCheck.evaluate(s) };
}

const oomContext = log('conv-small-hog.txt'); // torch.AcceleratorError: CUDA error: out of memory

describe('python.deep-conv', () => {
  it('with the hog holding memory: torch out of memory twice is the other process, not cuDNN', () => {
    const err = { type: 'torch.AcceleratorError', message: oomContext.slice(oomContext.indexOf('CUDA error')) };
    const { deep } = run('h200-memory-held', [probe('torch', [{ error: err }, { mode: 'no-cache', error: err }])]);
    expect(deep).toHaveLength(1);
    expect(deep[0]).toMatchObject({ severity: 'error', status: 'fail', rootCause: 'memory_held_by_other_process' });
    expect(deep[0]!.message).toBe(
      'PyTorch: the convolution could not get GPU memory (CUDA error: out of memory), also with empty_cache() and cudnn.benchmark off: cuDNN is not the problem, the memory is taken — GPU 0 has 1.2 GiB free of 140.4 GiB',
    );
    expect(deep[0]!.evidence.map((e) => e.text)).toContain('PID 589 python3 holds 138.6 GiB on GPU 0');
  });

  it('with the hog: JAX failing preallocation and passing without it names the holder', () => {
    const { deep } = run('h200-memory-held', [
      probe(
        'jax',
        [
          {
            error: {
              type: 'jaxlib._jax.XlaRuntimeError',
              message:
                'INTERNAL: Failed to initialize cuBLAS: failed to create cublas handle: the resource allocation failed',
            },
          },
          { mode: 'memory-growth', ok: true },
        ],
        {
          stderrTail: log('jax-prealloc-halfheld.txt'),
        },
      ),
    ]);
    expect(deep[0]).toMatchObject({ severity: 'warn', rootCause: 'memory_held_by_other_process' });
    expect(deep[0]!.message).toBe(
      'JAX: the convolution failed as configured and ran with XLA_PYTHON_CLIENT_PREALLOCATE=false: memory, not cuDNN — GPU 0 has 1.2 GiB free of 140.4 GiB; PID 589 python3 holds 138.6 GiB on GPU 0',
    );
  });

  it('at rest: JAX failing only with preallocation is the preallocation', () => {
    const { deep } = run('h200-idle', [
      probe('jax', [
        {
          error: {
            type: 'XlaRuntimeError',
            message: 'RESOURCE_EXHAUSTED: Out of memory while trying to allocate 112583507968 bytes.',
          },
        },
        { mode: 'memory-growth', ok: true },
      ]),
    ]);
    expect(deep[0]).toMatchObject({
      rootCause: 'framework_preallocation',
      fix: { commands: ['export XLA_PYTHON_CLIENT_PREALLOCATE=false'] },
    });
  });

  it("TensorFlow's cuDNN-worded failure with an out-of-memory line above it is memory", () => {
    const stderr = [
      '2026-12-02 09:40:01.1: E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:801] failed to allocate 1.40G (1507524608 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory',
      '2026-12-02 09:40:01.2: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:535] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED',
    ].join('\n');
    const err = {
      type: 'tensorflow.python.framework.errors_impl.UnknownError',
      message: 'Failed to get convolution algorithm. This is probably because cuDNN failed to initialize',
    };
    const { deep } = run('h200-memory-held', [
      probe('tensorflow', [{ error: err }, { mode: 'memory-growth', error: err }], { stderrTail: stderr }),
    ]);
    expect(deep[0]).toMatchObject({ rootCause: 'memory_held_by_other_process' });
    expect(deep[0]!.message).toMatch(
      /^TensorFlow: the convolution could not get GPU memory \(failed to allocate 1\.40G/,
    );
  });

  it('at rest: a cuDNN status with no memory error, also with memory growth, is cuDNN', () => {
    const err = { type: 'RuntimeError', message: 'cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH' };
    const { deep } = run('h200-idle', [probe('torch', [{ error: err }, { mode: 'no-cache', error: err }])]);
    expect(deep[0]).toMatchObject({ severity: 'error', rootCause: 'cudnn_version_mismatch' });
    expect(deep[0]!.message).toContain('cuDNN is broken, not short of memory');
    expect(deep[0]!.evidence.map((e) => e.text)).toContain(
      'loaded: /opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9',
    );
    expect(deep[0]!.fix!.commands).toContain('gpu-env-doctor libs');
  });

  it('a passing convolution is reported as ok with the cuDNN that loaded', () => {
    const { deep } = run('h200-idle', [probe('torch', [{ ok: true, durationMs: 412 }])]);
    expect(deep).toEqual([
      expect.objectContaining({
        status: 'ok',
        message: 'PyTorch: a convolution on the GPU ran in venv /opt/torch/.venv, cuDNN 9.19.0 (91900) (0.41 s)',
      }),
    ]);
  });

  it('a fact that raised after a passing convolution reaches the findings, worded after the call', () => {
    const err = {
      type: 'RuntimeError',
      message:
        'cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).',
    };
    const p = probe('torch', [{ ok: true, durationMs: 300 }], {
      info: { version: '2.11.0+cu130', errors: { cudnnVersion: err } },
    });
    const { deep } = run('h200-idle', [p]);
    const bad = deep.find((f) => f.status === 'fail')!;
    expect(bad).toMatchObject({ severity: 'error', rootCause: 'cudnn_version_mismatch' });
    expect(bad.message).toBe(
      'PyTorch: the convolution ran in venv /opt/torch/.venv, but torch.backends.cudnn.version() raised RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).',
    );
  });

  it('the in-process retry that passes after a cuDNN error is not read as memory (torch checks cuDNN once)', () => {
    const err = {
      type: 'RuntimeError',
      message:
        'cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).',
    };
    const { deep } = run('h200-idle', [probe('torch', [{ error: err }, { mode: 'no-cache', ok: true }])]);
    expect(deep[0]).toMatchObject({ severity: 'error', rootCause: 'cudnn_version_mismatch' });
  });

  it('a framework that sees no GPU on a GPU machine is reported with the reason', () => {
    const p = probe('torch', [], {
      info: { version: '2.11.0+cu130', cudaAvailable: false, convSkipped: 'torch.cuda.is_available() is False' },
    });
    const { deep } = run('h200-idle', [p]);
    expect(deep[0]).toMatchObject({
      rootCause: 'no_device_visible',
      message:
        'PyTorch in venv /opt/torch/.venv sees no GPU (torch.cuda.is_available() is False), although this machine has one',
    });
  });
});

describe('python.import-failed', () => {
  it('keeps the exact import error and gives a first root cause', () => {
    const p = probe('tensorflow', [], {
      imported: false,
      info: null,
      importError: {
        type: 'ImportError',
        message: 'libcudnn.so.8: cannot open shared object file: No such file or directory',
        traceback:
          'Traceback (most recent call last):\n  File "<string>", line 140\nImportError: libcudnn.so.8: cannot open shared object file',
      },
    });
    const { imports, deep } = run('h200-idle', [p]);
    expect(deep).toEqual([]);
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatchObject({
      severity: 'error',
      rootCause: 'library_missing',
      message:
        'TensorFlow in venv /opt/torch/.venv does not import: ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory',
    });
    expect(imports[0]!.evidence[0]).toEqual({
      text: 'ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory',
      source: `${PY} -c <probe> tensorflow`,
    });
  });

  it('reports an import that crashed the interpreter', () => {
    const p = probe('jax', [], {
      imported: null,
      info: null,
      exit: 'signal',
      exitDetail: `${PY} was killed by SIGSEGV`,
      stderrTail:
        'Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call first):\n  File "/opt/torch/.venv/lib/python3.12/site-packages/jaxlib/xla_client.py", line 30',
    });
    const { imports } = run('h200-idle', [p]);
    expect(imports[0]!.message).toBe(`JAX in venv /opt/torch/.venv: the import crashed (${PY} was killed by SIGSEGV)`);
    expect(imports[0]!.evidence[1]!.text).toContain('Fatal Python error: Segmentation fault');
  });
});
