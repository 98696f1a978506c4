// The knowledge tables. They are validated against their schemas (./schemas.ts) by the build
// (scripts/build.mjs refuses to bundle a bad edit) and by the tests, not at every start: loading zod and
// walking 350 kB of tables cost more than the rest of `check`'s start. They are read from their JSON files when
// first asked (the bundle ships them in dist/knowledge/; the build says where, as __KNOWLEDGE_DIR__).
import { readAssetText } from '../ports/assets.js';
import type {
  ComputeCapabilityData,
  CudaDriverData,
  CudnnData,
  GpusData,
  JaxData,
  OnnxruntimeData,
  Paddle1xData,
  PaddleData,
  PytorchData,
  TensorflowData,
  WindowsData,
} from './schemas.js';

/** Where the JSON files are, relative to the module that reads them (the bundle's chunk); unset: next to this file. */
declare const __KNOWLEDGE_DIR__: string | undefined;
const DIR = new URL(typeof __KNOWLEDGE_DIR__ === 'string' ? __KNOWLEDGE_DIR__ : './', import.meta.url);

export interface Knowledge {
  cudaDriver: CudaDriverData;
  computeCapability: ComputeCapabilityData;
  gpus: GpusData;
  cudnn: CudnnData;
  tensorflow: TensorflowData;
  pytorch: PytorchData;
  jax: JaxData;
  paddle: PaddleData;
  paddle1x: Paddle1xData;
  onnxruntime: OnnxruntimeData;
  windows: WindowsData;
}

/** The files, in the order the tests and the build's validation walk them. */
export const KNOWLEDGE_FILES = [
  'cuda-driver.json',
  'compute-capability.json',
  'gpus.json',
  'cudnn.json',
  'tensorflow.json',
  'pytorch.json',
  'jax.json',
  'paddle.json',
  'paddle-1x.json',
  'onnxruntime.json',
  'windows.json',
] as const;
type KnowledgeFile = (typeof KNOWLEDGE_FILES)[number];

const read = (file: KnowledgeFile): unknown => JSON.parse(readAssetText(new URL(file, DIR)));

/** The raw JSON documents, keyed by file name (the tests walk them to check every row's source). */
export function rawKnowledge(): Record<KnowledgeFile, unknown> {
  const out = {} as Record<KnowledgeFile, unknown>;
  for (const f of KNOWLEDGE_FILES) out[f] = read(f);
  return out;
}

let cached: Knowledge | undefined;

export function knowledge(): Knowledge {
  // The casts are checked where they can fail: scripts/validate-data.ts at build time, and the tests.
  cached ??= {
    cudaDriver: read('cuda-driver.json') as CudaDriverData,
    computeCapability: read('compute-capability.json') as ComputeCapabilityData,
    gpus: read('gpus.json') as GpusData,
    cudnn: read('cudnn.json') as CudnnData,
    tensorflow: read('tensorflow.json') as TensorflowData,
    pytorch: read('pytorch.json') as PytorchData,
    jax: read('jax.json') as JaxData,
    paddle: read('paddle.json') as PaddleData,
    paddle1x: read('paddle-1x.json') as Paddle1xData,
    onnxruntime: read('onnxruntime.json') as OnnxruntimeData,
    windows: read('windows.json') as WindowsData,
  };
  return cached;
}
