// The general rules added after the cross-validated error analysis of issue 15 (docs/notes/issue-15.md), each on
// real text: the frameworks' messages as their sources print them (src/judge/explain/catalog/messages) and lines of the
// labelled reports (test/fixtures/corpus). Each rule is asserted by what it changes in the diagnosis.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { KIND_WEIGHT } from '../../src/judge/explain/diagnose.js';
import { PriorModel } from '../../src/judge/explain/priors/model.js';

/** the catalog's order of causes alone, without the counts fitted on the corpus: what the rule itself does */
const catalogOnly = { priors: new PriorModel(null) };

const ids = (t: string) => explainText(t).causes.map((c) => c.id);
const first = (t: string) => explainText(t).causes[0]?.id;
const sigs = (t: string) => explainText(t).signals.map((s) => s.signature);

describe('a message pasted only up to its first clause still matches (heads end at clause boundaries)', () => {
  it('TensorFlow\'s matmul_op.cc "Blas GEMM launch failed : a.shape=…" cut after its first clause (a thread title)', () => {
    expect(sigs('Blas GEMM launch failed')).toContain('tf-blas-gemm-launch-failed');
    // the whole message still gives its values
    const d = explainText('Blas GEMM launch failed : a.shape=(100, 784), b.shape=(784, 10), m=100, n=10, k=784');
    expect(d.signals.find((s) => s.signature === 'tf-blas-gemm-launch-failed')?.values.v).toBe('100');
  });

  it('NCCL\'s "unhandled system error" without the "(run with NCCL_DEBUG=INFO…)" older releases lack', () => {
    // dev2 j051, nccl-tests: an NCCL 2.x failure line
    expect(sigs("NCCL failure common.cu:874 'unhandled system error'")).toContain('nccl-unhandled-system-error');
    // PyTorch's wrapper (ProcessGroupNCCL): the OS, not the GPU, is first
    expect(
      first(
        'RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version 2.14.3',
      ),
    ).toBe('other');
  });

  it('a two-word clause is too little to stand alone ("initialization error:" stays part of its message)', () => {
    expect(sigs('initialization error: something else failed')).not.toContain('nvcli-load-nvml-failed');
  });
});

describe('causes filed as CONTRACT.md defines them', () => {
  it.each([
    ['AssertionError: Torch not compiled with CUDA enabled'],
    ['An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.'],
    ['mxnet.base.MXNetError: [16:53:11] src/storage/storage.cc:43: Please compile with CUDA enabled for cuda features'],
  ])('a build without CUDA sees no GPU: %s', (line) => {
    const d = explainText(line);
    expect(d.causes[0]!.id).toBe('no_device_visible');
    expect(d.causes.map((c) => c.id)).toContain('library_missing');
    // the fix is the framework's CUDA build, not the device list
    expect(d.causes[0]!.fix.text).toMatch(/no CUDA support/);
    expect(d.causes[0]!.fix.text).not.toMatch(/CUDA_VISIBLE_DEVICES/);
  });

  it('a device-side assert is the program checking its data (other), a framework defect second', () => {
    // dev2 p015, PyTorch's C10_CUDA_CHECK text
    const log =
      'RuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.';
    expect(
      explainText(log)
        .causes.map((c) => c.id)
        .slice(0, 2),
    ).toEqual(['other', 'framework_bug']);
    // the catalog's own order, as the project's copy files it
    expect(
      explainText(log, catalogOnly)
        .causes.map((c) => c.id)
        .slice(0, 2),
    ).toEqual(['other', 'framework_bug']);
  });

  it('CUDA used in a forked child is a usage error (other), not a framework defect', () => {
    expect(
      first(
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
      ),
    ).toBe('other');
  });
});

describe('one line, one message: several readings of a line share its vote', () => {
  it('PyTorch\'s "cuDNN error: CUDNN_STATUS_NOT_INITIALIZED" read by three signatures weighs as one symptom', () => {
    const d = explainText('RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED');
    expect(d.signals.length).toBeGreaterThanOrEqual(2);
    // one symptom's weight at most (before: each reading voted in full, two to three times this)
    expect(d.weights.total).toBeLessThanOrEqual(KIND_WEIGHT.symptom + 1e-6);
  });
});

