// zod schemas of the version knowledge (the JSON files next to this one). Every row carries a `source`:
// the URL or document it was read from. Updating knowledge means editing the JSON, not code.
import { z } from 'zod';

/** "12.4", "9.1.0.70", "580.65.06": versions stay strings, never floats ("12.10" is not 12.1). */
const Ver = z.string().regex(/^\d+(\.\d+)*$/);
const Cc = z.string().regex(/^\d+\.\d+$/);
const Source = z.string().min(8);

const Note = z.object({ text: z.string(), source: Source });

export const CudaDriverData = z.object({
  toolkits: z.array(
    z.object({
      /** major.minor */
      cuda: Ver,
      /** full toolkit version of this release row (GA = .0, Update N = .N) */
      version: Ver,
      release: z.string(),
      /** the driver bundled with / required by this toolkit release (full features, PTX JIT) */
      linux: Ver.nullable(),
      windows: Ver.nullable(),
      confidence: z.string().optional(),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  minorVersionCompat: z.array(z.object({ major: z.number().int(), linux: Ver, windows: Ver, source: Source })),
  minorVersionCompatLimits: z.array(z.object({ id: z.string(), text: z.string(), source: Source })),
  forwardCompat: z.array(
    z.object({ package: z.string(), text: z.string(), gpuClasses: z.array(z.string()), source: Source }),
  ),
});
export type CudaDriverData = z.infer<typeof CudaDriverData>;

export const ComputeCapabilityData = z.object({
  architectures: z.array(
    z.object({
      computeCapability: Cc,
      sm: z.string(),
      architecture: z.string(),
      firstCuda: Ver.nullable(),
      lastCuda: Ver.nullable(),
      confidence: z.string(),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  toolkits: z.array(
    z.object({
      cuda: Ver,
      minComputeCapability: Cc,
      maxComputeCapability: Cc,
      added: z.array(z.string()),
      removed: z.array(z.string()),
      confidence: z.string(),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  rules: z.array(z.object({ id: z.string(), text: z.string(), source: Source })),
});
export type ComputeCapabilityData = z.infer<typeof ComputeCapabilityData>;

export const GpuClass = z.enum(['geforce', 'workstation', 'datacenter', 'jetson']);
export const GpusData = z.object({
  products: z.array(
    z.object({
      /** lower-case whole-word phrases, without vendor words ("rtx 3090", "v100") */
      names: z.array(z.string().regex(/^[a-z0-9 ]+$/)).min(1),
      computeCapability: Cc,
      architecture: z.string(),
      class: GpuClass,
      source: Source,
    }),
  ),
  normalization: Note,
});
export type GpusData = z.infer<typeof GpusData>;

export const CudnnData = z.object({
  releases: z.array(
    z.object({
      from: Ver,
      to: Ver,
      cudaMajors: z.array(z.number().int()),
      cudaSupported: z.array(z.string()),
      minComputeCapability: Cc,
      computeCapabilities: z.array(z.string()),
      confidence: z.string(),
      notes: z.string().optional(),
      driverNote: z.string().optional(),
      source: Source,
    }),
  ),
  rules: z.array(z.object({ id: z.string(), text: z.string(), source: Source })),
  frameworkTolerance: z.array(
    z.object({
      framework: z.enum(['torch', 'tensorflow', 'jax', 'paddle']),
      olderMinor: z.enum(['ok', 'fail']),
      newerMinor: z.enum(['ok', 'fail']),
      otherMajor: z.enum(['ok', 'fail']),
      text: z.string(),
      source: Source,
    }),
  ),
});
export type CudnnData = z.infer<typeof CudnnData>;

export const TensorflowData = z.object({
  builds: z.array(
    z.object({
      version: Ver,
      platform: z.enum(['linux', 'windows']),
      package: z.enum(['tensorflow', 'tensorflow-gpu']),
      gpu: z.boolean(),
      python: z.array(Ver),
      cuda: Ver.nullable(),
      cudnn: Ver.nullable(),
      compiler: z.string(),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  gpuArchitectures: z.array(
    z.object({ from: Ver, to: Ver, sass: z.array(Cc), ptx: z.array(Cc), confidence: z.string(), source: Source }),
  ),
  andCudaExtra: z.array(z.object({ from: Ver, text: z.string(), source: Source })),
  windowsNativeGpu: z.object({ lastVersion: Ver, text: z.string(), source: Source }),
});
export type TensorflowData = z.infer<typeof TensorflowData>;

export const TorchVariant = z.object({
  /** "cu121" */
  name: z.string().regex(/^cu\d{2,3}$/),
  cuda: Ver,
  /** the cuDNN the wheel bundles / pins */
  cudnn: Ver,
  /** compute capabilities with SASS in the wheel (TORCH_CUDA_ARCH_LIST) */
  sass: z.array(Cc),
  /** compute capabilities shipped as PTX too (+PTX) */
  ptx: z.array(Cc),
  archsConfidence: z.string(),
});
export const PytorchData = z.object({
  releases: z.array(
    z.object({
      version: Ver,
      python: z.array(Ver).min(1),
      pythonExperimental: z.array(Ver).optional(),
      variants: z.array(TorchVariant).min(1),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  indexUrl: Note,
  driver: Note,
  cudnnCheck: Note,
});
export type PytorchData = z.infer<typeof PytorchData>;

export const JaxVariant = z.object({
  name: z.enum(['cuda11', 'cuda12', 'cuda13']),
  cudaMajor: z.number().int(),
  minCuda: Ver.nullable(),
  builtWith: Ver.nullable().optional(),
  minCudnn: Ver.nullable(),
  minComputeCapability: Cc.optional(),
  plugin: z.boolean().optional(),
  local: z.boolean().optional(),
  extras: z.array(z.string()).optional(),
  wheels: z.array(z.string()).optional(),
});
export const JaxData = z.object({
  releases: z.array(
    z.object({
      version: Ver,
      variants: z.array(JaxVariant).min(1),
      confidence: z.string(),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  early: z.array(z.object({ jaxlib: z.string(), wheels: z.array(z.string()), text: z.string(), source: Source })),
  newerThanData: Note,
  driver: Note,
  pythonMinimum: z.array(z.object({ from: Ver, python: Ver, confidence: z.string(), source: Source })),
});
export type JaxData = z.infer<typeof JaxData>;

/** "2.6.2", "3.0.0b2": PaddlePaddle's docs name pre-releases, so a PEP 440 pre-release suffix is allowed here. */
const PaddleVer = z.string().regex(/^\d+(\.\d+)*((a|b|rc)\d+)?$/);
export const PaddleVariant = z.object({
  /** "cu112": the CUDA of the build (2.x pip writes it as the .post112 suffix, 3.x as the index folder) */
  name: z.string().regex(/^cu\d{2,3}$/),
  cuda: Ver,
  /** the cuDNN the docs name for this build; null where no source says */
  cudnn: Ver.nullable(),
  /** the version exactly as pip installs it ("2.6.2.post112", "2.6.2", "3.0.0b2") */
  pip: z.string(),
  /** where pip finds it: "-i URL" or "-f URL" */
  index: z.string(),
  /** the plain `paddlepaddle-gpu==X.Y.Z` (no .postNNN) is this build */
  pypiDefault: z.boolean(),
});
export const PaddleData = z.object({
  releases: z.array(
    z.object({
      /** the release the docs list (the last patch of each series) */
      version: PaddleVer,
      platform: z.enum(['linux', 'windows']),
      python: z.array(Ver).min(1),
      /** the docs' "GPU computing power over N" */
      minComputeCapability: Cc,
      variants: z.array(PaddleVariant).min(1),
      /** "read": from the docs at the commit in `source`; "recalled": from memory, not re-read */
      confidence: z.enum(['read', 'recalled']),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
  versionNaming: Note,
  cudnnLoading: z.array(z.object({ platform: z.enum(['linux', 'windows']), text: z.string(), source: Source })),
  cudnnVersionCheck: Note,
});
export type PaddleData = z.infer<typeof PaddleData>;

/** paddlepaddle-gpu 1.x: the .postXY suffix names CUDA X and cuDNN Y; the docs give a cuDNN floor per series */
export const Paddle1xData = z.object({
  $comment: z.string().optional(),
  naming: Note,
  releases: z.array(
    z.object({
      /** "1.8": the docs of a release branch cover its series */
      series: Cc,
      platform: z.enum(['linux', 'windows']),
      builds: z
        .array(
          z.object({
            /** "107": the digits after .post */
            post: z.string().regex(/^\d{2,3}$/),
            cuda: Ver,
            /** the docs' "cuDNN v7.6+" */
            cudnnMin: Ver,
            /** the plain `paddlepaddle-gpu==X.Y.Z` is this build */
            pypiDefault: z.boolean(),
          }),
        )
        .min(1),
      confidence: z.enum(['read', 'recalled']),
      notes: z.string().optional(),
      source: Source,
    }),
  ),
});
export type Paddle1xData = z.infer<typeof Paddle1xData>;

/** onnxruntime-gpu's builds per release: the CUDA and cuDNN each links against (ONNX Runtime's requirements table) */
export const OnnxruntimeData = z.object({
  releases: z.array(
    z.object({
      /** "1.17" for a series, "1.18.1" where a patch changed a build */
      version: Ver,
      builds: z
        .array(
          z.object({
            /** "gpu", "cuda11", "cuda12": how the release's packages name the build */
            variant: z.string().regex(/^(?:gpu|cuda\d+)$/),
            /** "11.8", or a major alone ("12") where the build takes any minor of it */
            cuda: Ver,
            /** the cuDNN major */
            cudnn: Ver,
            /** what `pip install onnxruntime-gpu==X` gives */
            default: z.boolean(),
          }),
        )
        .min(1),
      /** "read": from the docs at the commit in `source`; "recalled": from memory, not re-read */
      confidence: z.enum(['read', 'recalled']),
      source: Source,
    }),
  ),
  majorOnly: Note,
});
export type OnnxruntimeData = z.infer<typeof OnnxruntimeData>;

export const WindowsData = z.object({
  /** DLL names as Windows logs print them, and what provides each */
  dlls: z.array(
    z.object({
      dll: z.string().regex(/^[\w.-]+\.dll$/),
      library: z.string(),
      /** "CUDA 11.x", "cuDNN 8.x": what the name says about the version */
      version: z.string(),
      cudaMajor: z.string().nullable(),
      cudnnMajor: z.string().nullable(),
      /** how to get it: a conda command, an installer folder */
      providers: z.array(z.string()),
      confidence: z.enum(['read', 'recalled']),
      source: Source,
    }),
  ),
  condaLibraryBin: Note,
  dllSearch: Note,
  tensorflowNative: z.object({ text: z.string(), commands: z.array(z.string()), source: Source }),
  jaxNative: Note,
  torchExpandableSegments: Note,
  wsl: z.array(z.object({ id: z.string(), text: z.string(), source: Source })),
  processes: Note,
});
export type WindowsData = z.infer<typeof WindowsData>;

/** Each knowledge file and the schema it is checked against (by the build and the tests; not at run time). */
export const KNOWLEDGE_SCHEMAS = {
  'cuda-driver.json': CudaDriverData,
  'compute-capability.json': ComputeCapabilityData,
  'gpus.json': GpusData,
  'cudnn.json': CudnnData,
  'tensorflow.json': TensorflowData,
  'pytorch.json': PytorchData,
  'jax.json': JaxData,
  'paddle.json': PaddleData,
  'paddle-1x.json': Paddle1xData,
  'onnxruntime.json': OnnxruntimeData,
  'windows.json': WindowsData,
} as const;
