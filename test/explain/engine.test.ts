// The ranked diagnosis on real logs (H200 captures, corpus reports), the weighing of context, and the
// combination with a real snapshot.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { explainStream, explainText } from '../../src/judge/explain/engine.js';
import { realSnapshot, planted } from '../helpers/snapshots.js';

const H200 = path.resolve(__dirname, '../fixtures/h200/logs');
const h200 = (f: string): string => fs.readFileSync(path.join(H200, f), 'utf8');
const ids = (t: string, o = {}) => explainText(t, o).causes.map((c) => c.id);

describe('real H200 logs', () => {
  it('conv-keep1200-bs64: another process (PID 637) holds the memory; ending it is a manual step', () => {
    const d = explainText(h200('conv-keep1200-bs64.txt'));
    const top = d.causes[0]!;
    expect(top.id).toBe('memory_held_by_other_process');
    expect(top.summary).toMatch(/process 637 holds 138\.6 GiB/);
    expect(top.evidence[0]!.line).toBe(26);
    expect(top.fix.manual?.[0]).toMatch(/^kill 637\b/);
    expect(top.fix.commands.join(' ')).not.toMatch(/kill/);
    expect(d.causes.map((c) => c.id)).not.toContain('allocator_fragmentation');
  });

  it('torch-oom-huge: a request larger than the GPU is the job itself', () => {
    const d = explainText(h200('torch-oom-huge.txt'));
    expect(d.causes[0]!.id).toBe('gpu_memory_exhausted');
    expect(d.causes[0]!.why.join(' ')).toMatch(/larger than the whole GPU/);
    expect(d.causes[0]!.confidence).toBeGreaterThan(0.7);
    expect(d.ambiguous).toBe(false);
  });

  it("jax-prealloc-halfheld: JAX preallocation first, memory held elsewhere next; the fix is JAX's", () => {
    const d = explainText(h200('jax-prealloc-halfheld.txt'));
    expect(d.environment.framework?.value).toBe('jax');
    expect(d.causes[0]!.id).toBe('framework_preallocation');
    expect(d.causes.slice(0, 3).map((c) => c.id)).toContain('memory_held_by_other_process');
    expect(d.causes[0]!.fix.commands).toContain('export XLA_PYTHON_CLIENT_PREALLOCATE=false');
  });

  it.each(['novis-torch.txt', 'novis-jax.txt', 'badvis-torch.txt'])('%s: no device visible', (f) => {
    expect(ids(h200(f))[0]).toBe('no_device_visible');
  });

  it('conv-small-hog: a raw CUDA OOM in PyTorch means the GPU was full before the job', () => {
    expect(ids(h200('conv-small-hog.txt'))[0]).toBe('memory_held_by_other_process');
  });

  it('cupy-oom-hog: nothing allocated by CuPy yet, so the memory is held elsewhere', () => {
    expect(ids(h200('cupy-oom-hog.txt'))[0]).toBe('memory_held_by_other_process');
  });

  it('fake-cudnn-preload: a broken preloaded cuDNN is a library problem', () => {
    expect(ids(h200('fake-cudnn-preload.txt')).slice(0, 2).sort()).toEqual(['library_conflict', 'library_missing']);
  });
});

