// General readings of the eighth pass (docs/notes/issue-25-explain.md): each a truth about who prints a text, tested
// on real texts (the labelled corpus and the shared message catalog), with a case where it must not fire.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const ids = (t: string) => explainText(t).causes.map((c) => c.id);
const sigs = (t: string) => explainText(t).signals.map((s) => s.signature);

describe("CPython's AttributeError on a module: an API of another release, not a GPU problem", () => {
  it('a removed CuPy function (corpus p044, spaCy/thinc on CuPy 8.0.0b1) reads as other, where it read nothing', () => {
    const log = [
      '  File "ops.pyx", line 1087, in thinc.neural.ops.CupyOps.scatter_add',
      "AttributeError: module 'cupy' has no attribute 'scatter_add'",
    ].join('\n');
    expect(sigs(log)).toContain('python.module_attribute_missing');
    expect(ids(log)[0]).toBe('other');
  });

  it("TensorFlow 2's removed ConfigProto, and Python 3.8's circular-import wording, read the same", () => {
    expect(ids("AttributeError: module 'tensorflow' has no attribute 'ConfigProto'")[0]).toBe('other');
    const circular =
      "AttributeError: partially initialized module 'torch' has no attribute 'Tensor' (most likely due to a circular import)";
    expect(ids(circular)[0]).toBe('other');
  });

  it('the same for "cannot import name X from Y" (Python/ceval.c import_from): an API of another release', () => {
    const log = "ImportError: cannot import name 'Adam' from 'keras.optimizers' (/usr/lib/python3/keras/optimizers.py)";
    expect(ids(log)[0]).toBe('other');
    // a GPU name stays with the readings that know it
    expect(sigs("ImportError: cannot import name 'cuda' from 'numba' (unknown location)")).not.toContain(
      'python.module_attribute_missing',
    );
  });

  it('not when the missing name is a GPU one (a CPU-only build lacks its CUDA bindings)', () => {
    const log = "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'";
    expect(sigs(log)).not.toContain('python.module_attribute_missing');
    expect(ids(log)).not.toContain('other');
  });

  it('beside a GPU failure it does not outrank it', () => {
    const oom = 'RuntimeError: CUDA error: out of memory';
    const log = `${oom}\nAttributeError: module 'jax' has no attribute 'Array'`;
    expect(ids(log)[0]).toBe(ids(oom)[0]);
    expect(ids(log)[0]).not.toBe('other');
  });
});

describe("a reporter's paraphrase of a loader failure, when no message is pasted", () => {
  it('"libcudnn.so.8 and libcusolver.so.10 dont load" (corpus d012, a title) reads as a library missing, hedged', () => {
    const d = explainText('Dynamic library libcudnn.so.8 and libcusolver.so.10 dont load');
    expect(d.causes[0]?.id).toBe('library_missing');
    expect(d.unknownMessage).toBe(true);
    expect(d.causes[0]!.confidence).toBeLessThan(0.9);
  });

  it("beside a message it stays a word on the setting: the loader's own message decides", () => {
    const loader = 'ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory';
    const both = explainText(`${loader}\nmy libcublas.so.9.0 doesn't load since the upgrade`);
    expect(both.unknownMessage).toBe(false);
    expect(both.causes[0]?.id).toBe(explainText(loader).causes[0]?.id);
  });

  it("glibc's own \"version `X' not found\" is the loader's message, not a paraphrase", () => {
    const log = "libcublasLt.so.11: version `libcublasLt.so.11' not found (required by /opt/lib/libcublas.so.11)";
    expect(explainText(log).signals.map((s) => s.signature)).not.toContain('lib.paraphrased_missing');
  });
});

