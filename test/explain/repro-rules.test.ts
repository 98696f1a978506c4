// Rules read on failures caused on purpose on a GPU machine (test/fixtures/repro, gpu-lab/repro/run.sh): each case
// is a real capture, explained as `explain FILE --json --no-machine` does.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const REPRO = path.resolve(__dirname, '../fixtures/repro');
const repro = (f: string): string => fs.readFileSync(path.join(REPRO, f), 'utf8');
const ids = (f: string) => explainText(repro(f)).causes.map((c) => c.id);

describe('a status or a message that names its cause decides over its wrapper', () => {
  it.each(['library_conflict/sublib.torch-heuristic.log', 'library_conflict/sublib.torch-graph-resnet.log'])(
    "%s: cuDNN's sub-library version status is copies of cuDNN mixed",
    (f) => {
      expect(repro(f)).toMatch(/cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH/);
      expect(ids(f)[0]).toBe('library_conflict');
    },
  );

  it("ptxas's ISA refusal in the driver's JIT log is the driver's; the toolkit's own ptxas is the toolkit's", () => {
    const jit = 'driver_too_old/driver.cuda-ptx-isa9.1.log';
    expect(repro(jit)).toMatch(
      /CUDA_ERROR_UNSUPPORTED_PTX_VERSION[\s\S]*ptxas application ptx input.*Unsupported \.version/,
    );
    expect(ids(jit)[0]).toBe('driver_too_old');
    const own = 'cuda_toolkit_mismatch/toolkit.ptxas-isa9.1.log';
    expect(repro(own)).not.toMatch(/CUDA_ERROR_UNSUPPORTED_PTX_VERSION/);
    expect(ids(own)[0]).toBe('cuda_toolkit_mismatch');
  });
});

describe("a wrapper that appends a CUDA status defers to the status's own message", () => {
  it.each(['library_conflict/driver.torch-compat-matmul.log', 'library_conflict/driver.torch-compat-resnet.log'])(
    "%s: Error 803 behind cudaGetDeviceCount is a libcuda that is not the kernel driver's",
    (f) => {
      expect(repro(f)).toMatch(/Unexpected error from cudaGetDeviceCount\(\).*Error 803: system has unsupported/);
      expect(ids(f)[0]).toBe('library_conflict');
    },
  );

  it('the same wrapper with another status follows that status', () => {
    const text =
      'RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling ' +
      'NumCudaDevices() that might have already set an error? Error 802: system not yet initialized\n';
    expect(explainText(text).causes[0]!.id).toBe('hardware_or_driver_fault');
  });
});

describe('settings the installed builds reject', () => {
  it.each([
    ['configuration_invalid/config.torch-allocconf-3.log', 'PYTORCH_CUDA_ALLOC_CONF', /ConfigTokenizer/],
    ['configuration_invalid/config.torch-allocconf-9.log', 'PYTORCH_CUDA_ALLOC_CONF', /divisions has to be power of 2/],
    ['configuration_invalid/config.jax-mem-5.log', 'XLA_PYTHON_CLIENT_ALLOCATOR', /env var must be one of/],
    ['configuration_invalid/config.cupy-limit-1.log', 'CUPY_GPU_MEMORY_LIMIT', /_parse_limit_string/],
  ])('%s: configuration_invalid, naming %s', (f, setting, text) => {
    const d = explainText(repro(f));
    expect(d.causes[0]!.id).toBe('configuration_invalid');
    expect(d.causes[0]!.setting).toBe(setting);
    expect(d.causes[0]!.evidence.map((e) => e.text).join('\n')).toMatch(text);
  });
});

describe("XLA's memory at start", () => {
  it('the preallocation stepped down, then a request that fits its first size failed: memory held elsewhere', () => {
    const f = 'memory_held_by_other_process/held.keep6000-jax-alloc.log';
    const d = explainText(repro(f));
    expect(d.causes[0]!.id).toBe('memory_held_by_other_process');
    expect(d.causes[0]!.why.join(' ')).toMatch(/16\.0 GiB\) fits in the 104\.9 GiB/);
    expect(d.causes.slice(0, 3).map((c) => c.id)).toContain('framework_preallocation');
    expect(d.causes[0]!.id).not.toBe('gpu_memory_exhausted');
  });

  it('out of memory creating the stream executor: the GPU was full, not a device hidden', () => {
    const f = 'memory_held_by_other_process/held.keep300-jax-alloc.log';
    expect(repro(f)).toMatch(/Failed to create stream executor.*CUDA_ERROR_OUT_OF_MEMORY[\s\S]*no supported devices/);
    expect(ids(f)[0]).toBe('memory_held_by_other_process');
  });

  it('a request larger than the size first asked for is not explained by memory held elsewhere', () => {
    // the same capture with the request's figures raised, as a job asking for 120 GiB prints them
    const text = repro('memory_held_by_other_process/held.keep6000-jax-alloc.log')
      .replaceAll('16.00GiB', '120.00GiB')
      .replaceAll('17179869184', '128849018880');
    const d = explainText(text);
    expect(d.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/fits in the/);
    expect(d.causes[0]!.id).not.toBe('memory_held_by_other_process');
  });
});

describe('a request larger than the largest GPU made, no GPU named: the job itself', () => {
  it("CuPy's 300 GiB request (allocated so far: 0 bytes) cannot fit on any GPU", () => {
    const f = 'gpu_memory_exhausted/toobig.cupy-matmul.log';
    expect(repro(f)).toMatch(/Out of memory allocating 322,121,906,176 bytes \(allocated so far: 0 bytes\)/);
    expect(ids(f)[0]).toBe('gpu_memory_exhausted');
  });

  it('a request the largest GPU could hold (200 GiB) leaves both readings: held stays first without the machine', () => {
    const f = 'gpu_memory_exhausted/toobig.cupy-alloc.log';
    expect(repro(f)).toMatch(/Out of memory allocating 214,748,364,800 bytes/);
    expect(ids(f)[0]).toBe('memory_held_by_other_process');
    expect(ids(f)).toContain('gpu_memory_exhausted');
  });
});
