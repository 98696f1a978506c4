// The words the literal prefilter may look for (anchors.ts). Every signature, environment reader and framework
// cue names the anchor(s) its lines must contain; the prefilter looks only for the anchors in use, and a line
// without any of them is never read. Generated signatures pick the longest of these words found in the text
// their pattern requires; the tests check that every signature's examples hold its anchor, and that reading
// with and without the prefilter gives the same diagnosis on every real log the project has.
//
// Words, not phrases: the patterns let any run of whitespace stand for any other, so an anchor never spans a
// space. At least three characters (the prefilter's minimum). Lower case; matching ignores ASCII case.
export const VOCABULARY: readonly string[] = [
  // CUDA and its libraries (cuda, cudnn, cudart, cudaError…, CUDA_ERROR_…, cuDNN, CuDNN)
  'cud', 'cuda', 'cudnn', 'cudnn_status', 'cuda_error', 'cudaerror', 'cudart', 'cuinit', 'cudamalloc', 'cublas', 'cufft', 'curand', 'cusolver', 'cusparse', 'cupti', 'nvrtc', 'nvjitlink', 'nvptx', 'ptx',
  'nccl', 'nvml', 'nvrm', 'nvidia', 'nvcc', 'tensorrt', 'nvinfer', 'miopen', 'magma', 'cutlass', 'triton',
  // hardware and driver
  'gpu', 'driver', 'device', 'devices', 'kernel', 'xid', 'ecc', 'sm_', 'compute_', 'capability', 'capabilities', 'pci',
  // frameworks
  'torch', 'tensorflow', 'keras', 'jax', 'xla', 'cupy', 'onnx', 'paddle', 'caffe', 'mxnet', 'cntk', 'darknet', 'dnn',
  'blas', 'rapids', 'cudf', 'deepspeed', 'vllm', 'mmcv', 'detectron',
  // memory
  'memory', 'alloc', 'oom', 'resource_exhausted', 'bytes', 'mib', 'gib',
  // libraries and loading
  '.so', '.dll', 'dll', 'dlopen', 'dlerror', 'symbol', 'ld_library_path', 'ld_preload', 'library', 'libraries', 'lib',
  // crashes
  'segmentation', 'sigsegv', 'sigabrt', 'signal', 'dumped', 'assert', 'assertion', 'abort', 'aborted', 'terminate',
  'malloc', 'free(', 'corrupt', 'corruption', 'killed', 'launch', 'illegal', 'fault',
  // containers and hosts
  'docker', 'container', 'kubernetes', 'singularity', 'apptainer', 'podman', 'enroot', 'wsl', 'colab', 'kaggle',
  // failure words of the frameworks' messages
  'convolution', 'algorithm', 'handle', 'engine', 'initialize', 'initialization', 'backend', 'backends', 'platform',
  'runtime', 'status', 'version', 'toolkit', 'compiled', 'binary', 'installation', 'installed', 'check', 'failed',
  'nvlink', 'compatibility', 'remote', 'blocked', 'memcpy', 'expandable', 'garbage', 'dependencies', 'factory', 'numa',
  'executor', 'dll', 'cache', 'deepspeed', 'cuda_home', 'stoull', 'tokenizer', 'allocator', 'plugin', 'hlo', 'memory_fraction',
];

/**
 * Words that say little on their own ("failed", "version"): a generated signature keys on one of them only when
 * its text holds no other. The prefilter still admits every line with them, but a signature keyed on a rarer
 * word is tried on fewer lines.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'failed', 'check', 'version', 'status', 'runtime', 'installed', 'installation', 'library', 'libraries', 'lib',
  'binary', 'compiled', 'initialize', 'initialization', 'handle', 'engine', 'algorithm', 'backend', 'backends',
  'platform', 'signal', 'bytes', 'toolkit', 'remote', 'blocked', 'factory', 'executor', 'plugin', 'launch', 'illegal',
  'fault', 'check', 'terminate', 'abort', 'aborted', 'device', 'devices', 'capability', 'capabilities', 'memory',
]);