describe('the first failure is the cause, what follows from it is not', () => {
  it("a symptom printed after the first failure (a cuDNN status, then TensorFlow's convolution headline) counts less", () => {
    // TF 1.x cuda_dnn.cc prints the status of the failed cuDNN call, then the op fails with the headline
    const handle =
      'E tensorflow/stream_executor/cuda/cuda_dnn.cc:385] could not destroy cudnn handle: CUDNN_STATUS_BAD_PARAM';
    const headline =
      'tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.';
    const total = (t: string) => explainText(t, catalogOnly).weights.total;
    const both = total(`${handle}\n${headline}`);
    // a symptom weighs 1.2; printed after the first failure it gives up 30% (0.36)
    expect(both).toBeLessThan(total(handle) + total(headline) - 0.3);
    expect(both).toBeGreaterThan(total(handle));
  });

  it('a segmentation fault after TensorRT refused the engine does not vote for a library conflict', () => {
    // dev2 j011, TensorRT's runtime.cpp lines
    const log = [
      'Loading engine...',
      '6: The engine plan file is not compatible with this version of TensorRT, expecting library version 8.0.0 got 8.0.1, please rebuild.',
      '4: [runtime.cpp::deserializeCudaEngine::74] Error Code 4: Internal Error (Engine deserialization failed.)',
      'Segmentation fault (core dumped)',
    ].join('\n');
    const d = explainText(log);
    for (const c of d.causes) expect(c.why.join(' ')).not.toMatch(/segmentation fault/);
    expect(d.signals.map((s) => s.signature)).toContain('segfault');
  });

  it("the container runtime's wrapper defers to the nvidia-container-cli line after it", () => {
    // dev2 t024: runc's hook error, then libnvidia-container's requirement check
    const log = [
      "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'",
      'nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8, please update your driver to a newer version, or use an earlier cuda container: unknown.',
    ].join('\n');
    expect(first(log)).toBe('driver_too_old');
    expect(ids(log)).not.toContain('other');
    // alone, the wrapper still says what it can
    expect(ids(log.split('\n')[0]!)).toContain('other');
  });
});

describe('memory a CUDA library allocates outside the framework pool', () => {
  const handle =
    'E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR';
  it("in TensorFlow (preallocating) a failed cuDNN handle is the preallocation before the job's own size", () => {
    const d = explainText(handle);
    expect(d.causes[0]!.id).toBe('framework_preallocation');
    // the catalog lists "exhausted" first for cudnnCreate's failures; in TensorFlow half of it is the pool
    const c = explainText(handle, catalogOnly);
    const score = (id: string) => c.causes.find((x) => x.id === id)?.score ?? 0;
    expect(score('framework_preallocation')).toBeGreaterThan(score('gpu_memory_exhausted'));
  });

  it('in PyTorch (no preallocation) the same failure has no preallocation among its causes', () => {
    expect(ids('RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR')).not.toContain('framework_preallocation');
  });
});

describe('a missing library, by its name', () => {
  it("a missing cuDNN is not a CUDA toolkit mismatch (TensorFlow's dso_loader)", () => {
    const d = explainText(
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory",
    );
    expect(d.causes[0]!.id).toBe('library_missing');
    expect(d.causes.map((c) => c.id)).not.toContain('cuda_toolkit_mismatch');
  });

  it("TensorFlow's Windows self-check for cudnn64_7.dll: installing cuDNN first", () => {
    // dev2 t030, tensorflow/python/platform/self_check.py
    const d = explainText(
      "ImportError: Could not find 'cudnn64_7.dll'. TensorFlow requires that this DLL be installed in a directory that is named in your %PATH% environment variable.",
    );
    expect(d.causes[0]!.id).toBe('library_missing');
    expect(d.causes.map((c) => c.id)).not.toContain('cuda_toolkit_mismatch');
  });

  it("TensorRT's libnvinfer is optional for TensorFlow: its warnings are not the failure", () => {
    // dev2 t022, dso_loader.cc and tf2tensorrt/utils/py_utils.cc on Colab
    const log = [
      "W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib64-nvidia",
      'W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Cannot dlopen some TensorRT libraries.',
    ].join('\n');
    expect(first(log)).toBe('other');
    // the CUDA runtime missing is still a missing library
    expect(
      first(
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory",
      ),
    ).not.toBe('other');
  });
});

