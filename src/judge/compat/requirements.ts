// requirementsFor(spec): what a framework version needs, in the `requires` shape of `compat --json`.
import { InputError } from '../../base/errors.js';
import { minDriverForCuda, type Os } from './cuda.js';
import {
  jaxRequirements,
  jaxVersions,
  tensorflowBuild,
  tensorflowVersions,
  torchBuild,
  torchVersions,
} from './frameworks.js';
import { effectiveMinComputeCapability, paddleBuild, paddleInstallCommand, paddleVersions } from './paddle.js';
import { parseSpec, type Framework, type Spec } from './spec.js';
import { compareVersions, maxVersion } from './version.js';

export interface DriverMin {
  linux: string | null;
  windows: string | null;
}

export interface Requires {
  /** CUDA versions the build uses ("12.1"), or PEP 440 ranges for JAX (">=12.1,<13") */
  cuda: string[];
  /** cuDNN the build bundles/was built with ("8.9.2.26"), or ranges for JAX (">=9.8,<10") */
  cudnn: string[];
  /** the lowest driver that runs it (minor-version compatibility included) */
  driverMin: DriverMin;
  /** Python minors supported ("3.10"); JAX: [">=3.11"] */
  python: string[];
  /** SASS targets ("8.6"), "9.0+PTX" when PTX is shipped too; JAX: [">=5.2"] (XLA compiles for the GPU) */
  computeCapabilities: string[];
}

/** One installable build behind a spec: a torch variant, the TF wheel, a JAX plugin. */
export interface BuildRequirement {
  /** "cu121", "cuda12", "tensorflow" */
  name: string;
  cuda: string | null;
  cudaRange: string | null;
  cudnn: string | null;
  cudnnRange: string | null;
  driverMin: DriverMin;
  /** driver with which PTX JIT and every API of the build's CUDA work (the toolkit's own driver) */
  driverFull: DriverMin;
  sass: string[];
  ptx: string[];
  /** JAX: any GPU at or above this capability */
  minComputeCapability: string | null;
  archsConfidence: string;
}

export interface CompatRequirements {
  framework: Framework;
  version: string;
  variant?: string;
  requires: Requires;
  builds: BuildRequirement[];
  /** python versions marked experimental (torch) */
  pythonExperimental: string[];
  /** false when the build has no GPU support at all (torch +cpu, TF on native Windows after 2.10) */
  gpu: boolean;
  notes: string[];
  sources: string[];
}

const lowest = (vs: (string | null)[]): string | null => {
  const xs = vs.filter((v): v is string => v !== null);
  if (xs.length === 0) return null;
  return xs.reduce((a, b) => (compareVersions(a, b) <= 0 ? a : b));
};

function driverFor(cuda: string | null): { min: DriverMin; full: DriverMin; sources: string[]; notes: string[] } {
  if (cuda === null)
    return { min: { linux: null, windows: null }, full: { linux: null, windows: null }, sources: [], notes: [] };
  const l = minDriverForCuda(cuda, 'linux');
  const w = minDriverForCuda(cuda, 'windows');
  const notes = l.minorVersionCompat
    ? [
        `CUDA ${cuda} runs on driver ${l.min} (Linux) through minor-version compatibility; PTX JIT and the newest ` +
          `APIs need ${l.full ?? 'the toolkit driver'}.`,
      ]
    : [];
  return {
    min: { linux: l.min, windows: w.min },
    full: { linux: l.full, windows: w.full },
    sources: [...l.sources, ...w.sources],
    notes,
  };
}

function unknownVersion(framework: Framework, version: string, known: string[]): never {
  const newest = maxVersion(known);
  throw new InputError('usage.spec.unknownVersion', { framework, version, oldest: known[0]!, newest });
}

/**
 * What a framework version needs: CUDA, cuDNN, minimum driver (Linux/Windows), Python and GPU
 * architectures, with the sources of every fact. Accepts a Spec or its text. Throws InputError on a
 * malformed spec or a version/variant the data does not know.
 */
export function requirementsFor(specOrText: Spec | string, platform: Os = 'linux'): CompatRequirements {
  const spec = typeof specOrText === 'string' ? parseSpec(specOrText) : specOrText;
  switch (spec.framework) {
    case 'tensorflow':
      return tensorflowRequirements(spec, platform);
    case 'torch':
      return torchRequirements(spec);
    case 'jax':
      return jaxReq(spec);
    case 'paddle':
      return paddleReq(spec, platform);
  }
}

