// Evidence before habit (src/judge/explain/diagnose.ts evidenceTiers) and the out-of-memory arithmetic
// (src/judge/explain/analyse/memory.ts): each outcome on the frameworks' own wordings, as their sources print them
// (PyTorch c10/cuda/CUDACachingAllocator.cpp 1.x and 2.x, XLA's allocator adapter, Paddle's allocation facade,
// CuPy's memory pool), asserted by what it changes in the diagnosis.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { HARDWARE_WORDS } from '../../src/judge/explain/diagnose.js';
import { CONTEXT_AND_HANDLES_BYTES, CUDA_CONTEXT_BYTES } from '../../src/judge/explain/analyse/memory.js';
import { holdersSnapshot, JAX_PID } from '../helpers/holders.js';

const first = (t: string) => explainText(t).causes[0]?.id;
const why = (t: string) => explainText(t).causes[0]!.why.join(' ');

/** PyTorch 2.1+ wording (the docs.pytorch.org link of 2.6+ left out: it carries no figure) */
const torchOom = (o: {
  req: string;
  total: string;
  free: string;
  procs?: string;
  self: string;
  alloc: string;
  unalloc: string;
}) =>
  `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ${o.req}. GPU 0 has a total capacity of ${o.total} of which ${o.free} is free. ${o.procs ?? ''}Including non-PyTorch memory, this process has ${o.self} memory in use. Of the allocated memory ${o.alloc} is allocated by PyTorch, and ${o.unalloc} is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.`;

describe('the margins are named data with their measurement', () => {
  it('a CUDA context is about half a GiB, with its library handles at most a GiB', () => {
    expect(CUDA_CONTEXT_BYTES / 2 ** 20).toBe(518);
    expect(CONTEXT_AND_HANDLES_BYTES).toBe(2 ** 30);
  });
});