describe('what the text says of the system', () => {
  it("NCCL's failed system call (strerror) is the OS's refusal, not the GPU", () => {
    // dev2 j012, NCCL 2.7 shm.h in a container with a 64 MB /dev/shm
    const log =
      'include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on device\ninclude/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-250a7cc850ba9298-0-1-3 (size 9637888)';
    expect(first(log)).toBe('other');
    // by the rule, not by the corpus's counts: NCCL's family alone ranks a hardware fault first
    expect(explainText(log, catalogOnly).causes[0]!.id).toBe('other');
    // without the strerror text the OS's refusal is not read: 'other' holds far less of the weight
    const share = (d: ReturnType<typeof explainText>) =>
      (d.causes.find((c) => c.id === 'other')?.score ?? 0) / d.causes.reduce((a, c) => a + c.score, 0);
    expect(
      share(explainText('include/shm.h:48 NCCL WARN Error while creating shared memory segment', catalogOnly)),
    ).toBeLessThan(share(explainText(log, catalogOnly)) - 0.2);
  });

  it('a device refused for its compute capability is the GPU architecture', () => {
    // dev2 t009, a failure without a catalog message: the device family, said in terms of compute capability
    const line = 'No CUDA device found with minimum required compute capability 3.5';
    expect(first(line)).toBe('gpu_arch_unsupported');
    const d = explainText(line, catalogOnly);
    expect(d.causes[0]!.id).toBe('gpu_arch_unsupported');
    expect(explainText('No CUDA device found', catalogOnly).causes[0]?.id).not.toBe('gpu_arch_unsupported');
  });
});

describe('the environment the reporter states', () => {
  const insufficient =
    'Check failed: error == cudaSuccess (35 vs. 0) CUDA driver version is insufficient for CUDA runtime version';
  it('"insufficient" with a driver stated means too old, even when the stated toolkit fits the driver', () => {
    // dev d070's situation: conda's TensorFlow brought a newer runtime than the system's CUDA 9.0
    const d = explainText(
      `Status: CUDA driver version is insufficient for CUDA runtime version\n- NVIDIA driver version: 390\n- CUDA version: 9.0\n- Installed using: conda`,
    );
    expect(d.causes[0]!.id).toBe('driver_too_old');
    expect(d.causes[0]!.why.join(' ')).not.toMatch(/new enough/);
  });

  it('on macOS the same message means no CUDA device at all', () => {
    expect(first(`${insufficient}\n- OS Platform and Distribution: Mac OS X 10.13`)).toBe('no_device_visible');
    expect(first(insufficient)).toBe('driver_too_old');
  });

  it("a stated GPU that is not NVIDIA's means no CUDA device", () => {
    expect(first(`${insufficient}\n- GPU model and memory: AMD Radeon Pro 560`)).toBe('no_device_visible');
  });

  it('in a container, a driver library that cannot be loaded means the container was started without the GPU', () => {
    // dev2 j043: the device plugin in Kubernetes with runc as the default runtime
    const log = 'Failed to start nvml with error: could not load NVML library';
    expect(first(`${log}\n- Installed using: docker + kubernetes`)).toBe('no_device_visible');
    expect(first(log)).toBe('library_missing');
  });

  it("TensorFlow's version is read from a Keras line that names it", () => {
    const d = explainText('Blas GEMM launch failed\n- Keras version: tensorflow-gpu 1.13.1, keras 2.2.4');
    expect(d.environment.frameworkVersion?.value).toBe('1.13.1');
  });

  it('an A100 with a TensorFlow built on CUDA 10.0: a cuBLAS failure is the architecture', () => {
    // dev2 t018: TF 1.13.1 (CUDA 10.0) on an A100 (sm_80); cuBLAS of CUDA 10 has no Ampere kernels
    const d = explainText(
      'Blas GEMM launch failed\n- Keras version: tensorflow-gpu 1.13.1, keras 2.2.4\n- GPU model and memory: A100\n- CUDA version: 10.0.130',
    );
    expect(d.causes[0]!.id).toBe('gpu_arch_unsupported');
  });

  it('"CUDA 8" states only the major: it fits a TensorFlow built with CUDA 8.0', () => {
    const d = explainText('CUDNN_STATUS_BAD_PARAM\n- TensorFlow version: 1.3\n- CUDA version: 8');
    expect(d.causes.find((c) => c.id === 'cuda_toolkit_mismatch')?.why.join(' ') ?? '').not.toMatch(
      /built with CUDA 8.0; CUDA 8 is installed/,
    );
  });

  it('PyTorch 1.7.0 with CUDA 11.0 stated: its cu110 build runs on an A100, so no architecture claim', () => {
    // dev d022: the cu110 build includes sm_80; the pip default (cu102) does not
    const log =
      'RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.\n- PyTorch version: 1.7.0\n- CUDA version: 11.0\n- GPU model and memory: NVIDIA A100';
    const d = explainText(log);
    expect(d.causes.find((c) => c.id === 'gpu_arch_unsupported')?.why.join(' ') ?? '').not.toMatch(
      /none of them can run on/,
    );
  });
});

