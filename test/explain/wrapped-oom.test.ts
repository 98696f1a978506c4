// A terminal wraps a long line: PyTorch 1.x's out-of-memory message broken inside its parenthesis is read whole
// (src/explain/collect.ts continueOpen), and a reserved-but-unallocated cache too small to matter is not
// fragmentation (src/explain/analyse/memory.ts FRAGMENT_SHARE).
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

// as pasted from an 80-column terminal (a ChatGLM-6B fine-tuning report)
const WRAPPED = `OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 39.56
GiB total capacity; 37.88 GiB already allocated; 32.56 MiB free; 38.21 GiB
reserved in total by PyTorch) If reserved memory is >> allocated memory try
setting max_split_size_mb to avoid fragmentation.  See documentation for Memory
Management and PYTORCH_CUDA_ALLOC_CONF`;
const ONE_LINE = WRAPPED.replace(/\n/g, ' ');

describe('a wrapped out-of-memory message', () => {
  it('is read with its figures after the wrap, as the same message on one line', () => {
    const wrapped = explainText(WRAPPED);
    const flat = explainText(ONE_LINE);
    expect(wrapped.causes[0]!.id).toBe('gpu_memory_exhausted');
    expect(flat.causes[0]!.id).toBe('gpu_memory_exhausted');
    expect(wrapped.causes[0]!.why.join(' ')).toMatch(/38\.2 GiB reserved of 39\.6 GiB/);
    expect(flat.causes[0]!.why.join(' ')).toMatch(/38\.2 GiB reserved of 39\.6 GiB/);
  });
  it('a blank line ends the message: what follows is not joined to it', () => {
    const d = explainText(
      `${WRAPPED.split('\n')[0]}\n\nGiB total capacity; 37.88 GiB already allocated; 32.56 MiB free; 38.21 GiB`,
    );
    expect(d.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/38\.2 GiB reserved of 39\.6 GiB/);
  });
});

describe('fragmentation needs a cache worth a share of the GPU', () => {
  const oom = (cachedGiB: number) =>
    `RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 39.56 GiB total capacity; 30.00 GiB already allocated; 32.56 MiB free; ${(30 + cachedGiB).toFixed(2)} GiB reserved in total by PyTorch)`;
  it('0.3 GiB cached of 39.56 GiB: the job, not fragmentation', () => {
    expect(explainText(oom(0.3)).causes[0]!.id).not.toBe('allocator_fragmentation');
  });
  it('8 GiB cached: fragmentation', () => {
    expect(explainText(oom(8)).causes[0]!.id).toBe('allocator_fragmentation');
  });
});

describe('the GPU still had the request free', () => {
  // PyTorch 2.x under set_per_process_memory_fraction(0.3) on a 139.80 GiB GPU, another process holding 35 GiB
  // (a capture of gpu-lab/repro, frag.fraction-1)
  const log =
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1024.00 MiB. GPU 0 has a total capacity of 139.80 GiB of which 61.81 GiB is free. Including non-PyTorch memory, this process has 42.44 GiB memory in use. Process 6102 has 35.51 GiB memory in use. Process 6108 has 18.00 MiB memory in use. 41.94 GiB allowed; Of the allocated memory 31.94 GiB is allocated by PyTorch, and 10.00 GiB is reserved by PyTorch but unallocated.';
  it('another process did not stop it: its cache did (fragmentation), not the 35 GiB held elsewhere', () => {
    const d = explainText(log);
    expect(d.causes[0]!.id).toBe('allocator_fragmentation');
    expect(d.causes.find((c) => c.id === 'memory_held_by_other_process')?.confidence ?? 0).toBeLessThan(0.2);
  });
  it('with little free, the same holder is the cause', () => {
    const full = log
      .replace('61.81 GiB is free', '0.50 GiB is free')
      .replace('10.00 GiB is reserved', '100.00 MiB is reserved');
    expect(explainText(full).causes[0]!.id).toBe('memory_held_by_other_process');
  });
});
