// The knowledge tables, validated once on first use (a few milliseconds) so a bad edit fails loudly
// instead of producing a wrong verdict. The JSON is bundled into dist/cli.js by esbuild.
import computeCapabilityJson from './compute-capability.json' with { type: 'json' };
import cudaDriverJson from './cuda-driver.json' with { type: 'json' };
import cudnnJson from './cudnn.json' with { type: 'json' };
import gpusJson from './gpus.json' with { type: 'json' };
import jaxJson from './jax.json' with { type: 'json' };
import paddleJson from './paddle.json' with { type: 'json' };
import pytorchJson from './pytorch.json' with { type: 'json' };
import tensorflowJson from './tensorflow.json' with { type: 'json' };
import windowsJson from './windows.json' with { type: 'json' };
import {
  ComputeCapabilityData,
  CudaDriverData,
  CudnnData,
  GpusData,
  JaxData,
  PaddleData,
  PytorchData,
  TensorflowData,
  WindowsData,
} from './schemas.js';

export interface Knowledge {
  cudaDriver: CudaDriverData;
  computeCapability: ComputeCapabilityData;
  gpus: GpusData;
  cudnn: CudnnData;
  tensorflow: TensorflowData;
  pytorch: PytorchData;
  jax: JaxData;
  paddle: PaddleData;
  windows: WindowsData;
}

/** The raw JSON documents, keyed by file name (the tests walk them to check every row's source). */
export const RAW_KNOWLEDGE = {
  'cuda-driver.json': cudaDriverJson,
  'compute-capability.json': computeCapabilityJson,
  'gpus.json': gpusJson,
  'cudnn.json': cudnnJson,
  'tensorflow.json': tensorflowJson,
  'pytorch.json': pytorchJson,
  'jax.json': jaxJson,
  'paddle.json': paddleJson,
  'windows.json': windowsJson,
} as const;

let cached: Knowledge | undefined;

export function knowledge(): Knowledge {
  cached ??= {
    cudaDriver: CudaDriverData.parse(cudaDriverJson),
    computeCapability: ComputeCapabilityData.parse(computeCapabilityJson),
    gpus: GpusData.parse(gpusJson),
    cudnn: CudnnData.parse(cudnnJson),
    tensorflow: TensorflowData.parse(tensorflowJson),
    pytorch: PytorchData.parse(pytorchJson),
    jax: JaxData.parse(jaxJson),
    paddle: PaddleData.parse(paddleJson),
    windows: WindowsData.parse(windowsJson),
  };
  return cached;
}