describe('reading the framework and the user from the right words', () => {
  it('a message names its framework only in its source\'s case: darknet\'s "CUDA Error" is not PyTorch\'s "CUDA error"', () => {
    // dev2 j016 (darknet's cuda.c) and PyTorch's C10_CUDA_CHECK
    expect(explainText('CUDA Error: out of memory').environment.framework?.value).not.toBe('pytorch');
    expect(explainText('RuntimeError: CUDA error: out of memory').environment.framework?.value).toBe('pytorch');
  });

  it("the user's words are never read inside a framework's message (PyTorch's \"installed a driver from…\")", () => {
    const d = explainText(
      'RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx',
    );
    expect(d.signals.map((s) => s.signature)).not.toContain('note.driver_update_no_reboot');
    expect(d.causes[0]!.id).toBe('no_device_visible');
    // written by the user, it still counts
    expect(
      sigs('I had just installed a new NVIDIA driver without rebooting\nRuntimeError: CUDA error: unknown error'),
    ).toContain('note.driver_update_no_reboot');
  });
});

describe("PyTorch's out-of-memory figures in the 1.x wordings", () => {
  it('1.0-1.4 said "cached" where 1.5 says "reserved in total by PyTorch": the same analysis', () => {
    // c10/cuda/CUDACachingAllocator.cpp before 1.5 (torch.cuda.memory_cached, renamed memory_reserved)
    const held = explainText(
      'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity; 1.10 GiB already allocated; 0 bytes free; 1.30 GiB cached)',
    );
    expect(held.signals.map((s) => s.signature)).toContain('torch.oom.legacy');
    expect(held.causes[0]!.id).toBe('memory_held_by_other_process');
    expect(held.causes[0]!.why.join(' ')).toMatch(/6\.0 GiB \(77% of the GPU\) is used outside this PyTorch/);
  });

  it('a paste cut after "free)": the figures are read by their labels, and the job itself fills the GPU', () => {
    const d = explainText(
      'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity; 5.1 GiB already allocated; 1.2 GiB free)',
    );
    expect(d.causes[0]!.id).toBe('gpu_memory_exhausted');
    expect(d.causes[0]!.why.join(' ')).toMatch(/tensors hold 5\.1 GiB and 1\.2 GiB is free of 7\.8 GiB/);
    const held = explainText(
      'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity; 0.5 GiB already allocated; 0 bytes free)',
    );
    expect(held.causes.map((c) => c.id)).toContain('memory_held_by_other_process');
    expect(held.causes.find((c) => c.id === 'memory_held_by_other_process')!.why.join(' ')).toMatch(
      /neither this PyTorch's tensors nor free/,
    );
  });
});

