// The prefilter words of the environment reader (reader.ts): a line without any of them holds no fact the reader
// takes. Kept beside the reader so that a new kind of environment line (another language's issue template,
// another tool's output) adds its words here with its patterns. The tests read every environment line of the
// corpus with and without the prefilter and compare.
export const ENV_ANCHORS: readonly string[] = [
  // issue-template keys ("GPU model and memory:", "CUDA/cuDNN version:", "OS Platform and Distribution:")
  'gpu', 'graphics', 'video', 'device', 'cud', 'nvidia', 'driver', 'nvcc', 'operating', 'platform', 'distro', 'system',
  'python', 'install', 'environment', 'package', 'framework', 'library', 'tensorflow', 'torch', 'jax', 'keras',
  'os:', 'os :', 'os=', 'os =', 'os version', 'tf:', 'tf :', 'tf version', 'tf=', 'tf =',
  'note:', 'note :', 'notes:', 'notes :', 'other:', 'other :', 'comment', 'additional', 'describe', 'what happened',
  // facts anywhere in a line: TensorFlow's device lines, PyTorch's warnings, nvidia-smi, pip/conda lists, paths
  'name:', 'major:', 'memory', 'capabilit', 'found version', 'successfully opened', 'docker', 'container', 'kubernetes',
  'k8s', 'podman', 'singularity', 'apptainer', 'enroot', 'conda', 'packages', '+cu', 'cudatoolkit',
  ':\\users', ':\\programdata', ':\\program files', ':\\anaconda', ':\\python',
  // notebooks and hosted runtimes, read from traceback frames
  'ipython', 'cell in', 'ipykernel', 'jupyter', '/content/', '/kaggle/',
];
