// What each framework build is: the CUDA, cuDNN, Python and GPU architectures of a release, from the
// knowledge tables. Patch releases missing from the data take their series' row (marked `assumedFrom`).
import { knowledge } from '../../knowledge/index.js';
import type { Os } from './cuda.js';
import { compareVersions, majorMinor, versionHasPrefix } from './version.js';

export interface TensorflowBuild {
  /** the row's version ("2.12.0") */
  version: string;
  platform: Os;
  package: 'tensorflow' | 'tensorflow-gpu';
  /** false on native Windows after 2.10: CPU only */
  gpu: boolean;
  python: string[];
  cuda: string | null;
  cudnn: string | null;
  /** compute capabilities with SASS, and shipped as PTX (JIT for newer GPUs) */
  sass: string[];
  ptx: string[];
  archsConfidence: string;
  /** `pip install tensorflow[and-cuda]` exists (2.14+, Linux) */
  andCuda: boolean;
  notes: string[];
  sources: string[];
  /** set when the data has no row for the exact version and the series' row was used */
  assumedFrom: string | null;
}

/** The tested GPU build of a TensorFlow version on `platform`, or null when the data has none. */
export function tensorflowBuild(version: string, platform: Os = 'linux'): TensorflowBuild | null {
  const k = knowledge().tensorflow;
  const rows = k.builds.filter((b) => b.platform === platform);
  const row =
    rows.find((b) => compareVersions(b.version, version) === 0) ??
    rows.find((b) => majorMinor(b.version) === majorMinor(version));
  if (!row) return null;
  const arch = k.gpuArchitectures.find(
    (a) => compareVersions(row.version, a.from) >= 0 && compareVersions(row.version, a.to) <= 0,
  );
  const andCuda = platform === 'linux' && k.andCudaExtra.some((e) => compareVersions(row.version, e.from) >= 0);
  const sources = [row.source, ...(arch ? [arch.source] : [])];
  const notes = row.notes ? [row.notes] : [];
  if (!row.gpu) {
    notes.push(k.windowsNativeGpu.text);
    sources.push(k.windowsNativeGpu.source);
  }
  return {
    version: row.version,
    platform,
    package: row.package,
    gpu: row.gpu,
    python: row.python,
    cuda: row.cuda,
    cudnn: row.cudnn,
    sass: row.gpu && arch ? arch.sass : [],
    ptx: row.gpu && arch ? arch.ptx : [],
    archsConfidence: arch?.confidence ?? 'unknown',
    andCuda,
    notes,
    sources,
    assumedFrom: compareVersions(row.version, version) === 0 ? null : row.version,
  };
}

/** Every TensorFlow version of the data on a platform, oldest first. */
export function tensorflowVersions(platform: Os = 'linux'): string[] {
  return knowledge()
    .tensorflow.builds.filter((b) => b.platform === platform)
    .map((b) => b.version)
    .sort(compareVersions);
}

export interface TorchVariantInfo {
  name: string;
  cuda: string;
  cudnn: string;
  sass: string[];
  ptx: string[];
  archsConfidence: string;
}

export interface TorchBuild {
  version: string;
  python: string[];
  pythonExperimental: string[];
  /** every CUDA variant of the release */
  variants: TorchVariantInfo[];
  /** the variant asked for; null when none was asked or it is "cpu" */
  variant: TorchVariantInfo | null;
  cpuOnly: boolean;
  notes: string[];
  sources: string[];
  assumedFrom: string | null;
}

function torchRelease(version: string) {
  const rel = knowledge().pytorch.releases;
  const exact = rel.find((r) => compareVersions(r.version, version) === 0);
  if (exact) return { row: exact, assumed: false };
  // a patch release missing from the data: the newest row of its series below it
  const series = rel
    .filter((r) => versionHasPrefix(r.version, majorMinor(version)) && compareVersions(r.version, version) <= 0)
    .sort((a, b) => compareVersions(b.version, a.version))[0];
  return series ? { row: series, assumed: true } : null;
}

/**
 * A PyTorch release and, when `variant` is given ("cu121", "cpu"), that wheel's CUDA, bundled cuDNN and GPU
 * architectures. null when the data has no such release, or the release has no such variant.
 */
