// Wordings of older releases and neighbouring tools, each read as its source prints it (the shared message
// catalog's entries and the sources they name): a rule here states what the source does, never one report's text.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const sigs = (t: string) => explainText(t).signals.map((s) => s.signature);
const first = (t: string) => explainText(t).causes[0]?.id;

describe("PyTorch 0.x-1.x THC's cuBLAS check prints the status in its own words", () => {
  // __THCublasCheck (aten/src/THC/THCGeneral.cpp): "cublas runtime error : %s" with a text per cublasStatus_t
  it.each([
    ['library not initialized', 'cublas.status.not_initialized'],
    ['resource allocation failed', 'cublas.status.alloc_failed'],
    ['an invalid numeric value was used as an argument', 'cublas.status.invalid_value'],
    ['an absent device architectural feature is required', 'cublas.status.arch_mismatch'],
    ['the GPU program failed to execute', 'cublas.status.execution_failed'],
    ['an internal operation failed', 'cublas.status.internal_error'],
  ])('"%s" is read as %s', (text, id) => {
    const line = `RuntimeError: cublas runtime error : ${text} at /pytorch/aten/src/THC/THCBlas.cu:258`;
    expect(sigs(line)).toContain(id);
  });

  it('the status decides the first cause (not the wrapper alone)', () => {
    expect(first('RuntimeError: cublas runtime error : resource allocation failed at THCGeneral.cpp:250')).toBe(
      'gpu_memory_exhausted',
    );
    expect(first('RuntimeError: cublas runtime error : an absent device architectural feature is required')).toBe(
      'gpu_arch_unsupported',
    );
  });
});

describe("ONNX Runtime's warning for a provider its build lacks", () => {
  // check_and_normalize_provider_args: the providers of get_available_providers() are those compiled in
  const warning =
    "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: " +
    "'AzureExecutionProvider, CPUExecutionProvider'";
  it('is the CPU package in place of onnxruntime-gpu (missing first, the two packages side by side next)', () => {
    const d = explainText(warning);
    expect(d.signals.map((s) => s.signature)).toContain('ort.cuda_provider_not_in_build');
    expect(d.causes.map((c) => c.id).slice(0, 2)).toEqual(['library_missing', 'library_conflict']);
  });
  it('says nothing of a provider that is not a GPU one', () => {
    expect(sigs("Specified provider 'OpenVINOExecutionProvider' is not in available provider names.")).not.toContain(
      'ort.cuda_provider_not_in_build',
    );
  });
});

describe("the Kubernetes device plugin's line for a node whose GPUs it cannot see", () => {
  it('"No devices found. Waiting indefinitely." is no device visible', () => {
    expect(first('I1203 12:00:00.000000       1 main.go:256] No devices found. Waiting indefinitely.')).toBe(
      'no_device_visible',
    );
  });
  it('not a bare "No devices found." (any tool prints that)', () => {
    expect(sigs('No devices found.')).not.toContain('k8s.device_plugin_no_devices');
  });
});

describe("CuPy's import-time warning for several CuPy packages", () => {
  it('is a library conflict, the packages of two CUDA majors a toolkit reading after it', () => {
    const warning = [
      '--------------------------------------------------------------------------------',
      '',
      '  CuPy may not function correctly because multiple CuPy packages are installed',
      '  in your environment:',
      '',
      '    cupy-cuda11x, cupy-cuda12x',
    ].join('\n');
    const ids = explainText(warning).causes.map((c) => c.id);
    expect(ids.slice(0, 2)).toEqual(['library_conflict', 'cuda_toolkit_mismatch']);
  });
});

describe("glibc's loader finding a file by a CUDA library's name that it cannot load", () => {
  // elf/dl-load.c open_verify prints "NAME: <reason>"
  it.each([
    ['ImportError: libcudnn.so.8: wrong ELF class: ELFCLASS32'],
    ['OSError: /usr/local/cuda/lib64/libcudart.so.11.0: invalid ELF header'],
    ['ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: file too short'],
  ])('%s: another copy first on the path, then the library missing', (line) => {
    expect(
      explainText(line)
        .causes.map((c) => c.id)
        .slice(0, 2),
    ).toEqual(['library_conflict', 'library_missing']);
  });
  it('not for a library that is not CUDA', () => {
    expect(sigs('ImportError: libfoo.so.1: invalid ELF header')).not.toContain('lib.not_a_loadable_elf');
  });
});

