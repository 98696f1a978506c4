// The prefilter words of the environment reader (reader.ts): a line without any of them is not read for facts.
// Each holds one of the prefilter's stems (read/vocabulary.ts). Kept beside the reader so that a new kind of
// environment line (another language's issue template, another tool's output) adds its words here, and its stems
// there, with its patterns. The tests read every corpus report with and without the prefilter and compare.
// Lines that name no GPU, framework, container or key word (a bare "Distributor ID: Ubuntu") are not read.
/** The words Chinese issue templates and posts, and Paddle's banner, start environment lines with. */
export const CHINESE_ENV_ANCHORS: readonly string[] = [
  '显卡',
  '显存',
  '驱动',
  '系统',
  '平台',
  '版本',
  '框架',
  '飞桨',
  '安装',
  '其他',
  '其它',
  '备注',
  '补充',
  '问题描述',
  '环境',
  '配置',
  '容器',
  '图形卡',
  '设备型号',
  'paddle',
  'api version',
];

export const ENV_ANCHORS: readonly string[] = [
  // issue-template keys ("GPU model and memory:", "CUDA/cuDNN version:", "OS Platform and Distribution:")
  'gpu',
  'device',
  'cuda',
  'cudnn',
  'nvidia',
  'driver',
  'nvcc',
  'operating sys',
  'platform',
  'python',
  'install',
  'tensorflow',
  'torch',
  'jax',
  'keras',
  'onnx',
  'os:',
  'version',
  // facts anywhere in a line: TensorFlow's device lines, PyTorch's warnings, nvidia-smi, pip/conda lists, paths
  'memory',
  'capabilit',
  'name:',
  'major:',
  'docker',
  'container',
  'kubernetes',
  'conda',
  'cudatoolkit',
  // Chinese issue templates and posts (zh.ts: 显卡 GPU, 显存 memory, 驱动 driver, 系统 system, 平台 platform,
  // 版本 version, 框架 framework, 飞桨 PaddlePaddle, 安装 install, 其他/其它 other, 备注/补充 notes, 环境 environment,
  // 配置 configuration, 容器 container, 图形卡 graphics card, 设备型号 device model), Paddle's banner and list rows
  ...CHINESE_ENV_ANCHORS,
  // notebooks and hosted runtimes, read from traceback frames
  'ipython',
  'cell in',
  'ipykernel',
  'jupyter',
  '/content/',
  '/kaggle/',
];