describe('PyTorch 2.x out of memory: five outcomes from the figures', () => {
  it('the job itself: a request larger than the whole GPU (real H200 capture)', () => {
    const log =
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 200.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 139.29 GiB is free. Including non-PyTorch memory, this process has 518.00 MiB memory in use. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.';
    expect(first(log)).toBe('gpu_memory_exhausted');
    expect(why(log)).toMatch(/larger than the whole GPU/);
  });

  it('the job itself: this process holds nearly all of the GPU', () => {
    const log = torchOom({
      req: '2.00 GiB',
      total: '79.15 GiB',
      free: '1.06 GiB',
      self: '78.08 GiB',
      alloc: '76.90 GiB',
      unalloc: '200.00 MiB',
    });
    expect(first(log)).toBe('gpu_memory_exhausted');
  });

  it('another process: listed by PID, and the job would have fit without it', () => {
    const log = torchOom({
      req: '6.10 GiB',
      total: '139.80 GiB',
      free: '1.10 GiB',
      procs: 'Process 1968 has 105.39 GiB memory in use. ',
      self: '33.50 GiB',
      alloc: '32.00 GiB',
      unalloc: '1.00 GiB',
    });
    expect(first(log)).toBe('memory_held_by_other_process');
  });

  it('another process not listed (a container hides its PID): total − free − this process ≫ a context', () => {
    const log = torchOom({
      req: '4.00 GiB',
      total: '23.65 GiB',
      free: '1.25 GiB',
      self: '3.40 GiB',
      alloc: '3.10 GiB',
      unalloc: '100.00 MiB',
    });
    const d = explainText(log);
    expect(d.causes[0]!.id).toBe('memory_held_by_other_process');
    expect(d.causes[0]!.why.join(' ')).toMatch(/19\.0 GiB of the GPU's 23\.6 GiB is in use outside this process/);
  });

  it('fragmentation: reserved-but-unallocated at least the request, not the hint line printed on every OOM', () => {
    const frag = torchOom({
      req: '2.00 GiB',
      total: '23.65 GiB',
      free: '1.50 GiB',
      self: '21.90 GiB',
      alloc: '15.10 GiB',
      unalloc: '6.30 GiB',
    });
    expect(first(frag)).toBe('allocator_fragmentation');
    // the same hint line with little unallocated: not fragmentation
    const plain = torchOom({
      req: '2.00 GiB',
      total: '23.65 GiB',
      free: '1.50 GiB',
      self: '21.90 GiB',
      alloc: '21.30 GiB',
      unalloc: '100.00 MiB',
    });
    expect(first(plain)).toBe('gpu_memory_exhausted');
    expect(explainText(plain).causes.find((c) => c.id === 'allocator_fragmentation')?.confidence ?? 0).toBeLessThan(
      0.15,
    );
  });

  it('another framework in the same process: 105 GiB in use and PyTorch allocated nothing', () => {
    const log = torchOom({
      req: '30.00 GiB',
      total: '139.80 GiB',
      free: '33.90 GiB',
      self: '105.39 GiB',
      alloc: '0 bytes',
      unalloc: '0 bytes',
    });
    const d = explainText(log);
    expect(d.causes[0]!.id).toBe('framework_preallocation');
    expect(d.causes[0]!.why.join(' ')).toMatch(/another framework in the same process/);
    const held = d.causes.find((c) => c.id === 'memory_held_by_other_process');
    expect(held?.confidence ?? 0).toBeLessThan(d.causes[0]!.confidence / 3);
  });

  it('CUDA contexts of other processes (a few hundred MiB each) are not what filled the GPU', () => {
    const log = torchOom({
      req: '1.00 GiB',
      total: '23.65 GiB',
      free: '700.00 MiB',
      procs: 'Process 311 has 420.00 MiB memory in use. Process 312 has 420.00 MiB memory in use. ',
      self: '22.10 GiB',
      alloc: '21.80 GiB',
      unalloc: '90.00 MiB',
    });
    expect(first(log)).toBe('gpu_memory_exhausted');
  });
});

describe('the older and other frameworks’ wordings', () => {
  it('PyTorch 1.x: little reserved, nothing free → memory used outside this PyTorch', () => {
    expect(
      first(
        'RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; 48.50 MiB already allocated; 9.44 MiB free; 52.00 MiB reserved in total by PyTorch)',
      ),
    ).toBe('memory_held_by_other_process');
  });

  it('PyTorch 1.x: the cache holds the request, unallocated → fragmentation', () => {
    expect(
      first(
        'RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 15.78 GiB total capacity; 9.80 GiB already allocated; 120.00 MiB free; 15.30 GiB reserved in total by PyTorch)',
      ),
    ).toBe('allocator_fragmentation');
  });

  it('JAX/XLA: a request larger than the stated GPU is the job itself', () => {
    const log =
      'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 34359738368 bytes.\n- GPU model and memory: RTX 3090 24GB';
    const d = explainText(log);
    expect(d.causes[0]!.id).toBe('gpu_memory_exhausted');
    expect(d.causes[0]!.why.join(' ')).toMatch(/32\.0 GiB\) is larger than the whole GPU/);
  });

  it('CuPy: a request larger than the stated GPU is the job itself', () => {
    expect(
      first(
        'cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 17,179,869,184 bytes (allocated so far: 0 bytes).\n- GPU model and memory: GTX 1080 8GB',
      ),
    ).toBe('gpu_memory_exhausted');
  });

  it('Paddle: nothing allocated by Paddle and nothing available → held elsewhere; Paddle holding it → the job', () => {
    const held =
      'ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 240.250244MB memory on GPU 0, 0.000000B memory has been allocated and available memory is only 0.000000B.';
    expect(first(held)).toBe('memory_held_by_other_process');
    const job =
      'ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.500000GB memory on GPU 0, 10.700000GB memory has been allocated and available memory is only 120.000000MB.';
    expect(first(job)).toBe('gpu_memory_exhausted');
  });
});

