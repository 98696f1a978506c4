// The knowledge tables. They are validated against their schemas (./schemas.ts) by the build
// (scripts/build.mjs refuses to bundle a bad edit) and by the tests, not at every start: loading zod and
// walking 300 kB of tables cost more than the rest of `check`'s start. esbuild bundles the files as text.
import computeCapabilityText from './compute-capability.json?raw';
import cudaDriverText from './cuda-driver.json?raw';
import cudnnText from './cudnn.json?raw';
import gpusText from './gpus.json?raw';
import jaxText from './jax.json?raw';
import pytorchText from './pytorch.json?raw';
import tensorflowText from './tensorflow.json?raw';
import type { ComputeCapabilityData, CudaDriverData, CudnnData, GpusData, JaxData, PytorchData, TensorflowData } from './schemas.js';

export interface Knowledge {
  cudaDriver: CudaDriverData;
  computeCapability: ComputeCapabilityData;
  gpus: GpusData;
  cudnn: CudnnData;
  tensorflow: TensorflowData;
  pytorch: PytorchData;
  jax: JaxData;
}

// The tables arrive as text and are parsed on first use: `explain` of a log without versions never pays for them.
const TEXTS = {
  'cuda-driver.json': cudaDriverText,
  'compute-capability.json': computeCapabilityText,
  'gpus.json': gpusText,
  'cudnn.json': cudnnText,
  'tensorflow.json': tensorflowText,
  'pytorch.json': pytorchText,
  'jax.json': jaxText,
} as const;

/** The raw JSON documents, keyed by file name (the tests walk them to check every row's source). */
export function rawKnowledge(): Record<keyof typeof TEXTS, unknown> {
  const out = {} as Record<keyof typeof TEXTS, unknown>;
  for (const [k, v] of Object.entries(TEXTS) as [keyof typeof TEXTS, string][]) out[k] = JSON.parse(v);
  return out;
}

let cached: Knowledge | undefined;

export function knowledge(): Knowledge {
  // The casts are checked where they can fail: scripts/validate-data.ts at build time, and the tests.
  cached ??= {
    cudaDriver: JSON.parse(cudaDriverText) as CudaDriverData,
    computeCapability: JSON.parse(computeCapabilityText) as ComputeCapabilityData,
    gpus: JSON.parse(gpusText) as GpusData,
    cudnn: JSON.parse(cudnnText) as CudnnData,
    tensorflow: JSON.parse(tensorflowText) as TensorflowData,
    pytorch: JSON.parse(pytorchText) as PytorchData,
    jax: JSON.parse(jaxText) as JaxData,
  };
  return cached;
}
