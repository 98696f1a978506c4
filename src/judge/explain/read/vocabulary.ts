// The words the literal prefilter looks for, in two tiers.
// - STEMS: the prefilter proper. One case-insensitive regular expression of these over every byte of the input
//   (anchors.ts): a line holding none of them is only counted, never decoded. Few and distinctive, because the
//   regex tries them at every position: the throughput of `explain` on big logs is decided here.
// - VOCABULARY: the words signatures are keyed on (each holds a stem, so a line with it passes the prefilter).
//   A generated signature is keyed on the longest, least generic of these words found in the text its pattern
//   requires; on a line that passed, only the signatures keyed on the words it holds are tried.
// The tests check that every word holds a stem, that every signature's examples hold its word, and that reading
// with and without the prefilter gives the same diagnosis on every real log the project has.
//
// Words, not phrases: the patterns let any run of whitespace stand for any other, so a word never spans a space.
// At least three characters. Lower case; matching ignores ASCII case.
// The words the literal prefilter looks for, in tiers.
// - STEMS: the prefilter proper, over every byte of the input. One case-insensitive regular expression of these
//   (anchors.ts): a line holding none of them is only counted, never decoded. V8 runs such a regex at a speed
//   set by how often the text holds the first letters of its alternatives, so each stem is the piece of a word
//   that starts with a letter rare in logs (v, x, y, b, k, g, j, f rather than e, t, a, o, s): "vice" for
//   device, "bil" for capability, "xha" for RESOURCE_EXHAUSTED. The throughput of `explain` is decided here.
// - HEAD_STEMS: read in the first MiB of an input only (with STEMS): the words of environment lines, of what
//   users write next to an error, and of framework names. A pasted report is read whole with them; in a
//   multi-gigabyte log the environment is printed at the start and the middle is training progress.
// - VOCABULARY: the words signatures are keyed on (each holds a stem, so a line with it passes). A generated
//   signature is keyed on the longest, least generic of these words found in the text its pattern requires; on a
//   line that passed, only the signatures keyed on the words it holds are tried.
// The tests check that every signature's word holds a STEM (failure messages are found anywhere in a log), that
// every example holds its word, and that reading with and without the prefilter gives the same diagnosis on every
// real log the project has.
//
// Words, not phrases: the patterns let any run of whitespace stand for any other, so a word never spans a space.
// At least three characters. Lower case; matching ignores ASCII case.
import { CHINESE_ENV_ANCHORS } from '../env/anchors.js';
export const STEMS: readonly string[] = [
  // CUDA and its libraries: cuda/cudart/cudaMalloc/cudaError…, cudnn, cuInit, cuBLAS, cuFFT, cuRAND, cuSOLVER,
  // cuSPARSE, CuPy, cuPTI, PTX, NCCL, NVML, NVRM/NVRTC, NVIDIA, nvcc, NVLink, nvJitLink, libnvinfer, DNN
  'uda',
  'udn',
  'uin',
  'ubl',
  'uff',
  'ura',
  'uso',
  'usp',
  'upy',
  'upt',
  'ptx',
  'ccl',
  'vml',
  'vrm',
  'vrt',
  'vid',
  'vcc',
  'vli',
  'vji',
  'vinf',
  'dnn',
  // hardware, driver, memory: gpu, driver, device, kernel, Xid, uncorrectable, capability, memory, alloc,
  // RESOURCE_EXHAUSTED, expandable_segments, garbage_collection, NUMA
  'gpu',
  'driv',
  'vic',
  'kern',
  'xid',
  'unco',
  'bil',
  'memo',
  'lloc',
  'xha',
  'xpa',
  'bag',
  'uma',
  // PyTorch's allocator settings parser: ConfigTokenizer, roundup_power2_divisions
  'keniz',
  'visions',
  // frameworks: JAX, XLA, onnxruntime, PaddlePaddle, Caffe, MXNet, DeepSpeed, vLLM, StreamExecutor
  'jax',
  'xla',
  'xrun',
  'padd',
  'ffe',
  'xne',
  'psp',
  'vll',
  'xec',
  // libraries and crashes: .dll, library, symbol, shared object, "(required by", "load any of {", "system path",
  // segmentation, SIGSEGV, signal 11, signal 7 (SIGBUS), abort, killed, corrupt, free(, stoull, 0xC0000374,
  // Python's Windows loader errors ("[WinError 126]"), CuPy's JitifyException
  'dll',
  'brar',
  'ymb',
  'winerr',
  'jitif',
  'bjec',
  'quired by',
  'y of {',
  'ystem path',
  'gme',
  'gse',
  'gnal 1',
  'gnal 7',
  'bor',
  'kil',
  'upt',
  'free(',
  'ull',
  'xc0',
  // messages whose text holds none of the above: convolution, algorithm, engine/plugin, backend, RmInitAdapter,
  // memcpy, "Could not load dynamic library", NCCL's "remote process", "could not be loaded", "failed with error",
  // Large Model Support, "config for HLO"
  'vol',
  'gor',
  'gin',
  'bac',
  'dap',
  'mcpy',
  'gemm',
  'ynam',
  'mote proc',
  'be loaded',
  'd with err',
  'ge model',
  'g for hlo',
  // CuPy's "unavailable in the current platform", "The requested function is not supported", the container
  // runtime's "runc create failed", TF-TRT, jaxlib's "must be no lower than", "cannot be preloaded"
  'vailable in the',
  'quested func',
  'unc create',
  'f-trt',
  'be no lower',
  'be prel',
];

