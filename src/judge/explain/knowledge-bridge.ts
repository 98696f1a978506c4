// The version knowledge `explain` needs, under the names its analysers use. Every answer comes from the compat
// API (src/judge/compat/api.ts), in its forms for log text: messy input ("11", "10.1 (nvcc)") never throws.
import { compareVersions, majorMinorOfText } from '../../base/versions.js';

/** Numeric, part by part, never rejecting messy text (the one comparison: base/versions.ts). */
export { compareVersions };

/** "12.4.1" → "12.4", a major alone kept ("11"): log text, never rejected (base/versions.ts). */
export { majorMinorOfText as majorMinor };

export {
  computeCapabilityOfGpu,
  logCcBelowCudaMinimum as ccBelowCudaMinimum,
  logCudaSupportsComputeCapability as cudaSupportsComputeCapability,
  logJaxCudaBuilds as jaxCudaBuilds,
  logMinDriverForCuda as minDriverForCuda,
  logTensorflowBuild as tensorflowBuild,
  logTorchArchs as torchArchs,
  smOfCc,
} from '../compat/api.js';
export type { JaxCudaBuild } from '../compat/api.js';
