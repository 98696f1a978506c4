// The public API of version knowledge: pure functions over the data in src/knowledge, for `compat`,
// the version checks, `explain` (reading "GPU: RTX 3090", "TensorFlow 2.4 with cuDNN 7.6" in logs) and fix.
// Signatures here are stable; add new functions rather than changing these.

/**
 * parseSpec('torch==2.1.0+cu121') → { framework: 'torch', version: '2.1.0', variant: 'cu121' }; InputError on bad
 * input.
 */
export { parseSpec, cudaOfTorchVariant, torchVariantOfCuda } from './spec.js';
export type { Spec, Framework } from './spec.js';

/**
 * requirementsFor(spec | 'tensorflow==2.12') → { framework, version, requires: {cuda, cudnn, driverMin, python,
 * computeCapabilities}, builds, sources, notes }.
 */
export { requirementsFor, archList } from './requirements.js';
export type { CompatRequirements, Requires, DriverMin, BuildRequirement } from './requirements.js';

/**
 * minDriverForCuda('12.4', 'linux') → { min: '525.60.13', full: '550.54.14', minorVersionCompat: true, ... }.
 * maxCudaForDriver('535.104.05') → '12.2' (what nvidia-smi calls "CUDA Version").
 * cudaMajorsForDriver(driver) → [11, 12]: majors whose every minor runs through minor-version compatibility.
 * driverRunsCuda(driver, cuda) → boolean | null.
 * cudaSupportsComputeCapability('11.8', '9.0') → true; ('13.0', '7.0') → false; null when unknown.
 * archCoverage(cc, sass, ptx) → how a GPU runs a build: own SASS, same-major SASS, PTX JIT, or none.
 * normalizeComputeCapability('sm_86') → '8.6'.  architectureOf('8.6') → { architecture: 'Ampere', ... }.
 */
export {
  minDriverForCuda,
  maxCudaForDriver,
  cudaMajorsForDriver,
  driverRunsCuda,
  cudaSupportsComputeCapability,
  archCoverage,
  normalizeComputeCapability,
  architectureOf,
} from './cuda.js';
export type { Os, DriverRequirement, ArchCoverage } from './cuda.js';

/**
 * computeCapabilityOfGpu('NVIDIA GeForce RTX 3090') → '8.6'; gpuProduct(name) adds architecture and class; null when
 * unknown.
 */
export { computeCapabilityOfGpu, gpuProduct, normalizeGpuName } from './gpus.js';
export type { GpuProduct } from './gpus.js';

/**
 * tensorflowBuild('2.12', 'linux') → the tested build (CUDA 11.8, cuDNN 8.6, Python 3.8–3.11, archs) or null.
 * torchBuild('2.1.0', 'cu121') → release + variant (CUDA 12.1, cuDNN 8.9.2.26, sm list) or null.
 * jaxRequirements('0.4.30', 'cuda12') → per-plugin minimum CUDA/cuDNN/CC, Python floor, or null.
 */
export {
  tensorflowBuild,
  tensorflowVersions,
  torchBuild,
  torchVersions,
  jaxRequirements,
  jaxVersions,
} from './frameworks.js';
export type { TensorflowBuild, TorchBuild, TorchVariantInfo, JaxRequirements, JaxVariantInfo } from './frameworks.js';

/**
 * cudnnRelease('9.1.0.70') → the release row; compareCudnn(built, loaded) → 'same' | 'newer-minor' | 'older-minor' |
 * 'other-major'; cudnnTolerated(fw, verdict).
 */
export { cudnnRelease, compareCudnn, cudnnTolerated } from './cudnn.js';
export type { CudnnRelease, CudnnVerdict } from './cudnn.js';

/**
 * compareVersions('12.10', '12.9') → 1 (never floats); versionInRange('3.11', '>=3.8,<3.12') → true;
 * majorMinor('12.4.1') → '12.4'.
 */
export {
  compareVersions,
  versionInRange,
  majorMinor,
  majorOf,
  truncateVersion,
  isVersion,
  maxVersion,
  sortVersions,
} from './version.js';

/**
 * The same answers for versions read from log text ("11", "10.1 (nvcc)", "2.4.0-gpu"): never throw, null when
 * unknown. logCudaSupportsComputeCapability('11', '8.6') → true (some 11.x can); logTorchArchs('1.11.0', '10.2') →
 * the wheel's sm list; logMinDriverForCuda('11.6', { exact: true }) → '510.39.01'.
 */
export {
  logCcBelowCudaMinimum,
  logCudaSupportsComputeCapability,
  logJaxCudaBuilds,
  logMinDriverForCuda,
  logTensorflowBuild,
  logTorchArchs,
  smOfCc,
} from './log-text.js';
export type { JaxCudaBuild } from './log-text.js';