describe("StreamExecutor's device allocation: the pool's region, not the job's tensors", () => {
  const env = '\n**System information**\n- TensorFlow version: 1.5.0\n- CUDA version: 9.0\n- cuDNN version: 7.0.5\n';

  it('a 72.50M region refused (corpus t036: earlier sessions suspended with Ctrl-Z) is memory held elsewhere', () => {
    const log = `failed to allocate 72.50M from device: CUDA_ERROR_OUT_OF_MEMORY${env}`;
    const d = explainText(log);
    expect(d.causes[0]?.id).toBe('memory_held_by_other_process');
    expect(d.causes[0]?.why.join(' ')).toContain('could not get even 73 MiB');
  });

  it('with the count of bytes (TensorFlow 1.x cuda_driver.cc, corpus d033) the same', () => {
    const log =
      'E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 190.31M (199557120 bytes) from ' +
      'device: CUDA_ERROR_OUT_OF_MEMORY';
    expect(explainText(log + env).causes[0]?.id).toBe('memory_held_by_other_process');
  });

  it('not for a region the size of a whole pool: that one says nothing of whose the memory is', () => {
    const big =
      'E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 10.76G (11554717696 bytes) from ' +
      'device: CUDA_ERROR_OUT_OF_MEMORY';
    const why = explainText(big + env).causes.flatMap((c) => c.why);
    expect(why.join(' ')).not.toContain('could not get even');
  });
});

describe("darknet's out of memory: no pool, every buffer its own", () => {
  it('a bare "CUDA Error: out of memory" (corpus j016, Yolo_mark: subdivisions 8 -> 16) is the network\'s size', () => {
    expect(ids('CUDA Error: out of memory')[0]).toBe('gpu_memory_exhausted');
  });

  it('at layer 0 of the layer table (corpus j015: a leftover process held the GPU) it is memory held elsewhere', () => {
    const log = [
      'layer     filters    size              input                output',
      '    0 CUDA Error: out of memory',
      "darknet: ./src/cuda.c:36: check_error: Assertion `0' failed.",
    ].join('\n');
    expect(ids(log)[0]).toBe('memory_held_by_other_process');
  });

  it('not PyTorch\'s lower-case "CUDA error: out of memory", which keeps its own reading', () => {
    const why = explainText('RuntimeError: CUDA error: out of memory').causes.flatMap((c) => c.why);
    expect(why.join(' ')).not.toContain('darknet');
  });
});

describe("a cuDNN status relayed by PyTorch's binaries is not the machine's cuDNN version", () => {
  const status = 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM';
  const score = (t: string, id: string) => explainText(t).causes.find((c) => c.id === id)?.score ?? 0;

  it("conda's pytorch with cudatoolkit=9.0 (corpus d038): the CUDA build, not a cuDNN install, comes first", () => {
    const log =
      `${status}\n\n**System information**\n- PyTorch version: unknown\n` +
      '- Installed using: conda (conda install pytorch torchvision cudatoolkit=9.0 -c pytorch)\n';
    const d = explainText(log);
    expect(d.causes[0]?.id).toBe('cuda_toolkit_mismatch');
    expect(score(log, 'cudnn_version_mismatch')).toBeLessThan(score(log, 'cuda_toolkit_mismatch'));
  });

  it("not for a build from source, which loads the machine's cuDNN", () => {
    const binary = `${status}\n\n**System information**\n- PyTorch version: 1.4.0\n- Installed using: pip\n`;
    const source = `${status}\n\n**System information**\n- PyTorch version: 1.4.0\n- Installed using: source\n`;
    expect(score(source, 'cudnn_version_mismatch')).toBeGreaterThan(score(binary, 'cudnn_version_mismatch'));
  });

  it("only PyTorch's: the same status with TensorFlow stated keeps its cuDNN reading first", () => {
    const tf = `${status}\n- TensorFlow version: 1.12`;
    const torch = `${status}\n- PyTorch version: 1.12`;
    expect(score(tf, 'cudnn_version_mismatch')).toBeGreaterThan(score(tf, 'cuda_toolkit_mismatch'));
    expect(score(torch, 'cudnn_version_mismatch')).toBeLessThan(score(torch, 'cuda_toolkit_mismatch'));
  });
});