/** The words read in the first MiB of an input only (see above). */
export const HEAD_STEMS: readonly string[] = [
  'torch',
  'tensorflow',
  'keras',
  'caffe',
  'mxnet',
  'cntk',
  'rapids',
  'cudf',
  'rmm',
  'onnx',
  '.so',
  'assert',
  'hlo',
  'docker',
  'container',
  'kubernetes',
  'conda',
  'python',
  'version',
  'platform',
  'install',
  'os:',
  'operating sys',
  'reboot',
  'suspend',
  'resum',
  'hibernat',
  'shared',
  'another',
  'users',
  'processes',
  'instances',
  'notebook',
  'ld_library',
  'ld_preload',
  'ipython',
  'ipykernel',
  'jupyter',
  'cell in',
  '/content/',
  '/kaggle/',
  'sm_',
  'compute_',
  // TensorFlow 1.x prints a device's properties on lines of their own ('name: GeForce GTX 1080', 'major: 6 minor: 1')
  'name:',
  'major:',
  // Chinese environment lines (env/anchors.ts) and Paddle's banner
  ...CHINESE_ENV_ANCHORS,
];

export const VOCABULARY: readonly string[] = [
  // CUDA and its libraries (cuda, cudnn, cudart, cudaError…, CUDA_ERROR_…, cuDNN, CuDNN)
  'cuda',
  'cudnn',
  'cudnn_status',
  'cuda_error',
  'cudaerror',
  'cudart',
  'cuinit',
  'cudamalloc',
  'cuda_home',
  'cublas',
  'cufft',
  'curand',
  'cusolver',
  'cusparse',
  'cupti',
  'nvrtc',
  'nvjitlink',
  'nvptx',
  'ptx',
  'nccl',
  'nvml',
  'nvrm',
  'nvidia',
  'nvcc',
  'nvlink',
  'nvinfer',
  'gemm',
  'dnn',
  // hardware and driver
  'gpu',
  'driver',
  'device',
  'devices',
  'kernel',
  'xid',
  'uncorrectable',
  'capability',
  'capabilities',
  // frameworks
  'jax',
  'xla',
  'cupy',
  'onnxruntime',
  'paddle',
  'caffe',
  'mxnet',
  'deepspeed',
  'vllm',
  'streamexecutor',
  // memory
  'memory',
  'memory_fraction',
  'alloc',
  'allocator',
  'malloc',
  'resource_exhausted',
  'expandable',
  'garbage_collect',
  'configtokenizer',
  'divisions',
  // libraries and loading
  '.dll',
  'dll',
  'winerror',
  'jitify',
  'library',
  'dynamic',
  'symbol',
  'object',
  // crashes
  'segmentation',
  'sigsegv',
  'signal 11',
  'signal 7',
  'abort',
  'aborted',
  'killed',
  'corrupt',
  'corruption',
  'free(',
  'stoull',
  'numa',
  // words of messages that hold no other (see STEMS)
  'convolution',
  'algorithm',
  'engine',
  'backend',
  'backends',
  'rminitadapter',
  'memcpy',
  'plugin',
];

/**
 * Words that say little on their own ("failed", "version"): a generated signature keys on one of them only when
 * its text holds no other. The prefilter still admits every line with them, but a signature keyed on a rarer
 * word is tried on fewer lines.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'object',
  'library',
  'abort',
  'aborted',
  'device',
  'devices',
  'capability',
  'capabilities',
  'memory',
  'driver',
  'kernel',
  'engine',
  'backend',
  'backends',
  'plugin',
  'algorithm',
]);