describe('Windows loader codes by the text the system prints for them (any language)', () => {
  // CPython's "DLL load failed while importing X: <FormatMessage text>" carries no number: the text is the code
  it.each([
    ['ImportError: DLL load failed while importing _C: The specified procedure could not be found.'],
    ['ImportError: DLL load failed: 找不到指定的程序。'],
  ])('ERROR_PROC_NOT_FOUND (127): %s is another release of a DLL first on the path', (line) => {
    expect(first(line)).toBe('library_conflict');
  });
  it('ERROR_MOD_NOT_FOUND (126) by its text stays a missing library', () => {
    expect(first('ImportError: DLL load failed while importing _C: 找不到指定的模块。')).toBe('library_missing');
  });
});

describe('Windows ERROR_COMMIT_LIMIT (1455) while loading the CUDA DLLs', () => {
  it.each([
    [
      'OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading ' +
        '"C:\\x\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.',
    ],
    [
      'OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading "C:\\x\\torch\\lib\\caffe2_detectron_ops_gpu.dll" or ' +
        'one of its dependencies.',
    ],
  ])('is the host memory (other), not a missing library: %s', (line) => {
    expect(first(line)).toBe('other');
  });
});

describe("NVRTC's own messages and statuses (CuPy's and PyTorch's run-time compilers print them)", () => {
  it.each([
    ['cupy.cuda.compiler.CompileException: nvrtc: error: failed to open libnvrtc-builtins.so.12.1.', 'library_missing'],
    ['RuntimeError: nvrtc: error: failed to open nvrtc-builtins64_118.dll.', 'library_missing'],
    ['cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (7)', 'library_missing'],
    ['cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_INVALID_OPTION (5)', 'gpu_arch_unsupported'],
    [
      'cupy.cuda.compiler.CompileException: /tmp/t/kern.cu(1): catastrophic error: cannot open source file ' +
        '"cuda_fp16.h"',
      'library_missing',
    ],
  ])('%s: %s', (line, id) => {
    expect(first(line)).toBe(id);
  });
  it("a header that is not CUDA's says nothing of CUDA", () => {
    expect(sigs('kern.cu(1): catastrophic error: cannot open source file "mylib.h"')).not.toContain(
      'nvrtc.cuda_header_missing',
    );
  });
});

describe("PyTorch's '<NCCL result>, NCCL version X' defers to the result's own text", () => {
  const wrap = (text: string) =>
    `RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, ${text}, NCCL version ` +
    `2.18.1`;
  it('"unhandled cuda error" is read by its own row, not as the wrapper\'s "other"', () => {
    const d = explainText(wrap('unhandled cuda error'));
    expect(d.signals.map((s) => s.signature)).toEqual(
      expect.arrayContaining(['pt-nccl-version-suffix', 'nccl-old-unhandled-cuda-error']),
    );
    expect(d.causes[0]?.id).not.toBe('other');
  });
  it('a result text with no row of its own leaves the wrapper its vote', () => {
    expect(first(wrap('invalid usage'))).toBe('other');
  });
});

describe('NCCL finding no network interface to bootstrap on', () => {
  it.each([
    ['node1:1234:1290 [0] NCCL WARN Bootstrap : no socket interface found'],
    ['node1:1234:1290 [0] NCCL WARN NET/Socket : No usable listening interface found'],
  ])('%s is the interface setting (NCCL_SOCKET_IFNAME)', (line) => {
    expect(first(line)).toBe('configuration_invalid');
  });
});

describe("a library's own compute-capability floor, in its words", () => {
  it.each([
    ['RuntimeError: FlashAttention only supports Ampere GPUs or newer.'],
    [
      'ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has ' +
        'compute capability 7.5.',
    ],
    [
      'RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which ' +
        'is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA ' +
        'capability 6.0',
    ],
    ['    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)'],
  ])('%s is the GPU architecture', (line) => {
    expect(first(line)).toBe('gpu_arch_unsupported');
  });
});

