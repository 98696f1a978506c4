// The rules that read where the job ran (hosted notebook runtime, Jupyter kernel), jaxlib's CUDA/cuDNN floors
// and conda pins, on real lines: corpus reports (shared/corpus/dev, ids in the test names) and H200 captures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const H200 = path.resolve(__dirname, '../fixtures/h200/logs');
const h200 = (f: string): string => fs.readFileSync(path.join(H200, f), 'utf8');
const ids = (t: string) => explainText(t).causes.map((c) => c.id);
const cause = (t: string, id: string) => explainText(t).causes.find((c) => c.id === id);

// d043 (Colab), d045, d026: TensorFlow's headline with nothing above it
const TF_CONV =
  'UnknownError (see above for traceback): Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.';
// d080: RAPIDS cuDF in a notebook
const CUDF_OOM =
  'MemoryError: std::bad_alloc: CUDA error at: ../include/rmm/mr/device/cuda_memory_resource.hpp:68: cudaErrorMemoryAllocation out of memory';
const IPY_FRAME = '<ipython-input-3-628af068fea6> in <module>';
// d061
const JAX_DNN = 'FAILED_PRECONDITION: DNN library initialization failed';
// d029: PyTorch's legacy message, the job's own memory
const TORCH_OOM =
  'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.30 GiB (GPU 0; 31.75 GiB total capacity; 8.97 GiB already allocated; 414.69 MiB free; 11.45 GiB reserved in total by PyTorch)';

describe('hosted notebook runtime (Colab, Kaggle)', () => {
  it('d043: a cuDNN failure on Colab ranks the image/framework cuDNN pairing first', () => {
    const text = `${TF_CONV}\n- Installed using: Google Colab (Python 2.7 GPU runtime)\n`;
    const d = explainText(text);
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[0]!.why.join(' ')).toMatch(/Google Colab.*runtime image/);
    expect(d.causes[0]!.evidence.some((e) => e.line === 2)).toBe(true);
  });

  it('the same headline without the runtime weighs the cuDNN pairing less', () => {
    const colab = cause(
      `${TF_CONV}\n- Installed using: Google Colab (Python 2.7 GPU runtime)\n`,
      'cudnn_version_mismatch',
    )!;
    const plain = cause(TF_CONV, 'cudnn_version_mismatch')!;
    expect(plain.score).toBeLessThan(colab.score);
    expect(plain.why.join(' ')).not.toMatch(/Colab/);
  });

  it('reads the runtime from "OS: Google Colab" and from Colab/Kaggle working folders', () => {
    expect(
      explainText(`${TF_CONV}\n- OS Platform and Distribution: Google Colab\n`).environment.install.map((i) => i.value),
    ).toContain('colab');
    expect(
      explainText(`  File "/content/drive/MyDrive/train.py", line 12, in <module>\n${TF_CONV}`).environment.install.map(
        (i) => i.value,
      ),
    ).toContain('colab');
    expect(
      explainText(`  File "/kaggle/working/train.py", line 12, in <module>\n${TF_CONV}`).environment.install.map(
        (i) => i.value,
      ),
    ).toContain('kaggle');
  });

  it('does not invent a cuDNN cause for an out-of-memory error on Colab', () => {
    const r = ids(`${TORCH_OOM}\n- Installed using: Google Colab\n`);
    expect(['gpu_memory_exhausted', 'memory_held_by_other_process', 'allocator_fragmentation']).toContain(r[0]);
    expect(r).not.toContain('cudnn_version_mismatch');
    // a Colab session has its GPU to itself: memory held by another process weighs less there
    expect(
      cause(`${TORCH_OOM}\n- Installed using: Google Colab\n`, 'memory_held_by_other_process')!.score,
    ).toBeLessThan(cause(TORCH_OOM, 'memory_held_by_other_process')!.score);
  });
});

