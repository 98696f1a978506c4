// The facts the version checks and `compat` judge, read from a Snapshot: the driver, the GPUs and their
// compute capability, nvcc, and per Python environment the frameworks with the CUDA runtime they bring,
// the cuDNN they were built with and the one they load. Pure: no probing here.
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { Os } from './cuda.js';
import { normalizeComputeCapability } from './cuda.js';
import { computeCapabilityOfGpu } from './gpus.js';
import { cudaOfPaddleVariant, paddleBuild, splitPaddleVersion } from './paddle.js';
import type { Framework } from './spec.js';
import { compareVersions, isVersion, majorMinor, truncateVersion } from './version.js';

export interface Fact<T> {
  value: T;
  /** where it came from: a file, a command, a package */
  source: string;
}

export interface GpuFacts {
  index: number;
  name: string;
  /** "9.0"; from nvidia-smi, else from the product name */
  cc: string | null;
}

export interface FrameworkFacts {
  framework: Framework;
  version: string | null;
  /** torch: "cu130" / "cpu"; jax: "cuda13"; tf: null */
  variant: string | null;
  /** the CUDA runtime the framework brings ("13.0"), null for CPU builds */
  cuda: Fact<string> | null;
  /** false: a CPU (or ROCm) build */
  gpuBuild: boolean | null;
  /** cuDNN the framework was built against, when its files or the probe say */
  cudnnBuilt: Fact<string> | null;
  /** the cuDNN it loads (or would load): probe, loaded libraries, library resolution, or its pip package */
  cudnnLoaded: Fact<string> | null;
  /** the pip cuDNN package next to it ("nvidia-cudnn-cu12") */
  cudnnPackage: { name: string; version: string; cudaMajor: number | null } | null;
  /** GPU targets reported by the build itself (torch.cuda.get_arch_list(), TF build_info) */
  archs: Fact<{ sass: string[]; ptx: string[] }> | null;
}

export interface EnvFacts {
  prefix: string;
  active: boolean;
  python: string | null;
  frameworks: FrameworkFacts[];
}

export interface MachineFacts {
  os: Os;
  /** null: no NVIDIA driver answered */
  driver: string | null;
  /** nvidia-smi's "CUDA Version": the highest CUDA the driver supports */
  driverCuda: string | null;
  gpus: GpuFacts[];
  /** the CUDA toolkit compiler on this machine */
  nvcc: Fact<string> | null;
  envs: EnvFacts[];
}

// The contract's `libs --json` shape, read leniently from a `libraries` snapshot section when present. Plain
// guards rather than a schema library: this runs in every `check`, and loading zod there costs more than it checks.
interface LibsResolved {
  name: string;
  path?: string | null;
  version?: string | null;
}
interface LibsSection {
  consumers?: { path: string; framework?: string | null; environment?: string | null; resolved?: LibsResolved[] }[];
  copies?: { name: string; path: string; version?: string | null; origin?: string }[];
  toolkit?: { nvcc?: { version?: string | null } | null } | null;
}

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optNullStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const optArrayOf = (v: unknown, ok: (x: unknown) => boolean): boolean =>
  v === undefined || (Array.isArray(v) && v.every(ok));
const nvccShape = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (isObj(v) && (v.nvcc === undefined || v.nvcc === null || (isObj(v.nvcc) && optNullStr(v.nvcc.version))));

/** The section when it has the expected shape (extra fields allowed), else null: a wrong shape is ignored whole. */
function readLibsSection(v: unknown): LibsSection | null {
  if (!isObj(v)) return null;
  const resolvedOk = (r: unknown) =>
    isObj(r) && typeof r.name === 'string' && optNullStr(r.path) && optNullStr(r.version);
  const consumerOk = (c: unknown) =>
    isObj(c) &&
    typeof c.path === 'string' &&
    optNullStr(c.framework) &&
    optNullStr(c.environment) &&
    optArrayOf(c.resolved, resolvedOk);
  const copyOk = (c: unknown) =>
    isObj(c) && typeof c.name === 'string' && typeof c.path === 'string' && optNullStr(c.version) && optStr(c.origin);
  if (!optArrayOf(v.consumers, consumerOk) || !optArrayOf(v.copies, copyOk) || !nvccShape(v.toolkit)) return null;
  return v as LibsSection;
}

