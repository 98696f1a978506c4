// CUDA toolkit facts: which driver a CUDA runtime needs, which CUDA a driver can run, which GPU
// architectures a CUDA version can build for, and whether a build's SASS/PTX covers a GPU.
import { knowledge } from '../../knowledge/index.js';
import { InputError } from '../../base/errors.js';
import { compareVersions, isVersion, majorMinor, majorOf, versionHasPrefix } from './version.js';

export type Os = 'linux' | 'windows';

export interface DriverRequirement {
  /** the CUDA version asked about, as given */
  cuda: string;
  os: Os;
  /**
   * the lowest driver that runs this CUDA runtime at all (minor-version compatibility from CUDA 11), or null when
   * unknown
   */
  min: string | null;
  /** the toolkit's own driver: needed for PTX JIT of this toolkit's PTX and for the newest APIs; null when unknown */
  full: string | null;
  /** true when `min` comes from minor-version compatibility (lower than `full`, with limits) */
  minorVersionCompat: boolean;
  /** what minor-version compatibility does not cover, when it applies */
  limits: string[];
  sources: string[];
}

function toolkitRows(cuda: string) {
  const rows = knowledge().cudaDriver.toolkits;
  const parts = cuda.split('.').length;
  // "12.4" → every 12.4 release row; "12.4.1" → that release row
  return parts <= 2
    ? rows.filter((r) => r.cuda === majorMinor(cuda))
    : rows.filter((r) => versionHasPrefix(r.version, cuda));
}

function checkCuda(cuda: string): void {
  if (!isVersion(cuda)) throw new InputError('usage.version.notCuda', { value: cuda });
}

/**
 * The driver a CUDA runtime needs on `os`. From CUDA 11, any minor of a major runs on the major's
 * minimum driver (11.x ≥ 450.80.02, 12.x ≥ 525.60.13, 13.x ≥ 580.65.06 on Linux) with limits: PTX JIT
 * and the newest APIs need the toolkit's own driver (`full`). Before CUDA 11, `min` is the toolkit driver.
 */
export function minDriverForCuda(cudaVersion: string, os: Os = 'linux'): DriverRequirement {
  checkCuda(cudaVersion);
  const kd = knowledge().cudaDriver;
  const rows = toolkitRows(cudaVersion);
  const withDriver = rows.filter((r) => r[os] !== null);
  // the GA (lowest) row of a major.minor: a runtime reporting "12.4" may be any 12.4.x, the GA driver is the floor
  const first = withDriver.sort((a, b) => compareVersions(a.version, b.version))[0];
  const full = first ? first[os] : null;
  const sources = new Set<string>();
  if (first) sources.add(first.source);
  const major = majorOf(cudaVersion);
  const mvc = kd.minorVersionCompat.find((m) => m.major === major);
  if (mvc) {
    sources.add(mvc.source);
    const floor = mvc[os];
    // the compat floor can only lower the requirement; 11.0's own early drivers were below 450.80.02
    const min = full !== null && compareVersions(full, floor) < 0 ? full : floor;
    return {
      cuda: cudaVersion,
      os,
      min,
      full,
      minorVersionCompat: full === null || compareVersions(min, full) < 0,
      limits: kd.minorVersionCompatLimits.filter((l) => l.id !== 'no-minor-compat-before-11').map((l) => l.text),
      sources: [...sources],
    };
  }
  return { cuda: cudaVersion, os, min: full, full, minorVersionCompat: false, limits: [], sources: [...sources] };
}

/**
 * The highest CUDA version ("13.0") whose toolkit driver is ≤ `driverVersion`: what nvidia-smi calls
 * "CUDA Version". null when the driver predates every row. Runtimes of the same major but newer minor
 * still run through minor-version compatibility: see `cudaMajorsForDriver`.
 */
export function maxCudaForDriver(driverVersion: string, os: Os = 'linux'): string | null {
  if (!isVersion(driverVersion)) throw new InputError('usage.version.notDriver', { value: driverVersion });
  let best: string | null = null;
  for (const r of knowledge().cudaDriver.toolkits) {
    const d = r[os];
    if (d !== null && compareVersions(driverVersion, d) >= 0 && (best === null || compareVersions(r.cuda, best) > 0))
      best = r.cuda;
  }
  return best;
}

/** The CUDA majors (11, 12, 13) whose every minor runs on this driver through minor-version compatibility. */
export function cudaMajorsForDriver(driverVersion: string, os: Os = 'linux'): number[] {
  if (!isVersion(driverVersion)) throw new InputError('usage.version.notDriver', { value: driverVersion });
  return knowledge()
    .cudaDriver.minorVersionCompat.filter((m) => compareVersions(driverVersion, m[os]) >= 0)
    .map((m) => m.major);
}

