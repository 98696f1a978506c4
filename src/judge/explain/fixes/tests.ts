// How to tell one candidate cause from the others when the input cannot: the cheapest check for each cause, with
// the command that runs it, fitted to the framework. Costs: 1 reads the machine (nothing changes), 2 reruns the
// job with a setting, 3 installs or upgrades something. Kept apart from the fixes (fixes.ts): a test decides,
// a fix acts.
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import type { CauseTest, Framework } from '../types.js';
import { t } from '../../../base/i18n/index.js';
import { family } from './family.js';

export function testFor(id: RootCauseId, fw: Framework | undefined): CauseTest | undefined {
  const fam = family(fw);
  switch (id) {
    case 'memory_held_by_other_process':
      return {
        text: t('test.heldOther'),
        command: 'nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv',
        cost: 1,
      };
    case 'framework_preallocation':
      if (fam === 'jax')
        return { text: t('test.jaxPrealloc'), command: 'XLA_PYTHON_CLIENT_PREALLOCATE=false python …', cost: 2 };
      if (fam === 'tf')
        return { text: t('test.tfGrowth'), command: 'TF_FORCE_GPU_ALLOW_GROWTH=true python …', cost: 2 };
      return { text: t('test.eitherPrealloc'), cost: 2 };
    case 'gpu_memory_exhausted':
      return { text: t('test.halfBatch'), cost: 2 };
    // each framework's own allocator setting (the fix's, fixes.json)
    case 'allocator_fragmentation':
      if (fam === 'torch')
        return {
          text: t('test.expandable'),
          command: 'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python …',
          cost: 2,
        };
      if (fam === 'tf')
        return { text: t('test.fragTf'), command: 'TF_GPU_ALLOCATOR=cuda_malloc_async python …', cost: 2 };
      if (fam === 'jax')
        return { text: t('test.fragJax'), command: 'XLA_PYTHON_CLIENT_ALLOCATOR=platform python …', cost: 2 };
      if (fam === 'cupy') return { text: t('test.fragCupy'), cost: 2 };
      return { text: t('test.fragAny'), cost: 2 };
    case 'cudnn_version_mismatch':
      if (fam === 'torch')
        return {
          text: t('test.cudnnTorch'),
          command: 'python -c "import torch; print(torch.backends.cudnn.version())"',
          cost: 1,
        };
      if (fam === 'tf')
        return {
          text: t('test.cudnnTf'),
          command: 'python -c "import tensorflow as tf; print(tf.sysconfig.get_build_info())"',
          cost: 1,
        };
      return { text: t('test.cudnnAny'), command: 'gpu-env-doctor libs', cost: 1 };
    case 'cuda_toolkit_mismatch':
      if (fam === 'tf')
        return {
          text: t('test.cudaTf'),
          command: 'python -c "import tensorflow as tf; print(tf.sysconfig.get_build_info())"',
          cost: 1,
        };
      if (fam === 'torch')
        return { text: t('test.cudaTorch'), command: 'python -c "import torch; print(torch.version.cuda)"', cost: 1 };
      return { text: t('test.cudaAny'), command: 'gpu-env-doctor libs', cost: 1 };
    case 'driver_too_old':
      return { text: t('test.driverCuda'), command: 'nvidia-smi', cost: 1 };
    case 'library_missing':
      return { text: t('test.loaderFinds'), command: 'gpu-env-doctor libs', cost: 1 };
    case 'library_conflict':
      return { text: t('test.whichCopy'), command: 'gpu-env-doctor libs', cost: 1 };
    case 'gpu_arch_unsupported':
      if (fam === 'torch')
        return {
          text: t('test.archTorch'),
          command: 'python -c "import torch; print(torch.cuda.get_device_capability(), torch.cuda.get_arch_list())"',
          cost: 1,
        };
      return { text: t('test.cc'), command: 'nvidia-smi --query-gpu=name,compute_cap --format=csv', cost: 1 };
    case 'no_device_visible':
      return { text: t('test.listGpus'), command: 'nvidia-smi -L', cost: 1 };
    case 'hardware_or_driver_fault':
      return { text: t('test.xid'), command: 'sudo dmesg | grep -i -E "NVRM|Xid"', cost: 1 };
    case 'framework_bug':
      return { text: t('test.latestPatch'), cost: 3 };
    case 'configuration_invalid':
    case 'other':
      return undefined;
  }
}