/** nvcc's version from a `toolkit` (or older `cuda`) section of the expected shape. */
function nvccVersionOf(v: unknown): string | undefined {
  if (!isObj(v) || !isObj(v.nvcc) || !optStr(v.nvcc.path) || !optNullStr(v.nvcc.version)) return undefined;
  return typeof v.nvcc.version === 'string' ? v.nvcc.version : undefined;
}

/** Read the machine facts from a snapshot. */
export function machineFacts(s: Snapshot): MachineFacts {
  const loose = s as Record<string, unknown>;
  const libs = readLibsSection(loose.libraries);
  const gpus: GpuFacts[] = s.nvidia.ok
    ? s.nvidia.gpus.map((g) => ({
        index: g.index,
        name: g.name,
        cc: (g.computeCapability && normalizeComputeCapability(g.computeCapability)) || computeCapabilityOfGpu(g.name),
      }))
    : [];
  return {
    os: /windows/i.test(s.system.os ?? '') ? 'windows' : 'linux',
    driver: s.nvidia.ok ? s.nvidia.driverVersion : null,
    driverCuda: s.nvidia.ok ? s.nvidia.cudaVersion : null,
    gpus,
    nvcc: nvccFact(loose, libs),
    envs: (s.python?.environments ?? []).filter((e) => e.scanned).map((e) => envFacts(e, libs)),
  };
}

function nvccFact(loose: Record<string, unknown>, libs: LibsSection | null): Fact<string> | null {
  for (const key of ['toolkit', 'cuda']) {
    const v = nvccVersionOf(loose[key]);
    if (v && isVersion(v)) return { value: v, source: 'nvcc --version' };
  }
  const v = libs?.toolkit?.nvcc?.version;
  if (v && isVersion(v)) return { value: v, source: 'nvcc --version' };
  // the toolkit's own libcudart (origin "toolkit") is the same release as its nvcc
  const cudart = libs?.copies?.find(
    (c) => c.origin === 'toolkit' && /^libcudart/.test(c.name) && c.version && isVersion(c.version),
  );
  if (cudart?.version) return { value: majorMinor(cudart.version), source: cudart.path };
  return null;
}

type PyEnv = NonNullable<Snapshot['python']>['environments'][number];
type PyFramework = PyEnv['frameworks'][number];

// An environment's facts depend on it and on the libraries' consumers only, and every check that judges versions
// asks for them (each through its own view of one snapshot): made once per pair of objects (read-only after).
const ENV_FACTS = new WeakMap<PyEnv, { consumers: LibsSection['consumers'] | null; facts: EnvFacts }>();

function envFacts(e: PyEnv, libs: LibsSection | null): EnvFacts {
  const consumers = libs === null ? null : libs.consumers;
  const known = ENV_FACTS.get(e);
  if (known && known.consumers === consumers) return known.facts;
  const facts = envFactsOf(e, libs);
  ENV_FACTS.set(e, { consumers, facts });
  return facts;
}

function envFactsOf(e: PyEnv, libs: LibsSection | null): EnvFacts {
  return {
    prefix: e.prefix,
    active: e.active,
    python: e.pythonVersion && isVersion(e.pythonVersion) ? majorMinor(e.pythonVersion) : null,
    frameworks: [
      ...e.frameworks.filter((f) => f.version !== null || f.gpuBuild !== null).map((f) => frameworkFacts(f, e, libs)),
      ...paddleFacts(e),
    ],
  };
}

/**
 * PaddlePaddle from its package record (the build is in the version: "2.6.1.post120" is the CUDA 12.0 build,
 * the plain 2.5/2.6 version the CUDA 11.8 one); 3.x has one version for every build, so the CUDA comes from
 * the nvidia-cuda-runtime wheel it depends on. cuDNN: 3.x loads the nvidia-cudnn wheel, 2.x the machine's
 * libcudnn (not read here).
 */
