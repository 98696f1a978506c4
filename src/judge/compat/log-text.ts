// The compatibility answers for versions read from log text, which is messy: a major alone ("CUDA 11"), a version
// with trailing words ("10.1 (nvcc)", "2.4.0-gpu"). These never throw and answer null when the tables do not know;
// a diagnosis must not fail on its input. They read the same tables as the strict API beside them.
import { knowledge } from '../../knowledge/index.js';
import { compareVersions, majorMinorOfText } from '../../base/versions.js';
import * as cuda from './cuda.js';
import * as frameworks from './frameworks.js';
import { cudaOfTorchVariant } from './spec.js';

/** The leading version of a piece of log text ("2.4.0-gpu" → "2.4.0"), or null when it starts with none. */
function leadingVersion(text: string): string | null {
  return /^\s*v?(\d+(?:\.\d+)*)/.exec(text)?.[1] ?? null;
}

function orNull<T>(f: () => T): T | null {
  try {
    return f() ?? null;
  } catch {
    return null;
  }
}

/** "8.6" → 86 */
function ccToSm(cc: string): number {
  const [a, b] = cc.split('.');
  return Number(a) * 10 + Number(b ?? 0);
}

/** "8.6" → "sm_86" */
export function smOfCc(cc: string): string {
  return `sm_${ccToSm(cc)}`;
}

interface ToolkitRow {
  cuda: string;
  driverLinux: string | null;
  driverWindows: string | null;
  minSm: number;
  maxSm: number;
}

let toolkitRows: ToolkitRow[] | undefined;

/** One row per CUDA major.minor: the architectures it targets and its GA driver (the lowest of its releases). */
function toolkits(): ToolkitRow[] {
  if (toolkitRows) return toolkitRows;
  const k = knowledge();
  const ga = (mm: string, os: 'linux' | 'windows'): string | null => {
    const ds = k.cudaDriver.toolkits
      .filter((r) => r.cuda === mm && r[os] !== null)
      .sort((a, b) => compareVersions(a.version, b.version));
    return ds[0]?.[os] ?? null;
  };
  toolkitRows = [...k.computeCapability.toolkits]
    .sort((a, b) => compareVersions(a.cuda, b.cuda))
    .map((t) => ({
      cuda: t.cuda,
      driverLinux: ga(t.cuda, 'linux'),
      driverWindows: ga(t.cuda, 'windows'),
      minSm: ccToSm(t.minComputeCapability),
      maxSm: ccToSm(t.maxComputeCapability),
    }));
  return toolkitRows;
}

function toolkitRow(version: string): ToolkitRow | undefined {
  const rows = toolkits();
  const mm = majorMinorOfText(version);
  const exact = rows.find((r) => r.cuda === mm);
  if (exact) return exact;
  // "11" alone, or a version newer than the table: the newest row at or below it
  let best: ToolkitRow | undefined;
  for (const r of rows) if (compareVersions(r.cuda, mm) <= 0) best = r;
  return best;
}

/** Can CUDA `version` build code for compute capability `cc`? null when unknown. */
export function logCudaSupportsComputeCapability(version: string, cc: string): boolean | null {
  if (version.includes('.')) {
    const strict = orNull(() => cuda.cudaSupportsComputeCapability(version, cc));
    if (strict !== null) return strict;
  }
  const r = toolkitRow(version);
  if (!r) return null;
  const sm = ccToSm(cc);
  // a major-only version ("11") could be any minor: only say no when even the newest minor cannot
  if (!version.includes('.')) {
    const newest = [...toolkits()].reverse().find((x) => x.cuda.startsWith(`${version}.`));
    if (newest && sm <= newest.maxSm && sm >= r.minSm) return true;
  }
  return sm >= r.minSm && sm <= r.maxSm;
}

/** Is compute capability `cc` below the oldest architecture CUDA `version` targets? null when unknown. */
export function logCcBelowCudaMinimum(version: string, cc: string): boolean | null {
  const r = toolkitRow(version);
  return r ? ccToSm(cc) < r.minSm : null;
}

/**
 * The lowest driver that runs code built with CUDA `version`. With `exact`, the toolkit's own driver (needed to JIT
 * its PTX); otherwise the minor-version-compatibility floor of its major.
 */
export function logMinDriverForCuda(version: string, opts: { exact?: boolean; windows?: boolean } = {}): string | null {
  const req = orNull(() => cuda.minDriverForCuda(version, opts.windows ? 'windows' : 'linux'));
  const strict = req ? (opts.exact ? req.full : req.min) : null;
  if (strict) return strict;
  if (!opts.exact && !opts.windows) {
    const major = Number(version.split('.')[0]);
    const floor = knowledge().cudaDriver.minorVersionCompat.find((m) => m.major === major);
    if (floor) return floor.linux;
  }
  const r = toolkitRow(version);
  if (!r) return null;
  return (opts.windows ? r.driverWindows : r.driverLinux) ?? null;
}