describe("Docker's daemon without the NVIDIA runtime registered", () => {
  it('"unknown or invalid runtime name: nvidia" is no device visible, the runtime missing next', () => {
    const ids = explainText('docker: Error response from daemon: unknown or invalid runtime name: nvidia.').causes.map(
      (c) => c.id,
    );
    expect(ids.slice(0, 2)).toEqual(['no_device_visible', 'library_missing']);
  });
});

describe("TensorRT 8's wording of the cuDNN it loaded", () => {
  it('"linked against cuDNN X but loaded cuDNN Y" is the same signal as TensorRT 5-7\'s wording', () => {
    const newer = explainText('[TRT] [W] TensorRT was linked against cuDNN 8.6.0 but loaded cuDNN 8.2.1');
    const older = explainText(
      'WARNING: TensorRT was compiled against cuDNN 7.5.0 but is linked against cuDNN 7.0.5. This mismatch may ' +
        'potentially cause undefined behavior.',
    );
    expect(newer.signals.map((s) => s.signature)).toEqual(['tensorrt-cudnn-linked']);
    expect(older.signals.map((s) => s.signature)).toEqual(['tensorrt-cudnn-linked']);
    expect(newer.causes[0]?.id).toBe('cudnn_version_mismatch');
  });
});

describe("JAX's hint appended to every plugin backend that fails to initialise", () => {
  const hint =
    ' (you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)';
  it('does not vote once the failure it follows is read: "No visible GPU devices" is no device visible', () => {
    const line =
      `RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU ` + `devices.${hint}`;
    expect(sigs(line)).toContain('jax-unable-init-backend-suffix-uninstall');
    expect(first(line)).toBe('no_device_visible');
  });
});

describe("TensorFlow 2.14-2.16's plugin registration lines at every start", () => {
  const noise = [
    'E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to ' +
      'register factory for plugin cuDNN when one has already been registered',
    'E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:607] Unable to register cuFFT factory: Attempting to ' +
      'register factory for plugin cuFFT when one has already been registered',
    'E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1515] Unable to register cuBLAS factory: Attempting ' +
      'to register factory for plugin cuBLAS when one has already been registered',
  ].join('\n');
  it('step aside for the failure that follows them', () => {
    const dlopen =
      'W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries. Please make sure ' +
      'the missing libraries mentioned above are installed properly if you would like to use GPU.';
    expect(first(`${noise}\n${dlopen}`)).toBe(first(dlopen));
    expect(first(`${noise}\n${dlopen}`)).not.toBe('framework_bug');
  });
  it('alone keep their own reading', () => {
    expect(first(noise)).toBe('framework_bug');
  });
});

describe("TensorFlow 2.12+'s 'TF-TRT Warning: Could not find TensorRT' at every import", () => {
  const trt = 'W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT';
  it.each([
    [
      'E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:429] Loaded runtime CuDNN library: 8.1.0 but ' +
        'source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and equal or higher ' +
        'minor version.',
    ],
    [
      'tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with ' +
        'shape[256,256,3,3] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
    ],
  ])('does not outvote the failure after it: %s', (failure) => {
    expect(first(`${trt}\n${failure}`)).toBe(first(failure));
  });
  it('alone still says TensorRT is missing', () => {
    expect(first(trt)).toBe('library_missing');
  });
});

describe("JAX's start-up lines for the platforms that are not there (ROCm, TPU)", () => {
  const startup = [
    "INFO:jax._src.xla_bridge:Unable to initialize backend 'rocm': NOT_FOUND: Could not find registered platform " +
      'with name: "rocm". Available platform names are: CUDA',
    "INFO:jax._src.xla_bridge:Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: " +
      'cannot open shared object file: No such file or directory',
  ].join('\n');
  it('say nothing alone', () => {
    expect(explainText(startup).causes).toEqual([]);
  });
  it('leave the failure after them its full weight', () => {
    const cudnn =
      'E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Loaded runtime CuDNN library: 8.6.0 but source was ' +
      'compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or higher minor version.';
    expect(explainText(`${startup}\n${cudnn}`).causes[0]?.confidence).toBe(explainText(cudnn).causes[0]?.confidence);
  });
  it('a CUDA backend that fails still counts', () => {
    expect(sigs("Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.")).toContain(
      'jax-unable-init-backend',
    );
    expect(first("Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.")).toBe(
      'no_device_visible',
    );
  });
});
