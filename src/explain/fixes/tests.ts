// How to tell one candidate cause from the others when the input cannot: the cheapest check for each cause, with
// the command that runs it, fitted to the framework. Costs: 1 reads the machine (nothing changes), 2 reruns the
// job with a setting, 3 installs or upgrades something. Kept apart from the fixes (fixes.ts): a test decides,
// a fix acts.
import type { RootCauseId } from '../../core/root-causes.js';
import type { CauseTest, Framework } from '../types.js';

type Family = 'tf' | 'jax' | 'torch' | 'other';
function family(fw: Framework | undefined): Family {
  if (fw === 'tensorflow' || fw === 'keras') return 'tf';
  if (fw === 'jax' || fw === 'xla') return 'jax';
  if (fw === 'pytorch') return 'torch';
  return 'other';
}

export function testFor(id: RootCauseId, fw: Framework | undefined): CauseTest | undefined {
  const fam = family(fw);
  switch (id) {
    case 'memory_held_by_other_process':
      return { text: 'see whether another process holds GPU memory', command: 'nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv', cost: 1 };
    case 'framework_preallocation':
      if (fam === 'jax') return { text: 'rerun with preallocation off', command: 'XLA_PYTHON_CLIENT_PREALLOCATE=false python …', cost: 2 };
      if (fam === 'tf') return { text: 'rerun with memory growth on', command: 'TF_FORCE_GPU_ALLOW_GROWTH=true python …', cost: 2 };
      return { text: 'rerun with memory growth on (TensorFlow) or preallocation off (JAX)', cost: 2 };
    case 'gpu_memory_exhausted':
      return { text: 'rerun with half the batch size: if it passes, the job itself needs more memory than the GPU has', cost: 2 };
    case 'allocator_fragmentation':
      return { text: 'rerun with expandable segments', command: 'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python …', cost: 2 };
    case 'cudnn_version_mismatch':
      if (fam === 'torch') return { text: 'compare the cuDNN PyTorch was built with and the one that loads', command: 'python -c "import torch; print(torch.backends.cudnn.version())"', cost: 1 };
      if (fam === 'tf') return { text: 'compare the cuDNN TensorFlow was built with and the one that loads', command: 'python -c "import tensorflow as tf; print(tf.sysconfig.get_build_info())"', cost: 1 };
      return { text: 'see which cuDNN each framework loads', command: 'gpu-env-doctor libs', cost: 1 };
    case 'cuda_toolkit_mismatch':
      if (fam === 'tf') return { text: 'compare the CUDA TensorFlow was built with and the one installed', command: 'python -c "import tensorflow as tf; print(tf.sysconfig.get_build_info())"', cost: 1 };
      if (fam === 'torch') return { text: 'compare the CUDA PyTorch was built with and the toolkit', command: 'python -c "import torch; print(torch.version.cuda)"', cost: 1 };
      return { text: 'see which CUDA runtime each framework loads', command: 'gpu-env-doctor libs', cost: 1 };
    case 'driver_too_old':
      return { text: 'read the highest CUDA the driver supports ("CUDA Version")', command: 'nvidia-smi', cost: 1 };
    case 'library_missing':
      return { text: 'see which CUDA libraries the loader finds', command: 'gpu-env-doctor libs', cost: 1 };
    case 'library_conflict':
      return { text: 'see which copy of each library loads first', command: 'gpu-env-doctor libs', cost: 1 };
    case 'gpu_arch_unsupported':
      if (fam === 'torch') return { text: "compare the GPU's compute capability with the build's architectures", command: 'python -c "import torch; print(torch.cuda.get_device_capability(), torch.cuda.get_arch_list())"', cost: 1 };
      return { text: "read the GPU's compute capability", command: 'nvidia-smi --query-gpu=name,compute_cap --format=csv', cost: 1 };
    case 'no_device_visible':
      return { text: 'list the GPUs the job can see', command: 'nvidia-smi -L', cost: 1 };
    case 'hardware_or_driver_fault':
      return { text: 'look for Xid or ECC errors in the kernel log', command: 'sudo dmesg | grep -i -E "NVRM|Xid"', cost: 1 };
    case 'framework_bug':
      return { text: 'rerun with the latest patch release of the framework', cost: 3 };
    case 'other':
      return undefined;
  }
}