/** What a TensorFlow release was built and tested with (Linux GPU table); null when unknown. */
export function logTensorflowBuild(version: string): { cuda: string; cudnn: string } | null {
  const v = leadingVersion(version);
  const b = v ? orNull(() => frameworks.tensorflowBuild(v)) : null;
  return b?.cuda && b.cudnn ? { cuda: b.cuda, cudnn: b.cudnn } : null;
}

// PyTorch's default pip wheel per release series: 1.x used the second-newest CUDA (1.4 → cu101, 1.8-1.12 → cu102);
// 2.0 cu117, 2.1-2.4 cu121, 2.5-2.6 cu124, 2.7 cu126, 2.8-2.10 cu128.
const TORCH_DEFAULT_VARIANT: Record<string, string> = {
  '1.4': 'cu101',
  '1.5': 'cu102',
  '1.6': 'cu102',
  '1.7': 'cu102',
  '1.8': 'cu102',
  '1.9': 'cu102',
  '1.10': 'cu102',
  '1.11': 'cu102',
  '1.12': 'cu102',
  '1.13': 'cu117',
  '2.0': 'cu117',
  '2.1': 'cu121',
  '2.2': 'cu121',
  '2.3': 'cu121',
  '2.4': 'cu121',
  '2.5': 'cu124',
  '2.6': 'cu124',
  '2.7': 'cu126',
  '2.8': 'cu128',
  '2.9': 'cu128',
  '2.10': 'cu128',
};

function defaultTorchVariant(variants: string[], version: string): string | undefined {
  const known = TORCH_DEFAULT_VARIANT[majorMinorOfText(version)];
  if (known && variants.includes(known)) return known;
  // otherwise the newest that is not the odd one out (for old releases the first listed is the default)
  return variants[variants.length > 1 ? variants.length - 2 : 0];
}

const TORCH_SMS = [35, 37, 50, 52, 60, 61, 70, 75, 80, 86, 89, 90, 100, 120];

/**
 * The sm_XX list of a PyTorch wheel (SASS and PTX targets alike); `cudaTag` like "11.3" ("+cu113"), else the pip
 * default of the release. Without a published list: what the toolkit can target. null when unknown.
 */
export function logTorchArchs(version: string, cudaTag?: string): { archs: string[]; cuda: string } | null {
  const base = version.split('+')[0]!;
  const releases = knowledge().pytorch.releases;
  const row =
    releases.find((r) => r.version === base) ??
    releases.find((r) => majorMinorOfText(r.version) === majorMinorOfText(base));
  if (!row) return null;
  const names = row.variants.map((v) => v.name);
  const tag = cudaTag ? `cu${cudaTag.replace('.', '')}` : undefined;
  const name = tag && names.includes(tag) ? tag : defaultTorchVariant(names, base);
  const variant = row.variants.find((v) => v.name === name);
  const cudaOf = variant ? (cudaOfTorchVariant(variant.name) ?? variant.cuda) : null;
  if (!variant || !cudaOf) return null;
  const listed = [...new Set([...variant.sass, ...variant.ptx].map(smOfCc))];
  if (listed.length > 0) return { archs: listed, cuda: cudaOf };
  const r = toolkitRow(cudaOf);
  if (!r) return null;
  return { archs: TORCH_SMS.filter((s) => s >= 37 && s <= r.maxSm).map((s) => `sm_${s}`), cuda: cudaOf };
}

/** A CUDA build of a jaxlib release (one per CUDA major), with the minimum CUDA and cuDNN it needs. */
export interface JaxCudaBuild {
  variant: string;
  cudaMajor: number;
  minCuda: string;
  minCudnn: string | null;
  /** 0.4.30+: CUDA comes as a plugin whose default install pulls CUDA and cuDNN from pip */
  plugin: boolean;
}

/** The CUDA builds of a jaxlib release; null when the version is not a plain release or is unknown. */
export function logJaxCudaBuilds(version: string): JaxCudaBuild[] | null {
  const base = version.split('+')[0]!;
  if (!/^\d+\.\d+(?:\.\d+)?$/.test(base)) return null;
  const req = orNull(() => frameworks.jaxRequirements(base));
  if (!req) return null;
  return req.variants.flatMap((v) =>
    v.minCuda
      ? [
          {
            variant: v.name,
            cudaMajor: v.cudaMajor,
            minCuda: v.minCuda,
            minCudnn: v.minCudnn ?? null,
            plugin: v.plugin,
          },
        ]
      : [],
  );
}
