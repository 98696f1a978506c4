// The environment variables that change how CUDA, cuDNN and the frameworks behave. Only these are kept
// in the snapshot: the rest of the environment may hold secrets and does not change the diagnosis.

export const GPU_ENV_VARS = [
  'CUDA_VISIBLE_DEVICES',
  'CUDA_DEVICE_ORDER',
  'NVIDIA_VISIBLE_DEVICES',
  'NVIDIA_DRIVER_CAPABILITIES',
  'LD_LIBRARY_PATH',
  'LD_PRELOAD',
  'TF_FORCE_GPU_ALLOW_GROWTH',
  'TF_GPU_ALLOCATOR',
  'TF_CPP_MIN_LOG_LEVEL',
  'XLA_PYTHON_CLIENT_PREALLOCATE',
  'XLA_PYTHON_CLIENT_MEM_FRACTION',
  'XLA_CLIENT_MEM_FRACTION',
  'XLA_PYTHON_CLIENT_ALLOCATOR',
  'XLA_FLAGS',
  'JAX_PLATFORMS',
  'PYTORCH_CUDA_ALLOC_CONF',
  'PYTORCH_ALLOC_CONF',
  'PYTORCH_NVML_BASED_CUDA_CHECK',
  'CUDA_LAUNCH_BLOCKING',
  'CUDA_MODULE_LOADING',
  'CUDA_HOME',
  'CUDA_PATH',
  'CUDA_ROOT',
  'CUDNN_PATH',
  'CUDA_CACHE_DISABLE',
  'CUDA_FORCE_PTX_JIT',
  'CUBLAS_WORKSPACE_CONFIG',
  'NCCL_DEBUG',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'VIRTUAL_ENV',
  'PATH',
  'PYTHONPATH',
  'SLURM_JOB_ID',
  'SLURM_STEP_GPUS',
  'SLURM_JOB_GPUS',
  'GPU_DEVICE_ORDINAL',
] as const;

export function probeEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of GPU_ENV_VARS) {
    const v = env[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