describe('evidence before habit', () => {
  it('a plain CUDA_ERROR_OUT_OF_MEMORY is not outranked by versions in the environment block', () => {
    const log =
      'E0312 external/xla/xla/stream_executor/cuda/cuda_driver.cc:1020] failed to alloc 2147483648 bytes on host: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n- TensorFlow version: 2.4.1\n- CUDA version: 11.8\n- cuDNN version: 8.9';
    const d = explainText(log);
    expect(['gpu_memory_exhausted', 'framework_preallocation', 'memory_held_by_other_process']).toContain(
      d.causes[0]!.id,
    );
  });

  it("a version pair in the message outranks the environment's toolkit suspicion", () => {
    const log =
      'E tensorflow/stream_executor/cuda/cuda_dnn.cc:319] Loaded runtime CuDNN library: 7.5.1 but source was compiled with: 7.6.0.  CuDNN library major and minor version needs to match or have higher minor version in case of CuDNN 7.0 or later version.\n- TensorFlow version: 1.14\n- CUDA version: 10.1\n- cuDNN version: 7.5';
    expect(['cudnn_version_mismatch', 'library_conflict']).toContain(first(log));
  });

  it('hardware fault is never first for a text with no hardware or driver word', () => {
    const log =
      'ImportError: /opt/venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi';
    const d = explainText(log);
    expect(d.causes[0]?.id).not.toBe('hardware_or_driver_fault');
    expect(HARDWARE_WORDS.test(log)).toBe(false);
    // with a hardware word it may be
    expect(first('NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.')).toBe(
      'hardware_or_driver_fault',
    );
  });
});

describe('configuration_invalid: a setting the framework rejects or ignores', () => {
  it("PyTorch's allocator-config parse failure", () => {
    const d = explainText("RuntimeError: Unrecognized key 'max_split_mb' in Accelerator allocator config.");
    expect(d.causes[0]!.id).toBe('configuration_invalid');
    expect(d.causes[0]!.setting).toBe('PYTORCH_CUDA_ALLOC_CONF');
    expect(d.causes[0]!.fix?.commands?.join(' ')).toMatch(/unset PYTORCH_CUDA_ALLOC_CONF/);
  });

  it("TensorFlow's TF_FORCE_GPU_ALLOW_GROWTH in the wrong case (compared with strcmp), behind a glog prefix", () => {
    const d = explainText(
      '2023-01-05 10:11:12.123456: E tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc:47] The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: "True". Valid values are "true" or "false". Using original config value of 0.',
    );
    expect(d.causes[0]!.id).toBe('configuration_invalid');
    expect(d.causes[0]!.setting).toBe('TF_FORCE_GPU_ALLOW_GROWTH');
  });

  it('a CUDA_VISIBLE_DEVICES that names no GPU stays no_device_visible', () => {
    expect(first('RuntimeError: No CUDA GPUs are available\nCUDA_VISIBLE_DEVICES=7')).toBe('no_device_visible');
  });
});

describe('neighbouring wordings read in their setting', () => {
  it('NVML\'s "Unknown Error" inside a container is the container\'s lost device access; on a host it may be the driver', () => {
    const inContainer =
      'Failed to initialize NVML: Unknown Error\nkubelet: container startup after a systemd daemon-reload (docker)';
    expect(first(inContainer)).toBe('no_device_visible');
    const onHost = explainText('Failed to initialize NVML: Unknown Error');
    expect(onHost.causes.map((c) => c.id)).toContain('hardware_or_driver_fault');
  });
});