describe('families and old wordings', () => {
  it('a library that does not load is a loading failure whatever its name (cuDNN 8 on Windows)', () => {
    // cuDNN 8's loader on Windows (a missing dependency such as zlibwapi.dll gives error code 126)
    const d = explainText('Could not load library cudnn_cnn_infer64_8.dll. Error code 126', catalogOnly);
    expect(d.signals.map((s) => s.signature)).toEqual(['family.library']);
    expect(d.causes[0]!.id).toBe('library_missing');
  });

  it("PyTorch 0.4-1.0's THCudaCheck out of memory in THCCachingAllocator is the allocator, not a handle", () => {
    const d = explainText(
      'THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingAllocator.cpp line=66 error=2 : out of memory\nFile "train.py", line 10, in <module>\n    import torch',
    );
    expect(d.causes.flatMap((c) => c.why).join(' ')).not.toMatch(
      /raw CUDA out-of-memory error instead of its allocator/,
    );
  });

  it("the preallocation bonus is no larger than the memory weight it adds to (JAX's unknown CUDA failure)", () => {
    const d = explainText(
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call 'xla.gpu.func.launch' failed: Failed to launch CUDA kernel",
      catalogOnly,
    );
    expect(d.causes[0]!.id).not.toBe('framework_preallocation');
  });
});