/** Can a CUDA runtime of this version run on this driver at all (minor-version compatibility included)? */
export function driverRunsCuda(driverVersion: string, cudaVersion: string, os: Os = 'linux'): boolean | null {
  const req = minDriverForCuda(cudaVersion, os);
  return req.min === null ? null : compareVersions(driverVersion, req.min) >= 0;
}

/** Normalise "8.6", "86", "sm_86", "compute_86", "sm_90a" to "8.6" / "9.0"; null if it is none of those. */
export function normalizeComputeCapability(cc: string): string | null {
  const s = cc.trim().toLowerCase();
  let m = /^(\d+)\.(\d)$/.exec(s);
  if (m) return `${Number(m[1])}.${m[2]}`;
  m = /^(?:sm_|compute_)?(\d+)(\d)[af]?$/.exec(s);
  if (m) return `${Number(m[1])}.${m[2]}`;
  return null;
}

function ccOrThrow(cc: string): string {
  const n = normalizeComputeCapability(cc);
  if (!n) throw new InputError('usage.version.notCc', { value: cc });
  return n;
}

/**
 * Can CUDA `cudaVersion` compile for compute capability `cc` (nvcc -arch=sm_XY)? E.g. sm_86 needs
 * CUDA ≥ 11.1, sm_90 ≥ 11.8, sm_120 ≥ 12.8; CUDA 12.0 dropped sm_35/37, CUDA 13.0 dropped sm_50–sm_72.
 * Returns null when the data has no row for that CUDA version or architecture.
 */
export function cudaSupportsComputeCapability(cudaVersion: string, cc: string): boolean | null {
  checkCuda(cudaVersion);
  const c = ccOrThrow(cc);
  const d = knowledge().computeCapability;
  const arch = d.architectures.find((a) => a.computeCapability === c);
  const mm = majorMinor(cudaVersion);
  if (arch && arch.firstCuda !== null) {
    if (compareVersions(mm, arch.firstCuda) < 0) return false;
    if (arch.lastCuda !== null && compareVersions(mm, arch.lastCuda) > 0) return false;
    if (arch.lastCuda !== null || d.toolkits.some((t) => t.cuda === mm)) return true;
  }
  const tk = d.toolkits.find((t) => t.cuda === mm);
  if (!tk) return null;
  return compareVersions(c, tk.minComputeCapability) >= 0 && compareVersions(c, tk.maxComputeCapability) <= 0;
}

export interface ArchCoverage {
  /** how the GPU runs the build's kernels: its own SASS, SASS of a lower minor of the same major, PTX JIT, or not */
  kind: 'sass' | 'sass-compatible' | 'ptx-jit' | 'none';
  /** the build target used (e.g. "8.6" for an 8.9 GPU on a wheel with sm_86) */
  via: string | null;
}

/**
 * Does a build with SASS for `sass` and PTX for `ptx` run on a GPU of capability `cc`? SASS X.y runs on
 * X.z (z ≥ y, same major); PTX X.y is JIT-compiled for any GPU ≥ X.y (the driver must know that PTX).
 */
export function archCoverage(cc: string, sass: readonly string[], ptx: readonly string[]): ArchCoverage {
  const c = ccOrThrow(cc);
  const [maj, min] = c.split('.').map(Number) as [number, number];
  const norm = (xs: readonly string[]) =>
    xs.map((x) => normalizeComputeCapability(x)).filter((x): x is string => x !== null);
  const s = norm(sass);
  if (s.includes(c)) return { kind: 'sass', via: c };
  const same = s
    .map((x) => x.split('.').map(Number) as [number, number])
    .filter(([M, m]) => M === maj && m <= min)
    .sort((a, b) => b[1] - a[1])[0];
  if (same) return { kind: 'sass-compatible', via: `${same[0]}.${same[1]}` };
  const p = norm(ptx)
    .filter((x) => compareVersions(x, c) <= 0)
    .sort((a, b) => compareVersions(b, a))[0];
  if (p) return { kind: 'ptx-jit', via: p };
  return { kind: 'none', via: null };
}

/** The architecture row of a compute capability ("Ampere" for 8.6), or null. */
export function architectureOf(cc: string): { architecture: string; sm: string; source: string } | null {
  const c = normalizeComputeCapability(cc);
  const a = c ? knowledge().computeCapability.architectures.find((x) => x.computeCapability === c) : undefined;
  return a ? { architecture: a.architecture, sm: a.sm, source: a.source } : null;
}