describe('neighbouring wordings (hand-written rows with their sources) behind the prefix styles of real logs', () => {
  const PREFIXES: Array<(l: string) => string> = [
    (l) => l,
    (l) => `E1202 14:56:51.774521    3686 executor.cc:1365] [0] ${l}`,
    (l) => `2024-05-01 12:00:00,123 - trainer - ERROR - ${l}`,
    (l) => `[rank3]: ${l}`,
    (l) => `\x1b[1;31m${l}\x1b[0m`,
    (l) => `trainer_1  | ${l}`,
    (l) => `first line\r\n${l}\r\nlast line\r\n`,
  ];
  const CASES: Array<[string, string, string]> = [
    [
      'trt.engine_version_mismatch',
      '[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: Serialization (Serialization assertion safeVersionRead == kSAFE_SERIALIZATION_VERSION failed.Version tag does not match. Note: Current Version: 213, Serialized Engine Version: 232)',
      'other',
    ],
    ['nccl.shm_segment', 'Error while creating shared memory segment /dev/shm/nccl-pZafXL (size 7340384)', 'other'],
    [
      'ort.cuda_path_not_loaded',
      "onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct version of CUDA and cuDNN",
      'cuda_toolkit_mismatch',
    ],
    [
      'paddle.cuda_visible_devices_unset',
      'RuntimeError: Attempt to use GPU for prediction, but environment variable CUDA_VISIBLE_DEVICES was not set correctly.',
      'no_device_visible',
    ],
    ['cpm_kernels.cudart_not_initialized', 'RuntimeError: Library cudart is not initialized', 'library_missing'],
    [
      'win.ctypes_module_not_found',
      "FileNotFoundError: Could not find module 'C:\\env\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll' (or one of its dependencies). Try using the full path with constructor syntax.",
      'library_missing',
    ],
    [
      'tf-no-algorithm-worked',
      'No algorithm worked on Ubuntu 20.04 LTS with CUDA 11.0 and Tensorflow 2.4.1',
      'framework_preallocation',
    ],
    [
      'torch.dataloader.bus_error',
      'RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).',
      'other',
    ],
    ['ucx.sigbus', '[qgpuvb813-cvision:1 :0:381] Caught signal 7 (Bus error: nonexistent physical address)', 'other'],
    [
      'paddle.enforce_allocating_le_available',
      'paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 14802874401 > 12088311552',
      'framework_preallocation',
    ],
    ['cupy.jitify_compile_failed', 'cupy.cuda.jitify.JitifyException: Runtime compilation failed', 'library_conflict'],
    ['lib.winerror_mod_not_found', 'OSError: [WinError 126] 找不到指定的模块。', 'library_missing'],
    [
      'lib.winerror_mod_not_found',
      'OSError: [WinError 126] The specified module could not be found',
      'library_missing',
    ],
    [
      'lib.winerror_mod_not_found',
      'Loadlibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll',
      'library_missing',
    ],
    [
      'lib.winerror_proc_not_found',
      'OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\\env\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.',
      'library_conflict',
    ],
    [
      'lib.symbol_version_not_defined',
      'OSError: /opt/conda/lib/python3.8/site-packages/onnxruntime/capi/libonnxruntime_providers_cuda.so: symbol free_gemm_select version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference',
      'library_conflict',
    ],
  ];
  it.each(CASES)('%s', (id, line, cause) => {
    for (const wrap of PREFIXES) {
      const d = explainText(wrap(line));
      expect(d.signals.map((s) => s.signature)).toContain(id);
      // Paddle 1.x's pool is a preallocation; Paddle 2.x grows on demand, so a Paddle log's "preallocation" reads as the job's size
      expect(
        cause === 'framework_preallocation' ? ['framework_preallocation', 'gpu_memory_exhausted'] : [cause],
      ).toContain(d.causes[0]?.id);
    }
  });
});

describe('another framework in the process, named from the machine (real JAX and PyTorch maps of the H200 holders)', () => {
  it("the process that maps both PyTorch and JAX names JAX, and JAX's setting is the fix", () => {
    const log =
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 33.90 GiB is free. Including non-PyTorch memory, this process has 105.39 GiB memory in use. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.';
    const snap = holdersSnapshot();
    const p = snap.processes.list.find((x) => x.pid === JAX_PID)!;
    p.framework = { ...p.framework!, name: 'jax', also: ['torch'] };
    snap.processes.list = [p];
    const d = explainText(log, { sourceName: 'log', snapshot: snap });
    const c = d.causes[0]!;
    expect(c.id).toBe('framework_preallocation');
    expect(c.why.join(' ')).toMatch(/PID 1968 maps both PyTorch and JAX/);
    expect(c.fix?.commands).toContain('export XLA_PYTHON_CLIENT_PREALLOCATE=false');
    // without the machine, both frameworks' settings are offered (which one is not known)
    expect(explainText(log).causes[0]!.fix?.commands?.join(' ')).toMatch(
      /TF_FORCE_GPU_ALLOW_GROWTH.*XLA_PYTHON_CLIENT_PREALLOCATE/,
    );
  });
});