describe('weighing the context', () => {
  const headline =
    'tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.';

  it('the headline alone cannot tell: it says so, ranks the usual causes and gives each its test', () => {
    const d = explainText(headline);
    expect(d.ambiguous).toBe(true);
    expect(d.verdict).toMatch(/^This line alone cannot tell/);
    // ambiguity is decided on the weights (the first holds less than 60% of them); the calibrated confidence of
    // such a first place is what ambiguous first places scored in the fit's leave-one-out diagnoses: not confident
    expect(d.weights.topShare).toBeLessThan(0.6);
    expect(d.causes[0]!.confidence).toBeLessThan(0.7);
    const top3 = d.causes.slice(0, 3).map((c) => c.id);
    expect(top3).toEqual(expect.arrayContaining(['framework_preallocation', 'cudnn_version_mismatch']));
    for (const c of d.causes.filter((x) => x.id !== 'other')) expect(c.test?.text, c.id).toBeTruthy();
    // a TensorFlow message: the tests and fixes are TensorFlow's, never JAX's
    expect(JSON.stringify(d.causes)).not.toMatch(/XLA_PYTHON_CLIENT/);
  });

  it('with "Loaded runtime CuDNN library: X but source was compiled with: Y" it is a version mismatch', () => {
    const d = explainText(
      `E tensorflow/stream_executor/cuda/cuda_dnn.cc:319] Loaded runtime CuDNN library: 7.1.4 but source was compiled with: 7.4.1.\n${headline}`,
    );
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[0]!.fix.text).toMatch(/7\.1\.4/);
  });

  it('with an out-of-memory nearby it is memory', () => {
    const d = explainText(
      `E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 3.80G (4080218112 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n${headline}`,
    );
    expect(['framework_preallocation', 'memory_held_by_other_process', 'gpu_memory_exhausted']).toContain(
      d.causes[0]!.id,
    );
    expect(d.causes.find((c) => c.id === 'cudnn_version_mismatch')?.confidence ?? 0).toBeLessThan(0.1);
  });

  it('the user stating another cuDNN than the one that loaded means two copies', () => {
    const d = explainText(
      'Loaded runtime CuDNN library: 7.2.1 but source was compiled with: 7.4.1.\ncuDNN version: 7.4.1\nTensorFlow version: 1.14.0',
    );
    expect(d.causes[0]!.id).toBe('library_conflict');
    expect(d.causes[1]!.id).toBe('cudnn_version_mismatch');
  });

  it('an RTX 3090 with a CUDA 10 PyTorch build is an architecture problem', () => {
    const d = explainText(
      'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\nPyTorch version: 1.4.0\nGPU model and memory: GeForce RTX 3090 24GB',
    );
    expect(d.causes[0]!.id).toBe('gpu_arch_unsupported');
    expect(d.causes[0]!.why.join(' ')).toMatch(/sm_86/);
  });

  it('a missing libcublas.so.9.0 with CUDA 9.1 installed is a toolkit mismatch', () => {
    const d = explainText(
      'ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\nCUDA version: 9.1',
    );
    expect(d.causes[0]!.id).toBe('cuda_toolkit_mismatch');
  });

  it('PyTorch preallocation weight goes to the job itself (PyTorch does not preallocate)', () => {
    const d = explainText(
      '  File "/usr/lib/python3/site-packages/torch/nn/modules/conv.py", line 1\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR',
    );
    expect(d.causes.map((c) => c.id)).not.toContain('framework_preallocation');
  });

  it('nothing that points anywhere: no causes, and it says so', () => {
    const d = explainText(
      'Epoch 1/10\nloss: 0.213 - accuracy: 0.91\nTraceback (most recent call last):\nValueError: shapes (3,) and (4,) not aligned',
    );
    expect(d.causes).toEqual([]);
    expect(d.verdict).toMatch(/Nothing in the input points/);
  });
});

describe('with the machine', () => {
  it('a legacy OOM plus a snapshot where another process holds the GPU names that process', () => {
    const snap = realSnapshot('h200-memory-held');
    const holder = snap.processes.list.find((p) => !p.isSelfOrAncestor && (p.usedMiB ?? 0) > 0)!;
    expect(holder).toBeDefined();
    const log =
      'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 139.80 GiB total capacity; 1.00 GiB already allocated; 300.00 MiB free; 1.10 GiB reserved in total by PyTorch)';
    const d = explainText(log, { snapshot: snap });
    expect(d.machine?.used).toBe(true);
    const top = d.causes[0]!;
    expect(top.id).toBe('memory_held_by_other_process');
    expect(top.evidence.some((e) => e.source === 'machine' && e.text.includes(`PID ${holder.pid}`))).toBe(true);
    expect(top.fix.manual?.join(' ')).toContain(`kill ${holder.pid}`);
  });

  it('live facts do not invent a cause for a log that has none', () => {
    const d = explainText('all good\n', { snapshot: realSnapshot('h200-memory-held') });
    expect(d.causes).toEqual([]);
  });

  it('an idle machine argues against memory held by others', () => {
    const log =
      'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 139.80 GiB total capacity; 1.00 GiB already allocated; 300.00 MiB free; 1.10 GiB reserved in total by PyTorch)';
    const alone = explainText(log).causes.find((c) => c.id === 'memory_held_by_other_process')!.score;
    const idle =
      explainText(log, {
        snapshot: planted('h200-idle', (s) => {
          s.processes.list = [];
        }),
      }).causes.find((c) => c.id === 'memory_held_by_other_process')?.score ?? 0;
    expect(idle).toBeLessThan(alone);
  });
});

describe('streaming', () => {
  it('explainStream over several inputs numbers lines across them and labels evidence with the file', async () => {
    const d = await explainStream([
      { name: 'a.log', chunks: Readable.from([Buffer.from('line one\nline two\n')]) },
      {
        name: 'b.log',
        chunks: Readable.from([Buffer.from('RuntimeError: No CUDA '), Buffer.from('GPUs are available\n')]),
      },
    ]);
    expect(d.input.lines).toBe(3);
    expect(d.causes[0]!.evidence[0]).toEqual({
      line: 3,
      text: 'RuntimeError: No CUDA GPUs are available',
      source: 'b.log',
    });
  });

  it('gives the same diagnosis whether the text comes whole or in 1-byte chunks', async () => {
    const text = h200('conv-keep1200-bs64.txt');
    const whole = explainText(text);
    const bytes = Buffer.from(text);
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    const streamed = await explainStream(Readable.from(chunks));
    expect(streamed.causes.map((c) => [c.id, c.confidence])).toEqual(whole.causes.map((c) => [c.id, c.confidence]));
  });
});
