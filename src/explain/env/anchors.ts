// The prefilter words of the environment reader (reader.ts): a line without any of them is not read for facts.
// Each holds one of the prefilter's stems (read/vocabulary.ts). Kept beside the reader so that a new kind of
// environment line (another language's issue template, another tool's output) adds its words here, and its stems
// there, with its patterns. The tests read every corpus report with and without the prefilter and compare.
// Lines that name no GPU, framework, container or key word (a bare "Distributor ID: Ubuntu") are not read.
export const ENV_ANCHORS: readonly string[] = [
  // issue-template keys ("GPU model and memory:", "CUDA/cuDNN version:", "OS Platform and Distribution:")
  'gpu', 'device', 'cuda', 'cudnn', 'nvidia', 'driver', 'nvcc', 'operating sys', 'platform', 'python', 'install', 'tensorflow',
  'torch', 'jax', 'keras', 'os:', 'version',
  // facts anywhere in a line: TensorFlow's device lines, PyTorch's warnings, nvidia-smi, pip/conda lists, paths
  'memory', 'capabilit', 'name:', 'major:', 'docker', 'container', 'kubernetes', 'conda', 'cudatoolkit',
  // notebooks and hosted runtimes, read from traceback frames
  'ipython', 'cell in', 'ipykernel', 'jupyter', '/content/', '/kaggle/',
];