describe('a cuDNN function the loaded cuDNN lacks is a cuDNN release that does not fit', () => {
  const causes = (t: string) => explainText(t).causes.map((c) => c.id);
  it('undefined, or not at the version the binary was linked against: cuDNN version among the first two', () => {
    for (const line of [
      'ImportError: .../jaxlib/xla_extension.so: symbol cudnnSetCTCLossDescriptorEx version libcudnn.so.7 not defined in file libcudnn.so.7 with link time reference',
      'python: symbol lookup error: /home/u/lib/python3.5/site-packages/torch/_C.cpython-35m-x86_64-linux-gnu.so: undefined symbol: cudnnSetConvolutionGroupCount',
    ]) {
      expect(causes(line).slice(0, 2)).toContain('cudnn_version_mismatch');
      expect(causes(line).slice(0, 2)).toContain('library_conflict');
    }
  });
  it('a function of another library (cuBLASLt) says nothing of cuDNN', () => {
    const line =
      'Could not load symbol cublasLtGetStatusString. Error: /usr/lib64/libcublasLt.so.11: undefined symbol: cublasLtGetStatusString';
    const whys = explainText(line).causes.flatMap((c) => c.why);
    expect(whys.join(' ')).not.toMatch(/loaded cuDNN does not define/);
    expect(whys.join(' ')).toMatch(/lacks a function/);
  });
});

describe("an undefined C++ symbol: the framework's (another release) or the extension's own (its build left it out)", () => {
  const first = (t: string) => explainText(t).causes[0]?.id;
  it('a function in at::/c10:: is the framework the extension was not built against', () => {
    expect(
      first(
        'ImportError: /env/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi',
      ),
    ).toBe('library_conflict');
  });
  it("a function of the extension's own (no framework namespace) is a build that left a source out", () => {
    const d = explainText(
      'ImportError: /mmdet3d/ops/roiaware_pool3d/roiaware_pool3d_ext.cpython-37m-x86_64-linux-gnu.so: undefined symbol: _Z27points_in_boxes_cpu_forwardN2at6TensorES0_S0_',
    );
    expect(d.causes[0]?.id).toBe('framework_bug');
    expect(d.causes[0]?.why.join(' ')).toMatch(/function of its own/);
  });
});

describe("a CUDA library's failure on a GPU newer than the build's CUDA release", () => {
  const log = (gpu: string) =>
    `RuntimeError: cublas runtime error : the GPU program failed to execute at /opt/conda/conda-bld/pytorch/work/aten/src/THC/THCBlas.cu:258\n\n- PyTorch version: 1.0.1\n- CUDA version: 9.0\n- GPU model and memory: ${gpu}\n`;
  it('PyTorch built with CUDA 9.0 on a Turing GPU: cuBLAS of CUDA 9.0 has no kernels for it', () => {
    const d = explainText(log('GeForce RTX 2080 Ti'));
    expect(d.causes[0]?.id).toBe('gpu_arch_unsupported');
    expect(d.causes[0]?.why.join(' ')).toMatch(/CUDA 9\.0, which predates/);
  });
  it('the same failure on a GPU that CUDA 9.0 knows says nothing of the architecture', () => {
    const d = explainText(log('GeForce GTX 1080'));
    expect(d.causes.flatMap((c) => c.why).join(' ')).not.toMatch(/predates/);
  });
});

