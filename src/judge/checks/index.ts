// Every check, in report order. Adding a check = one file and one line here.
import type { Check } from './check.js';
import { allocatorsCheck } from './env/allocators.js';
import { debugVarsCheck } from './env/debug-vars.js';
import { libraryPathCheck } from './env/library-path.js';
import { visibleDevicesCheck } from './env/visible-devices.js';
import { driverCheck } from './gpu/driver.js';
import { healthCheck } from './gpu/health.js';
import { clocksCheck } from './node/clocks.js';
import { computeModeCheck } from './node/compute-mode.js';
import { deviceNodesCheck } from './node/device-nodes.js';
import { driverLibraryCheck } from './node/driver-library.js';
import { kernelLogCheck } from './node/kernel-log.js';
import { pcieLinkCheck } from './node/pcie-link.js';
import { persistenceCheck } from './node/persistence.js';
import { shmCheck } from './node/shm.js';
import { migCheck } from './node/mig.js';
import { cudaInitCheck } from './node/cuda-init.js';
import { presenceCheck } from './gpu/presence.js';
import { compatLibcudaCheck } from './libraries/compat-libcuda.js';
import { cudnnSmokeCheck } from './libraries/cudnn-smoke.js';
import { cudnnSublibraryCheck } from './libraries/cudnn-sublibrary.js';
import { duplicateVersionsCheck } from './libraries/duplicate-versions.js';
import { ldLibraryPathCheck } from './libraries/ld-library-path.js';
import { loadedCheck } from './libraries/loaded.js';
import { missingCheck } from './libraries/missing.js';
import { unloadableCheck } from './libraries/unloadable.js';
import { headroomCheck } from './memory/headroom.js';
import { holdersCheck } from './memory/holders.js';
import { unattributedCheck } from './memory/unattributed.js';
import { platformCheck } from './system/platform.js';
import { condaPipMixCheck } from './python/conda-pip-mix.js';
import { cpuOnlyBuildCheck } from './python/cpu-only-build.js';
import { deepConvCheck } from './python/deep-conv.js';
import { duplicateDistInfoCheck } from './python/duplicate-dist-info.js';
import { environmentsCheck } from './python/environments.js';
import { importFailedCheck } from './python/import-failed.js';
import { nvidiaWheelConflictCheck } from './python/nvidia-wheel-conflict.js';
import { cudnnCheck } from './versions/cudnn.js';
import { driverCudaCheck } from './versions/driver-cuda.js';
import { gpuArchCheck } from './versions/gpu-arch.js';
import { nvccCheck } from './versions/nvcc.js';
import { pythonVersionCheck } from './versions/python-version.js';

export const ALL_CHECKS: readonly Check[] = [
  presenceCheck,
  driverCheck,
  healthCheck,
  driverLibraryCheck,
  deviceNodesCheck,
  kernelLogCheck,
  computeModeCheck,
  persistenceCheck,
  clocksCheck,
  pcieLinkCheck,
  shmCheck,
  migCheck,
  cudaInitCheck,
  headroomCheck,
  holdersCheck,
  unattributedCheck,
  missingCheck,
  unloadableCheck,
  cudnnSublibraryCheck,
  cudnnSmokeCheck,
  compatLibcudaCheck,
  ldLibraryPathCheck,
  duplicateVersionsCheck,
  loadedCheck,
  visibleDevicesCheck,
  allocatorsCheck,
  libraryPathCheck,
  debugVarsCheck,
  platformCheck,
  environmentsCheck,
  cpuOnlyBuildCheck,
  condaPipMixCheck,
  duplicateDistInfoCheck,
  nvidiaWheelConflictCheck,
  importFailedCheck,
  deepConvCheck,
  driverCudaCheck,
  gpuArchCheck,
  cudnnCheck,
  pythonVersionCheck,
  nvccCheck,
];