function paddleFacts(e: PyEnv): FrameworkFacts[] {
  const gpu = e.packages.find((p) => p.name === 'paddlepaddle-gpu');
  const cpu = e.packages.find((p) => p.name === 'paddlepaddle');
  const p = gpu ?? cpu;
  if (!p) return [];
  const { version: raw, variant: named } = splitPaddleVersion(p.version);
  const version = isVersion(raw) ? raw : null;
  const base = { framework: 'paddle' as const, version, cudnnLoaded: null, cudnnPackage: null, archs: null };
  if (!gpu) return [{ ...base, variant: 'cpu', cuda: null, gpuBuild: false, cudnnBuilt: null }];
  const bundles = version !== null && compareVersions(version, '3.0.0a0') >= 0;
  let variant = named;
  let source =
    `pip package ${p.name} ` +
    `${p.version}${named ? ` (.post${named.slice(2)}: the CUDA ${cudaOfPaddleVariant(named)} build)` : ''}`;
  if (!variant && bundles) {
    const rt = e.packages.find((x) => /^nvidia-cuda-runtime-cu\d+$/.test(x.name) && isVersion(x.version));
    if (rt) {
      variant = `cu${majorMinor(rt.version).replace('.', '')}`;
      source = `pip package ${rt.name} ${rt.version} (the CUDA runtime ${p.name} ${p.version} depends on)`;
    }
  }
  const build = version ? paddleBuild(version, variant ?? (bundles ? undefined : 'pypi')) : null;
  const v = build?.variant ?? null;
  if (!variant && v) {
    variant = v.name;
    source =
      `pip package ${p.name} ${p.version} (the plain ${build!.version.split('.').slice(0, 2).join('.')} ` +
      `version is the ${v.name} build)`;
  }
  const cuda = variant ? cudaOfPaddleVariant(variant) : null;
  const cudnnPkg = bundles
    ? e.packages.find((x) => /^nvidia-cudnn-cu\d+$/.test(x.name) && isVersion(x.version))
    : undefined;
  return [
    {
      ...base,
      variant,
      cuda: cuda ? { value: cuda, source } : null,
      gpuBuild: true,
      cudnnBuilt: v?.cudnn ? { value: v.cudnn, source: build!.sources[0]! } : null,
      cudnnPackage: cudnnPkg
        ? {
            name: cudnnPkg.name,
            version: cudnnPkg.version,
            cudaMajor: Number(/cu(\d+)$/.exec(cudnnPkg.name)?.[1] ?? NaN) || null,
          }
        : null,
      cudnnLoaded: cudnnPkg
        ? {
            value: truncateVersion(cudnnPkg.version, 3),
            source: `pip package ${cudnnPkg.name} ${cudnnPkg.version} (what ${p.name} 3.x loads)`,
          }
        : null,
    },
  ];
}