function tensorflowRequirements(spec: Spec, platform: Os): CompatRequirements {
  const b = tensorflowBuild(spec.version, platform);
  if (!b) unknownVersion('tensorflow', spec.version, tensorflowVersions(platform));
  const d = driverFor(b.cuda);
  const build: BuildRequirement = {
    name: b.package,
    cuda: b.cuda,
    cudaRange: null,
    cudnn: b.cudnn,
    cudnnRange: null,
    driverMin: d.min,
    driverFull: d.full,
    sass: b.sass,
    ptx: b.ptx,
    minComputeCapability: null,
    archsConfidence: b.archsConfidence,
  };
  const notes = [...b.notes, ...d.notes];
  if (b.assumedFrom)
    notes.push(
      `TensorFlow ${spec.version} takes the tested configuration of ${b.assumedFrom} (the docs list one row per ` +
        `minor).`,
    );
  return {
    framework: 'tensorflow',
    version: spec.version.split('.').length < 3 ? b.version : spec.version,
    ...(spec.variant ? { variant: spec.variant } : {}),
    requires: {
      cuda: b.cuda ? [b.cuda] : [],
      cudnn: b.cudnn ? [b.cudnn] : [],
      driverMin: d.min,
      python: b.python,
      computeCapabilities: archList(b.sass, b.ptx),
    },
    builds: b.gpu ? [build] : [],
    pythonExperimental: [],
    gpu: b.gpu,
    notes,
    sources: dedupe([...b.sources, ...d.sources]),
  };
}

function torchRequirements(spec: Spec): CompatRequirements {
  const b = torchBuild(spec.version, spec.variant);
  if (!b) {
    const any = torchBuild(spec.version);
    if (!any) unknownVersion('torch', spec.version, torchVersions());
    throw new InputError('usage.spec.torchNoBuild', {
      version: spec.version,
      variant: String(spec.variant),
      builds: [...any.variants.map((v) => v.name), 'cpu'].join(', '),
    });
  }
  const chosen = b.cpuOnly ? [] : b.variant ? [b.variant] : b.variants;
  const sources = [...b.sources];
  const notes = [...b.notes];
  if (b.assumedFrom)
    notes.push(`torch ${spec.version} is not in the data; using ${b.assumedFrom}, the newest row of its series.`);
  const builds: BuildRequirement[] = chosen.map((v) => {
    const d = driverFor(v.cuda);
    sources.push(...d.sources);
    if (chosen.length === 1) notes.push(...d.notes);
    return {
      name: v.name,
      cuda: v.cuda,
      cudaRange: null,
      cudnn: v.cudnn,
      cudnnRange: null,
      driverMin: d.min,
      driverFull: d.full,
      sass: v.sass,
      ptx: v.ptx,
      minComputeCapability: null,
      archsConfidence: v.archsConfidence,
    };
  });
  if (b.cpuOnly) notes.push('The +cpu wheel has no CUDA support: it never uses the GPU.');
  return {
    framework: 'torch',
    version: spec.version,
    ...(spec.variant ? { variant: spec.variant } : {}),
    requires: {
      cuda: dedupe(builds.map((x) => x.cuda).filter((x): x is string => x !== null)),
      cudnn: dedupe(builds.map((x) => x.cudnn).filter((x): x is string => x !== null)),
      driverMin: {
        linux: lowest(builds.map((x) => x.driverMin.linux)),
        windows: lowest(builds.map((x) => x.driverMin.windows)),
      },
      python: b.python,
      computeCapabilities: dedupe(builds.flatMap((x) => archList(x.sass, x.ptx))).sort(compareCc),
    },
    builds,
    pythonExperimental: b.pythonExperimental,
    gpu: !b.cpuOnly,
    notes,
    sources: dedupe(sources),
  };
}

function jaxReq(spec: Spec): CompatRequirements {
  const r = jaxRequirements(spec.version, spec.variant);
  if (!r) {
    const any = jaxRequirements(spec.version);
    if (!any) unknownVersion('jax', spec.version, jaxVersions());
    throw new InputError('usage.spec.jaxNoBuild', {
      version: spec.version,
      variant: String(spec.variant),
      builds: any.variants.map((v) => v.name).join(', '),
    });
  }
  const sources = [...r.sources];
  const notes = [...r.notes];
  const builds: BuildRequirement[] = r.variants.map((v) => {
    // the driver floor of a JAX plugin is its CUDA major's minimum (the plugin accepts any minor ≥ minCuda)
    const d = driverFor(v.minCuda ?? `${v.cudaMajor}.0`);
    sources.push(...d.sources);
    return {
      name: v.name,
      cuda: v.builtWith,
      cudaRange: v.minCuda ? `>=${v.minCuda},<${v.cudaMajor + 1}` : null,
      cudnn: null,
      cudnnRange: v.minCudnn ? `>=${v.minCudnn},<${Number(v.minCudnn.split('.')[0]) + 1}` : null,
      driverMin: d.min,
      driverFull: d.full,
      sass: [],
      ptx: [],
      minComputeCapability: v.minComputeCapability,
      archsConfidence: 'XLA compiles kernels for the GPU at run time (ptxas from nvidia-cuda-nvcc)',
    };
  });
  return {
    framework: 'jax',
    version: r.version,
    ...(spec.variant ? { variant: spec.variant } : {}),
    requires: {
      cuda: builds.map((b) => b.cudaRange).filter((x): x is string => x !== null),
      cudnn: builds.map((b) => b.cudnnRange).filter((x): x is string => x !== null),
      driverMin: {
        linux: lowest(builds.map((x) => x.driverMin.linux)),
        windows: lowest(builds.map((x) => x.driverMin.windows)),
      },
      python: r.pythonMin ? [`>=${r.pythonMin}`] : [],
      computeCapabilities: dedupe(
        builds
          .map((b) => (b.minComputeCapability ? `>=${b.minComputeCapability}` : null))
          .filter((x): x is string => x !== null),
      ),
    },
    builds,
    pythonExperimental: [],
    gpu: true,
    notes,
    sources: dedupe(sources),
  };
}