// Second pass (issue 15, with-environment accuracy): general facts that the environment block and the sources give.
// Logs are built from the messages' formats in their sources (catalog/messages, catalog/additions.json), not copied
// from a corpus report.
describe('a CUDA compiler that refuses an architecture, read with the CUDA the reporter states', () => {
  const nvcc = (arch: string) => `nvcc fatal   : Unsupported gpu architecture '${arch}'`;
  const ptxas = (sm: string) => `ptxas fatal   : Value '${sm}' is not defined for option 'gpu-name'`;
  const nvrtc = 'RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)';
  const why = (t: string, id: string) =>
    explainText(t)
      .causes.find((c) => c.id === id)
      ?.why.join(' ') ?? '';

  it('the stated CUDA knows the architecture: another, older compiler ran (toolkit mismatch)', () => {
    // CUDA 11.1 added sm_86 (compat/compute_capability.json)
    const log = `${nvcc('compute_86')}\n- CUDA version: 11.1\n- GPU model and memory: RTX 3090`;
    expect(first(log)).toBe('cuda_toolkit_mismatch');
    expect(why(log, 'cuda_toolkit_mismatch')).toMatch(/CUDA 11\.1 can compile for sm_86/);
    expect(first(`${ptxas('sm_90')}\n- CUDA version: 12.1`)).toBe('cuda_toolkit_mismatch');
  });

  it('the stated CUDA predates the architecture: the GPU is newer than the toolkit', () => {
    const log = `${nvcc('compute_86')}\n- CUDA version: 11.0\n- GPU model and memory: RTX 3090`;
    expect(first(log)).toBe('gpu_arch_unsupported');
    expect(why(log, 'gpu_arch_unsupported')).toMatch(/CUDA 11\.0 predates sm_86/);
    // sm_90 came with CUDA 11.8
    expect(first(`${ptxas('sm_90')}\n- CUDA version: 11.7`)).toBe('gpu_arch_unsupported');
  });

  it("a GPU older than the toolkit's oldest target is unsupported too, and said so (CUDA 12 removed Kepler)", () => {
    const log = `${nvcc('compute_35')}\n- CUDA version: 12.1\n- GPU model and memory: Tesla K40`;
    expect(first(log)).toBe('gpu_arch_unsupported');
    expect(why(log, 'gpu_arch_unsupported')).toMatch(/CUDA 12\.1 no longer targets sm_35/);
    expect(why(log, 'gpu_arch_unsupported')).not.toMatch(/predates/);
  });

  it("NVRTC is the framework build's own: the build's CUDA and the stated GPU decide", () => {
    // an RTX 4090 is sm_89 (CUDA 11.8+); PyTorch +cu113 ships NVRTC 11.3. Its sm_86 kernels would run on sm_89,
    // but a JIT compile for the device is not the prebuilt kernels: no "includes code that runs" against it
    const old = `${nvrtc}\n- PyTorch version: 1.10.0+cu113\n- GPU model and memory: RTX 4090`;
    expect(first(old)).toBe('gpu_arch_unsupported');
    expect(why(old, 'gpu_arch_unsupported')).not.toMatch(/includes code that runs/);
    expect(first(`${nvrtc}\n- PyTorch version: 2.0.1+cu118\n- GPU model and memory: RTX 4090`)).toBe(
      'cuda_toolkit_mismatch',
    );
  });

  it('nothing stated: the message alone, both readings, no version claim', () => {
    const d = explainText(nvcc('compute_86'));
    expect(
      d.causes
        .map((c) => c.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(['cuda_toolkit_mismatch', 'gpu_arch_unsupported']);
    expect(d.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/can compile for|predates sm_/);
  });

  it('reads the architecture from the name the compiler prints', async () => {
    const { ccOfArch } = await import('../../src/judge/explain/analyse/versions.js');
    expect(['compute_86', 'sm_90a', 'sm_100', 'compute_35', 'gpu'].map(ccOfArch)).toEqual([
      '8.6',
      '9.0',
      '10.0',
      '3.5',
      undefined,
    ]);
  });
});

describe("PyTorch's cuDNN check says where the other copy came from", () => {
  // torch/backends/cudnn/__init__.py: the base message, and the clause it adds only when LD_LIBRARY_PATH names a
  // cuda or cudnn folder
  const base =
    'RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2). PyTorch already comes bundled with cuDNN. One option to resolving this error is to ensure PyTorch can find the bundled cuDNN. ';
  const ldPath =
    'Looks like your LD_LIBRARY_PATH contains incompatible version of cudnn. Please either remove it from the path or install cudnn (9, 1, 0)';

  it('the LD_LIBRARY_PATH clause: the copy that loaded shadowed the bundled one (a conflict)', () => {
    for (const priors of [{}, catalogOnly]) {
      const d = explainText(base + ldPath, priors);
      expect(d.causes[0]!.id).toBe('library_conflict');
      expect(d.causes[0]!.why.join(' ')).toMatch(/came from LD_LIBRARY_PATH/);
    }
  });

  it('the base message alone makes no such claim', () => {
    const d = explainText(base, catalogOnly);
    expect(d.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/came from LD_LIBRARY_PATH/);
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
  });
});

describe('Windows has no fork()', () => {
  // TensorFlow's gpu_device.cc "cudaGetDevice() failed. Status: %s" with the CUDA runtime's text for error 3
  const log =
    'tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. Status: initialization error';
  it('the fork() reading of "initialization error" is dropped on Windows, kept elsewhere', () => {
    for (const priors of [{}, catalogOnly]) {
      const linux = explainText(`${log}\n- OS Platform and Distribution: Ubuntu 20.04`, priors);
      expect(linux.causes.flatMap((c) => c.why).join(' ')).toMatch(/fork/);
      const win = explainText(`${log}\n- OS Platform and Distribution: Windows 10`, priors);
      expect(win.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/fork/);
      expect(win.causes.map((c) => c.id)).not.toContain('other');
    }
    // a Windows path in the log says it as well
    const path = explainText(
      `  File "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python38\\lib\\site-packages\\tensorflow\\python\\client\\session.py", line 1, in <module>\n${log}`,
    );
    expect(path.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/fork/);
  });
});

describe("MXNet's builds without CUDA in every release's words", () => {
  it.each([
    // apache/mxnet src/storage/storage.cc 2015-2017 (0.5-0.10)
    ['mxnet.base.MXNetError: [10:02:33] /home/me/mxnet/src/storage/storage.cc:47: Please compile with CUDA enabled'],
    // storage.cc from 2016-10 to today
    ['mxnet.base.MXNetError: [09:41:07] src/storage/storage.cc:82: Compile with USE_CUDA=1 to enable GPU usage'],
  ])('%s', (line) => {
    const d = explainText(line);
    expect(d.signals.map((s) => s.signature)).toContain('mxnet-compile-with-cuda');
    expect(d.causes[0]!.id).toBe('no_device_visible');
    expect(d.causes.map((c) => c.id)).toContain('library_missing');
  });
});

describe("cuDNN's BAD_PARAM: the program's tensor shapes are among its causes", () => {
  it('a dimension of zero or less is a parameter cuDNN rejects (the descriptor setters)', () => {
    const d = explainText(
      'F tensorflow/stream_executor/cuda/cuda_dnn.cc:521] could not set cudnn tensor descriptor: CUDNN_STATUS_BAD_PARAM',
      catalogOnly,
    );
    const other = d.causes.find((c) => c.id === 'other');
    expect(other?.why.join(' ')).toMatch(/tensor shapes/);
    // the catalog's own two readings stay ahead of it
    expect(d.causes.map((c) => c.id).indexOf('other')).toBeGreaterThan(
      d.causes.map((c) => c.id).indexOf('framework_bug'),
    );
  });
});

describe('a hosted notebook image and the cuDNN a framework loads', () => {
  it("PyTorch brings its own cuDNN: the image's cuDNN is not the reason; TensorFlow loads the image's", () => {
    const image = (t: string, id: string) =>
      explainText(t)
        .causes.find((c) => c.id === id)
        ?.why.join(' ') ?? '';
    const colab = '- Installed using: Google Colab';
    expect(
      image(
        `RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n- PyTorch version: 2.1.0\n${colab}`,
        'cudnn_version_mismatch',
      ),
    ).not.toMatch(/runtime image/);
    expect(
      image(
        `Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n- TensorFlow version: 2.3.0\n${colab}`,
        'cudnn_version_mismatch',
      ),
    ).toMatch(/runtime image/);
  });
});

describe("TensorFlow's reserve for the CUDA libraries: a cuBLAS handle it cannot create", () => {
  const cublas =
    '2020-08-05 14:50:28.489542: E tensorflow/stream_executor/cuda/cuda_blas.cc:238] failed to create cublas handle: ' +
    'CUBLAS_STATUS_ALLOC_FAILED\n' +
    '2020-08-05 14:50:28.489887: W tensorflow/core/common_runtime/base_collective_executor.cc:217] ' +
    'BaseCollectiveExecutor::StartAbort Internal: Blas xGEMM launch failed\n';
  it("cuBLAS alone: memory taken after TensorFlow started, another process's, not TensorFlow's pool", () => {
    const got = ids(cublas);
    expect(got[0]).toBe('memory_held_by_other_process');
    expect(got.indexOf('framework_preallocation')).not.toBe(0);
    expect(first('tensorflow.python.framework.errors_impl.InternalError: Blas GEMM launch failed')).toBe(
      'memory_held_by_other_process',
    );
  });
  it("with cuDNN's handle failing too (cuDNN loads its kernels, more than the reserve): the pool stays first", () => {
    const cudnn =
      '2019-06-21 14:29:35.1: E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: ' +
      'CUDNN_STATUS_INTERNAL_ERROR\n' +
      'tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably ' +
      'because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.\n';
    expect(first(cudnn + cublas)).not.toBe('memory_held_by_other_process');
  });
  it('another framework keeps its reading: a cuBLAS handle under PyTorch is not moved', () => {
    expect(first('RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`')).not.toBe(
      'memory_held_by_other_process',
    );
  });
});

describe("Docker's --gpus with no device driver for the gpu capability", () => {
  it('the container starts without a GPU (CONTRACT: a container without GPU is no_device_visible), no library', () => {
    const line =
      'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].\n' +
      'ERRO[0000] error waiting for container: context canceled\n';
    const d = explainText(line, catalogOnly);
    expect(d.signals.map((s) => s.signature)).toContain('docker-could-not-select-device-driver');
    expect(d.causes[0]!.id).toBe('no_device_visible');
  });
});

describe("PyTorch's advice when it finds no driver is not the reporter's account", () => {
  // c10/cuda/CUDAFunctions.cpp: "… Please check that you have an NVIDIA GPU and installed a driver from <url>"
  const NO_DRIVER =
    'RuntimeError: Found no NVIDIA driver on your system. Please check that you\n' +
    'have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx';
  it('the message alone: no device visible, no driver update read', () => {
    const d = explainText(NO_DRIVER);
    expect(d.signals.map((s) => s.signature)).not.toContain('note.driver_update_no_reboot');
    expect(d.causes[0]!.id).toBe('no_device_visible');
  });
  it("a reporter's own words still count", () => {
    const d = explainText(`${NO_DRIVER}\nI had just installed a new NVIDIA driver and not rebooted yet.`);
    expect(d.signals.map((s) => s.signature)).toContain('note.driver_update_no_reboot');
  });
});
