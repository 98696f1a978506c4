// A "target": one concrete framework build to judge against a machine. Made either from a spec's
// requirements (`compat SPEC`) or from what is installed (the checks), where the build's own files and the
// import probe override the tables.
import { minDriverForCuda } from './cuda.js';
import type { FrameworkFacts } from './facts.js';
import { jaxRequirements, tensorflowBuild, torchBuild } from './frameworks.js';
import { effectiveMinComputeCapability, paddleBuild } from './paddle.js';
import type { BuildRequirement, CompatRequirements } from './requirements.js';
import type { Framework } from './spec.js';
import type { DriverMin } from './requirements.js';

export interface Target {
  framework: Framework;
  version: string | null;
  /** "cu130", "cuda13", "tensorflow" */
  build: string | null;
  /** the CUDA runtime it brings; null: CPU build */
  cuda: string | null;
  cudnnBuilt: string | null;
  /** JAX: the lowest cuDNN its plugin accepts */
  cudnnMin: string | null;
  /** SASS and PTX targets; null when unknown */
  sass: string[] | null;
  ptx: string[] | null;
  /** JAX: GPUs at or above this compute capability */
  minComputeCapability: string | null;
  archsConfidence: string;
  python: string[] | null;
  pythonExperimental: string[];
  pythonMin: string | null;
  driverMin: DriverMin;
  driverFull: DriverMin;
  gpu: boolean;
  sources: string[];
}

const NO_DRIVER: DriverMin = { linux: null, windows: null };

function drivers(cuda: string | null): { min: DriverMin; full: DriverMin } {
  if (!cuda) return { min: NO_DRIVER, full: NO_DRIVER };
  const l = minDriverForCuda(cuda, 'linux');
  const w = minDriverForCuda(cuda, 'windows');
  return { min: { linux: l.min, windows: w.min }, full: { linux: l.full, windows: w.full } };
}

/** One target per build of a spec's requirements (torch without a variant: one per CUDA variant). */
export function targetsFromRequirements(r: CompatRequirements): Target[] {
  const base = {
    framework: r.framework,
    version: r.version,
    python: r.framework === 'jax' ? null : r.requires.python,
    pythonExperimental: r.pythonExperimental,
    pythonMin: r.framework === 'jax' ? (r.requires.python[0]?.replace(/^>=/, '') ?? null) : null,
    sources: r.sources,
  };
  if (!r.gpu || r.builds.length === 0) {
    return [
      {
        ...base,
        build: r.variant ?? null,
        cuda: null,
        cudnnBuilt: null,
        cudnnMin: null,
        sass: [],
        ptx: [],
        minComputeCapability: null,
        archsConfidence: '',
        driverMin: NO_DRIVER,
        driverFull: NO_DRIVER,
        gpu: false,
      },
    ];
  }
  return r.builds.map((b: BuildRequirement) => ({
    ...base,
    build: b.name,
    cuda: b.cuda ?? (b.cudaRange ? b.cudaRange.replace(/^>=([\d.]+).*$/, '$1') : null),
    cudnnBuilt: b.cudnn,
    cudnnMin: b.cudnnRange ? b.cudnnRange.replace(/^>=([\d.]+).*$/, '$1') : null,
    sass: r.framework === 'jax' ? null : b.sass,
    ptx: r.framework === 'jax' ? null : b.ptx,
    minComputeCapability: b.minComputeCapability,
    archsConfidence: b.archsConfidence,
    driverMin: b.driverMin,
    driverFull: b.driverFull,
    gpu: true,
  }));
}

// The facts of an installed framework are made once per snapshot section (./facts.ts) and never changed: its
// target, looked up in the tables, is made once per facts object (read-only for the callers).
const TARGETS = new WeakMap<FrameworkFacts, Target>();

/** The target of an installed framework: its own files first, the tables for the rest. */
export function targetFromInstalled(f: FrameworkFacts): Target {
  const known = TARGETS.get(f);
  if (known) return known;
  const target = targetOf(f);
  TARGETS.set(f, target);
  return target;
}

function targetOf(f: FrameworkFacts): Target {
  const sources: string[] = [];
  let cudnnBuilt = f.cudnnBuilt?.value ?? null;
  let sass: string[] | null = f.archs?.value.sass ?? null;
  let ptx: string[] | null = f.archs?.value.ptx ?? null;
  let archsConfidence = f.archs ? `reported by the build (${f.archs.source})` : '';
  let python: string[] | null = null;
  let pythonExperimental: string[] = [];
  let pythonMin: string | null = null;
  let cudnnMin: string | null = null;
  let minComputeCapability: string | null = null;
  const cuda = f.cuda?.value ?? null;
  if (f.version) {
    if (f.framework === 'torch') {
      const b =
        torchBuild(f.version, f.variant && f.variant !== 'cpu' ? f.variant : undefined) ?? torchBuild(f.version);
      if (b) {
        sources.push(...b.sources);
        python = b.python;
        pythonExperimental = b.pythonExperimental;
        const v = b.variant;
        if (v) {
          // the wheel's own cuDNN pin is what it was built with (torch's files do not say)
          cudnnBuilt ??= v.cudnn;
          if (!sass) {
            sass = v.sass;
            ptx = v.ptx;
            archsConfidence = v.archsConfidence;
          }
        }
      }
    } else if (f.framework === 'tensorflow') {
      const b = tensorflowBuild(f.version, 'linux');
      if (b) {
        sources.push(...b.sources);
        python = b.python;
        // build_info often says only "9"; the tested configuration has the minor
        if (b.cudnn && !cudnnBuilt?.includes('.')) cudnnBuilt = b.cudnn;
        if (!sass) {
          sass = b.sass;
          ptx = b.ptx;
          archsConfidence = b.archsConfidence;
        }
      }
    } else if (f.framework === 'paddle') {
      const b = paddleBuild(f.version, f.variant && f.variant !== 'cpu' ? f.variant : undefined);
      if (b) {
        sources.push(...b.sources);
        python = b.python;
        if (cuda) minComputeCapability = effectiveMinComputeCapability(b.minComputeCapability, cuda);
        archsConfidence = `PaddlePaddle's install docs: GPU compute capability ${b.minComputeCapability} and higher`;
        if (b.variant?.cudnn) cudnnBuilt ??= b.variant.cudnn;
      }
      sass = null;
      ptx = null;
    } else {
      const j = jaxRequirements(f.version, f.variant ?? undefined);
      const v = j?.variants[0];
      if (j && v) {
        sources.push(...j.sources);
        pythonMin = j.pythonMin;
        cudnnMin = v.minCudnn;
        minComputeCapability = v.minComputeCapability;
        archsConfidence = 'XLA compiles kernels for the GPU at run time';
      }
      sass = null;
      ptx = null;
    }
  }
  const d = drivers(cuda);
  return {
    framework: f.framework,
    version: f.version,
    build: f.variant,
    cuda,
    cudnnBuilt,
    cudnnMin,
    sass,
    ptx,
    minComputeCapability,
    archsConfidence,
    python,
    pythonExperimental,
    pythonMin,
    driverMin: d.min,
    driverFull: d.full,
    gpu: f.gpuBuild !== false && cuda !== null,
    sources,
  };
}