function paddleReq(spec: Spec, platform: Os): CompatRequirements {
  const cpu = spec.variant === 'cpu';
  const b = paddleBuild(spec.version, cpu ? undefined : spec.variant, platform);
  if (!b) {
    const any = paddleBuild(spec.version, undefined, platform);
    if (!any) unknownVersion('paddle', spec.version, paddleVersions(platform));
    throw new InputError('usage.spec.paddleNoBuild', {
      version: spec.version,
      variant: String(spec.variant),
      platform,
      builds: any.variants.map((v) => v.name).join(', '),
    });
  }
  const notes = [...b.notes];
  const sources = [...b.sources];
  if (b.assumedFrom)
    notes.push(
      `PaddlePaddle ${spec.version} takes the row of ${b.assumedFrom} (the install docs list the last patch of each ` +
        `series).`,
    );
  // the plain version is one build up to 2.6; from 3.0 every CUDA build has that version, so all of them are meant
  const chosen = cpu ? [] : b.variant ? [b.variant] : b.variants;
  if (spec.variant === 'pypi' && b.variant) {
    const others =
      b.variants
        .filter((v) => v !== b.variant)
        .map((v) => v.pip)
        .join(', ') || 'none';
    notes.push(
      `paddlepaddle-gpu==${spec.version} (no .postNNN) is the ${b.variant.name} build (CUDA ${b.variant.cuda}); ` +
        `the other CUDA builds are ${others}.`,
    );
  }
  if (cpu)
    notes.push(
      'The paddlepaddle package (without -gpu) is the CPU build: it never uses the GPU. The CUDA builds are ' +
        'paddlepaddle-gpu.',
    );
  const builds: BuildRequirement[] = chosen.map((v) => {
    const d = driverFor(v.cuda);
    sources.push(...d.sources);
    if (chosen.length === 1) notes.push(...d.notes);
    notes.push(`${v.name}: ${paddleInstallCommand(v)}`);
    return {
      name: v.name,
      cuda: v.cuda,
      cudaRange: null,
      cudnn: v.cudnn,
      cudnnRange: null,
      driverMin: d.min,
      driverFull: d.full,
      sass: [],
      ptx: [],
      minComputeCapability: effectiveMinComputeCapability(b.minComputeCapability, v.cuda),
      archsConfidence:
        `PaddlePaddle's install docs: GPU compute capability ${b.minComputeCapability} and ` +
        `higher${b.confidence === 'recalled' ? ' (recalled)' : ''}, within what CUDA ${v.cuda} can target`,
    };
  });
  const resolved = b.variant?.name ?? (spec.variant === 'cpu' ? 'cpu' : undefined);
  return {
    framework: 'paddle',
    version: spec.version,
    ...(resolved ? { variant: resolved } : {}),
    requires: {
      cuda: dedupe(builds.map((x) => x.cuda).filter((x): x is string => x !== null)),
      cudnn: dedupe(builds.map((x) => x.cudnn).filter((x): x is string => x !== null)),
      driverMin: {
        linux: lowest(builds.map((x) => x.driverMin.linux)),
        windows: lowest(builds.map((x) => x.driverMin.windows)),
      },
      python: b.python,
      computeCapabilities: dedupe(builds.map((x) => `>=${x.minComputeCapability}`)),
    },
    builds,
    pythonExperimental: [],
    gpu: !cpu,
    notes,
    sources: dedupe(sources),
  };
}

/** ["8.0", "8.6", "9.0+PTX"]: SASS targets, "+PTX" where PTX ships too; PTX-only targets get "+PTX" as well. */
export function archList(sass: readonly string[], ptx: readonly string[]): string[] {
  const all = dedupe([...sass, ...ptx]).sort(compareCc);
  return all.map((c) => (ptx.includes(c) ? `${c}+PTX` : c));
}

function compareCc(a: string, b: string): number {
  return compareVersions(a.replace(/\+PTX$/, ''), b.replace(/\+PTX$/, ''));
}

function dedupe<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