export function torchBuild(version: string, variant?: string): TorchBuild | null {
  const found = torchRelease(version);
  if (!found) return null;
  const { row, assumed } = found;
  const cpuOnly = variant === 'cpu';
  const v = variant && !cpuOnly ? row.variants.find((x) => x.name === variant) : undefined;
  if (variant && !cpuOnly && !v) return null;
  const k = knowledge().pytorch;
  return {
    version: row.version,
    python: row.python,
    pythonExperimental: row.pythonExperimental ?? [],
    variants: row.variants,
    variant: v ?? null,
    cpuOnly,
    notes: row.notes ? [row.notes] : [],
    sources: [row.source, k.driver.source],
    assumedFrom: assumed ? row.version : null,
  };
}

/** Every PyTorch version of the data, oldest first. */
export function torchVersions(): string[] {
  return knowledge()
    .pytorch.releases.map((r) => r.version)
    .sort(compareVersions);
}

export interface JaxVariantInfo {
  name: 'cuda11' | 'cuda12' | 'cuda13';
  cudaMajor: number;
  minCuda: string | null;
  builtWith: string | null;
  minCudnn: string | null;
  minComputeCapability: string | null;
  /** installed as jax-cudaNN-plugin + pjrt (0.4.30+), not a CUDA jaxlib */
  plugin: boolean;
  /** uses the system CUDA instead of pip nvidia-* wheels */
  local: boolean;
  extras: string[];
}

export interface JaxRequirements {
  version: string;
  /** Python floor of the release (JAX states no ceiling in the data) */
  pythonMin: string | null;
  variants: JaxVariantInfo[];
  notes: string[];
  sources: string[];
  assumedFrom: string | null;
}

/**
 * What a JAX release needs per CUDA plugin/wheel (`variant` "cuda12" / "cuda13" narrows it). Versions
 * newer than the data within the newest row's minor series take that row (e.g. 0.11.2 → 0.11.0).
 * null when the version is unknown or has no such variant.
 */
export function jaxRequirements(version: string, variant?: string): JaxRequirements | null {
  const k = knowledge().jax;
  const rows = [...k.releases].sort((a, b) => compareVersions(a.version, b.version));
  const exact = rows.find((r) => compareVersions(r.version, version) === 0);
  const below = rows.filter((r) => compareVersions(r.version, version) <= 0);
  const prev = below[below.length - 1];
  // releases skip numbers (0.4.30 → 0.4.31 ...): take the newest row at or below, within the same minor series
  const row = exact ?? (prev && majorMinor(prev.version) === majorMinor(version) ? prev : undefined);
  if (!row) return null;
  const variants: JaxVariantInfo[] = row.variants
    .filter((v) => !variant || v.name === variant)
    .map((v) => ({
      name: v.name,
      cudaMajor: v.cudaMajor,
      minCuda: v.minCuda,
      builtWith: v.builtWith ?? null,
      minCudnn: v.minCudnn,
      minComputeCapability: v.minComputeCapability ?? null,
      plugin: v.plugin ?? false,
      local: v.local ?? false,
      extras: v.extras ?? [],
    }));
  if (variants.length === 0) return null;
  const py = [...k.pythonMinimum]
    .sort((a, b) => compareVersions(b.from, a.from))
    .find((p) => compareVersions(version, p.from) >= 0);
  const sources = [row.source, k.driver.source, ...(py ? [py.source] : [])];
  const notes = row.notes ? [row.notes] : [];
  const assumed = exact ? null : row.version;
  if (assumed) {
    notes.push(`${version} is not in the data; ${k.newerThanData.text}`);
    sources.push(k.newerThanData.source);
  }
  return {
    version: exact ? row.version : version,
    pythonMin: py?.python ?? null,
    variants,
    notes,
    sources,
    assumedFrom: assumed,
  };
}

/** Every JAX version of the data, oldest first. */
export function jaxVersions(): string[] {
  return knowledge()
    .jax.releases.map((r) => r.version)
    .sort(compareVersions);
}