describe('Jupyter kernel', () => {
  it('d080: an out-of-memory error in a notebook puts memory held by another kernel first', () => {
    const d = explainText(`${IPY_FRAME}\n----> 9 data = cudf.read_csv('data.csv', dtype = col_types)\n${CUDF_OOM}\n`);
    expect(d.environment.install.map((i) => i.value)).toContain('jupyter');
    expect(d.causes[0]!.id).toBe('memory_held_by_other_process');
    expect(d.causes[0]!.why.join(' ')).toMatch(/Jupyter kernel/);
  });

  it('the same error outside a notebook weighs memory held elsewhere less', () => {
    const inNotebook = cause(`${IPY_FRAME}\n${CUDF_OOM}\n`, 'memory_held_by_other_process')!;
    const plain = cause(CUDF_OOM, 'memory_held_by_other_process')!;
    expect(plain.score).toBeLessThan(inNotebook.score);
    expect(plain.why.join(' ')).not.toMatch(/Jupyter/);
  });

  it('reads IPython 8 frames ("Cell In[5], line 2") and ipykernel cell files', () => {
    expect(explainText(`Cell In[5], line 2\n${CUDF_OOM}`).environment.install.map((i) => i.value)).toContain('jupyter');
    expect(
      explainText(`/tmp/ipykernel_4021/3338306713.py in <module>\n${CUDF_OOM}`).environment.install.map((i) => i.value),
    ).toContain('jupyter');
    // a log line that only talks about cells is not a notebook
    expect(explainText(`Cell Input 5 processed\n${CUDF_OOM}`).environment.install.map((i) => i.value)).not.toContain(
      'jupyter',
    );
  });

  it('PyTorch naming no other process outweighs the notebook (torch-oom-huge, real H200 capture)', () => {
    const d = explainText(`Cell In[3], line 1\n${h200('torch-oom-huge.txt')}`);
    expect(d.causes[0]!.id).toBe('gpu_memory_exhausted');
  });

  it('adds nothing when the error is not about memory', () => {
    const plain = cause(TF_CONV, 'memory_held_by_other_process')?.score ?? 0;
    const inNotebook = cause(`${IPY_FRAME}\n${TF_CONV}`, 'memory_held_by_other_process')?.score ?? 0;
    expect(inNotebook).toBe(plain);
  });
});

describe('jaxlib CUDA and cuDNN floors', () => {
  const jax = (version: string, cuda?: string, cudnn?: string) =>
    [
      JAX_DNN,
      '',
      '**System information**',
      `- JAX version: ${version}`,
      cuda ? `- CUDA version: ${cuda}` : '',
      cudnn ? `- cuDNN version: ${cudnn}` : '',
    ].join('\n');

  it('d061: jaxlib 0.4.8 with "CUDA 11" (its cuda11 build needs 11.8) ranks the toolkit first', () => {
    const d = explainText(jax('0.4.8', '11'));
    expect(d.causes[0]!.id).toBe('cuda_toolkit_mismatch');
    expect(d.causes[0]!.why[0]).toMatch(/needs CUDA 11\.8 or newer; "CUDA 11" does not say/);
  });

  it('a stated CUDA below the floor weighs more than an unconfirmed one', () => {
    const below = cause(jax('0.4.8', '11.4'), 'cuda_toolkit_mismatch')!;
    const majorOnly = cause(jax('0.4.8', '11'), 'cuda_toolkit_mismatch')!;
    expect(below.score).toBeGreaterThan(majorOnly.score);
    expect(below.why[0]).toMatch(/needs CUDA 11\.8 or newer; CUDA 11\.4 is installed/);
  });

  it('a CUDA that meets the floor argues against the toolkit', () => {
    // the signature alone gives the toolkit some weight; a CUDA that meets the floor takes it away
    expect(cause(jax('0.4.8', '11.8'), 'cuda_toolkit_mismatch')?.score ?? 0).toBeLessThan(
      cause(jax('0.4.8'), 'cuda_toolkit_mismatch')!.score,
    );
  });

  it('a CUDA major the release has no build for is a toolkit mismatch (0.4.30: CUDA 12 only)', () => {
    expect(cause(jax('0.4.30', '11.8'), 'cuda_toolkit_mismatch')?.why[0]).toMatch(
      /jaxlib 0\.4\.30 is built for CUDA 12; CUDA 11\.8 is installed/,
    );
  });

  it('d004-style wheel tag: cuDNN below the "cudnn86" of jaxlib 0.4.6+cuda11.cudnn86', () => {
    const d = explainText(jax('jaxlib 0.4.6+cuda11.cudnn86', '11.8', '8.2.1'));
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[0]!.why.join(' ')).toMatch(
      /needs cuDNN 8\.6 or a newer minor of that major; cuDNN 8\.2\.1 is installed/,
    );
  });

  it('an unconfirmed floor does not count when the error is memory (jax-keep2500, real H200 capture)', () => {
    const text = `${h200('jax-keep2500.txt')}\n- JAX version: 0.4.8\n- CUDA version: 11\n`;
    expect(ids(text)).not.toContain('cuda_toolkit_mismatch');
  });
});

describe('conda pins in install commands', () => {
  it('d038: "cudatoolkit=9.0" is the CUDA runtime the conda build loads', () => {
    const e = explainText(
      'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM\n- Installed using: conda (conda install pytorch torchvision cudatoolkit=9.0 -c pytorch)\n',
    ).environment;
    expect(e.cuda?.value).toBe('9.0');
    expect(e.install.map((i) => i.value)).toContain('conda');
  });

  it('"pytorch-cuda=11.8" is the CUDA of the conda PyTorch build', () => {
    const e = explainText(
      'RuntimeError: CUDA error: no kernel image is available for execution on the device\nconda install pytorch torchvision pytorch-cuda=11.8 -c pytorch -c nvidia\n',
    ).environment;
    expect(e.buildCuda?.value).toBe('11.8');
  });
});