const cudnnFromInt = (n: number): string => {
  // cuDNN ≥ 9: MAJOR*10000+MINOR*100+PATCH; cuDNN ≤ 8: MAJOR*1000+MINOR*100+PATCH
  if (n >= 90000) return `${Math.floor(n / 10000)}.${Math.floor((n % 10000) / 100)}.${n % 100}`;
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 100)}.${n % 100}`;
};

function frameworkFacts(f: PyFramework, e: PyEnv, libs: LibsSection | null): FrameworkFacts {
  const pkg = (re: RegExp) => e.packages.find((p) => re.test(p.name) && isVersion(p.version.replace(/\+.*$/, '')));
  const probe = e.probes.find((p) => p.framework === f.framework && p.info);
  const info = probe?.info ?? {};
  const version = f.version ? f.version.replace(/\+.*$/, '') : null;
  let variant: string | null = null;
  if (f.framework === 'torch') {
    const local =
      typeof f.details.localVersion === 'string'
        ? f.details.localVersion
        : f.version?.includes('+')
          ? f.version.split('+')[1]!
          : null;
    variant = local ?? (f.cuda ? `cu${f.cuda.replace('.', '')}` : f.gpuBuild === false ? 'cpu' : null);
  }
  // torch wheels bundled cuDNN inside until 1.13 (then they depend on nvidia-cudnn-cuXX): an older torch
  // does not use a pip cuDNN that happens to be installed next to it
  const usesPipCudnn = f.framework !== 'torch' || (version !== null && compareVersions(version, '1.13.0') >= 0);
  const cudnnPkgRow = usesPipCudnn
    ? (pkg(/^nvidia-cudnn-cu\d+$/) ?? pkg(/^nvidia-cudnn$/) ?? pkg(/^cudnn$/))
    : undefined;
  const cudnnPackage = cudnnPkgRow
    ? {
        name: cudnnPkgRow.name,
        version: cudnnPkgRow.version,
        cudaMajor: Number(/cu(\d+)$/.exec(cudnnPkgRow.name)?.[1] ?? NaN) || null,
      }
    : null;
  let cuda: Fact<string> | null =
    f.cuda && isVersion(f.cuda)
      ? { value: majorMinor(f.cuda), source: f.sources[0] ?? `${f.framework} build files` }
      : null;
  if (f.framework === 'jax') {
    const plugin = pkg(/^jax-cuda(\d+)-(plugin|pjrt)$/) ?? pkg(/^jaxlib$/);
    const major = plugin ? /^jax-cuda(\d+)/.exec(plugin.name)?.[1] : undefined;
    if (major) variant = `cuda${major}`;
    const rt = pkg(/^nvidia-cuda-runtime(-cu\d+)?$/);
    if (!cuda && rt && (!major || truncateVersion(rt.version, 1) === major))
      cuda = { value: majorMinor(rt.version), source: `pip package ${rt.name} ${rt.version}` };
    else if (!cuda && major)
      cuda = { value: `${major}.0`, source: `pip package ${plugin!.name} (CUDA ${major} plugin)` };
  }
  const probeCudnn = typeof info.cudnnVersion === 'number' ? cudnnFromInt(info.cudnnVersion) : null;
  let cudnnLoaded: Fact<string> | null = probeCudnn
    ? { value: probeCudnn, source: `${f.framework} probe (torch.backends.cudnn.version())` }
    : null;
  if (!cudnnLoaded && probe) {
    const file = probe.loadedLibraries.map((p) => /libcudnn\.so\.(\d+\.\d+(?:\.\d+)?)$/.exec(p)).find((m) => m);
    if (file) cudnnLoaded = { value: file[1]!, source: `mapped by the ${f.framework} probe process` };
  }
  if (!cudnnLoaded && libs?.consumers) {
    const mine = libs.consumers.filter(
      (c) =>
        c.framework === f.framework &&
        (c.environment === e.prefix || e.sitePackages.some((sp) => c.path.startsWith(sp))),
    );
    const r = mine
      .flatMap((c) => c.resolved ?? [])
      .find((x) => /^libcudnn\.so/.test(x.name) && x.version && isVersion(x.version));
    if (r?.version) cudnnLoaded = { value: r.version, source: `library resolution: ${r.path ?? r.name}` };
  }
  if (!cudnnLoaded && cudnnPackage)
    cudnnLoaded = {
      value: truncateVersion(cudnnPackage.version, 3),
      source: `pip package ${cudnnPackage.name} ${cudnnPackage.version} (what the wheel loads through its RPATH)`,
    };
  const cudnnBuilt: Fact<string> | null =
    f.cudnn && isVersion(f.cudnn) ? { value: f.cudnn, source: f.sources[0] ?? `${f.framework} build files` } : null;
  let archs: FrameworkFacts['archs'] = null;
  const list = Array.isArray(info.archList)
    ? info.archList.filter((x): x is string => typeof x === 'string')
    : f.computeCapabilities;
  if (list && list.length > 0) {
    const sass = list
      .filter((a) => !/^compute_/.test(a))
      .map((a) => normalizeComputeCapability(a))
      .filter((x): x is string => x !== null);
    const ptx = list
      .filter((a) => /^compute_/.test(a))
      .map((a) => normalizeComputeCapability(a))
      .filter((x): x is string => x !== null);
    archs = {
      value: { sass, ptx },
      source: Array.isArray(info.archList) ? 'torch.cuda.get_arch_list()' : (f.sources[0] ?? 'build info'),
    };
  }
  return {
    framework: f.framework,
    version,
    variant,
    cuda,
    gpuBuild: f.gpuBuild,
    cudnnBuilt,
    cudnnLoaded,
    cudnnPackage,
    archs,
  };
}