describe("TensorFlow/XLA's loaded-vs-compiled cuDNN pair names both readings", () => {
  it('the version first, the conflict (another copy first on the path) beside it, above causes it does not state', () => {
    const d = explainText(
      '2023-03-27 03:15:47.851349: E external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and equal or higher minor version.\n2023-03-27 03:15:47.854454: E external/org_tensorflow/tensorflow/compiler/xla/status_macros.cc:54] INTERNAL: RET_CHECK failure (external/org_tensorflow/tensorflow/compiler/xla/service/gpu/gpu_compiler.cc:641) dnn != nullptr',
    );
    expect(d.causes.slice(0, 2).map((c) => c.id)).toEqual(['cudnn_version_mismatch', 'library_conflict']);
  });
});

describe("CuPy compiles with its CUDA's NVRTC: a CUDA that cannot target the GPU", () => {
  const log = (gpu: string) =>
    `import cupy as cp\ncp.array(cp.zeros((1,)))\n~/.venv/lib/python3.8/site-packages/cupy/cuda/compiler.py in compile_with_cache(source, options, arch)\n\n- Framework: CuPy 8.4\n- CUDA version: 11.2\n- GPU model and memory: ${gpu}\n`;
  it('CUDA 11.2 on a Kepler sm_30 GPU (dropped in CUDA 11)', () => {
    expect(explainText(log('Quadro K2000')).causes[0]?.id).toBe('gpu_arch_unsupported');
  });
  it('CUDA 11.2 on a GPU it targets: no architecture suspicion', () => {
    expect(explainText(log('GeForce RTX 2080')).causes.map((c) => c.id)).not.toContain('gpu_arch_unsupported');
  });
});

describe("Paddle's allocated figure larger than any GPU is a counter gone wrong", () => {
  it('the job is not said to hold 128 TiB; another process stays a candidate', () => {
    const d = explainText(
      'RuntimeError: ResourceExhaustedError:\n\nOut of memory error on GPU 0. Cannot allocate 2.250000kB memory on GPU 0, 127.994262TB memory has been allocated and available memory is only 0.000000B.',
    );
    const whys = d.causes.flatMap((c) => c.why).join(' ');
    expect(whys).not.toMatch(/holds 128/);
    expect(d.causes.slice(0, 3).map((c) => c.id)).toContain('memory_held_by_other_process');
  });
});

describe('JAX finding an older cuDNN with PyTorch in the same program', () => {
  const found =
    'CUDA backend failed to initialize: Found cuDNN version 8500, but JAX was built against version 8600, which is newer. The copy of cuDNN that is installed must be at least as new as the version against which JAX was built.';
  it('the first cuDNN loaded wins: the conflict ranks beside the version', () => {
    const d = explainText(`import torch\nimport jax.numpy as jnp\nprint(torch.backends.cudnn.version())\n${found}`);
    expect(d.causes.slice(0, 2).map((c) => c.id)).toEqual(['cudnn_version_mismatch', 'library_conflict']);
  });
  it('JAX alone: no word of PyTorch', () => {
    const whys = explainText(found)
      .causes.flatMap((c) => c.why)
      .join(' ');
    expect(whys).not.toMatch(/PyTorch is in the same program/);
  });
});

describe("PyTorch's cuDNN statuses: its workspace comes from PyTorch's allocator, which reports its own OOM", () => {
  const top2 = (t: string) =>
    explainText(t)
      .causes.slice(0, 2)
      .map((c) => c.id);
  it('INTERNAL_ERROR and BAD_PARAM relayed by PyTorch are not read first as the job memory', () => {
    // (first a version reading, and the memory reading weighs a fifth of what the catalog gives it: below the first)
    for (const status of ['INTERNAL_ERROR', 'BAD_PARAM']) {
      const d = explainText(`RuntimeError: cuDNN error: CUDNN_STATUS_${status}`);
      expect(d.causes[0]?.id, status).not.toBe('gpu_memory_exhausted');
      const memory = d.causes.find((c) => c.id === 'gpu_memory_exhausted')?.score ?? 0;
      expect(memory, status).toBeLessThan(d.causes[0]!.score / 3);
    }
  });
  it("NOT_INITIALIZED (cudnnCreate's own allocation) keeps its memory reading", () => {
    expect(top2('RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED')).toContain('gpu_memory_exhausted');
  });
});
