// The version knowledge `explain` needs, in one place. It asks src/judge/compat/api.ts (the project's compatibility
// knowledge) first and falls back to small tables derived from the shared compat data
// (src/knowledge/explain/*.json, each row with its source) where the API has no answer or rejects the
// input: log text is messy ("11", "10.1 (nvcc)"), and a diagnosis must never fail on it.
import * as compat from '../compat/api.js';
import gpus from '../../knowledge/explain/gpus.json' with { type: 'json' };
import cudaRows from '../../knowledge/explain/cuda.json' with { type: 'json' };
import tfRows from '../../knowledge/explain/tensorflow.json' with { type: 'json' };
import torchRows from '../../knowledge/explain/torch.json' with { type: 'json' };
import { compareVersions } from '../../base/versions.js';

/** Numeric, part by part, never rejecting messy text (the one comparison: base/versions.ts). */
export { compareVersions };

export function majorMinor(v: string): string {
  const parts = v.split('.');
  return parts.length >= 2 ? `${parts[0]}.${parts[1]}` : `${parts[0]}`;
}

const GPU_RES = gpus.map((g) => ({ re: new RegExp(g.pattern, 'i'), cc: g.cc }));

/** "NVIDIA GeForce RTX 3090" → "8.6"; null when the name is not recognised */
export function computeCapabilityOfGpu(name: string): string | null {
  const viaApi = tryApi(() => compat.computeCapabilityOfGpu(name));
  if (viaApi) return viaApi;
  for (const g of GPU_RES) if (g.re.test(name)) return g.cc;
  return null;
}

function tryApi<T>(f: () => T): T | null {
  try {
    return f() ?? null;
  } catch {
    return null;
  }
}

function ccToSm(cc: string): number {
  const [a, b] = cc.split('.');
  return Number(a) * 10 + Number(b ?? 0);
}

function cudaRow(cuda: string): (typeof cudaRows)[number] | undefined {
  const mm = majorMinor(cuda);
  const exact = cudaRows.find((r) => r.cuda === mm);
  if (exact) return exact;
  // "11" alone, or a version newer than the table: the newest row at or below it
  let best: (typeof cudaRows)[number] | undefined;
  for (const r of cudaRows) if (compareVersions(r.cuda, mm) <= 0) best = r;
  return best;
}

/** Can CUDA `cuda` build code for compute capability `cc`? null when unknown. */
export function cudaSupportsComputeCapability(cuda: string, cc: string): boolean | null {
  if (cuda.includes('.')) {
    const viaApi = tryApi(() => compat.cudaSupportsComputeCapability(cuda, cc));
    if (viaApi !== null) return viaApi;
  }
  const r = cudaRow(cuda);
  if (!r || r.minSm === undefined || r.maxSm === undefined) return null;
  const sm = ccToSm(cc);
  // a major-only version ("11") could be any minor: only say no when even the newest minor cannot
  if (!cuda.includes('.')) {
    const newest = [...cudaRows].reverse().find((x) => x.cuda.startsWith(`${cuda}.`));
    if (newest?.maxSm !== undefined && sm <= newest.maxSm && sm >= (r.minSm ?? 0)) return true;
  }
  return sm >= r.minSm && sm <= r.maxSm;
}

/**
 * The lowest driver that runs code built with `cuda`. With `exact`, the toolkit's own driver (needed to JIT
 * its PTX); otherwise the minor-version-compatibility floor (11.x: 450.80.02, 12.x: 525.60.13, 13.x: 580).
 */
export function minDriverForCuda(cuda: string, opts: { exact?: boolean; windows?: boolean } = {}): string | null {
  const req = tryApi(() => compat.minDriverForCuda(cuda, opts.windows ? 'windows' : 'linux'));
  const viaApi = req ? (opts.exact ? req.full : req.min) : null;
  if (viaApi) return viaApi;
  const major = Number(cuda.split('.')[0]);
  if (!opts.exact && !opts.windows) {
    if (major === 11) return '450.80.02';
    if (major === 12) return '525.60.13';
    if (major === 13) return '580.65.06';
  }
  const r = cudaRow(cuda);
  if (!r) return null;
  return (opts.windows ? r.driverWindows : r.driverLinux) ?? null;
}

/** The newest CUDA a driver runs natively (what nvidia-smi calls "CUDA Version"). */
export function cudaOfDriver(driver: string): string | null {
  let best: string | null = null;
  for (const r of cudaRows) {
    if (r.driverLinux && compareVersions(driver, r.driverLinux) >= 0) best = r.cuda;
    else if (r.driverWindows && compareVersions(driver, r.driverWindows) >= 0 && Number(driver.split('.')[0]) > 385)
      best = r.cuda;
  }
  return best;
}

/** What a TensorFlow release was built and tested with (Linux GPU table). */
export function tensorflowBuild(version: string): { cuda: string; cudnn: string } | null {
  const b = tryApi(() => compat.tensorflowBuild(version));
  if (b && b.cuda && b.cudnn) return { cuda: b.cuda, cudnn: b.cudnn };
  const mm = majorMinor(version);
  const row = tfRows.find((r) => majorMinor(r.tf) === mm);
  if (!row || row.cuda === null || row.cudnn === null) return null;
  return { cuda: String(row.cuda), cudnn: String(row.cudnn) };
}

/** The sm_XX list of a PyTorch wheel; `cudaTag` like "11.3" ("+cu113"). Falls back to the CUDA range. */
export function torchArchs(version: string, cudaTag?: string): { archs: string[]; cuda: string } | null {
  const base = version.split('+')[0]!;
  const row =
    torchRows.find((r) => r.torch === base) ?? torchRows.find((r) => majorMinor(r.torch) === majorMinor(base));
  if (!row) return null;
  const tag = cudaTag ? `cu${cudaTag.replace('.', '')}` : undefined;
  // the pip default: the newest variant that is not the odd one out (for old releases the first listed is the default)
  const variant = tag && row.variants.includes(tag) ? tag : defaultVariant(row.variants, base);
  if (!variant) return null;
  const cuda = cuTagToVersion(variant);
  const listed = (row.archs as Record<string, string[]> | null)?.[variant];
  if (listed) return { archs: listed.map((a) => a.replace('+PTX', '')), cuda };
  // no published list: PyTorch builds for sm_35/37 up to what the toolkit can target
  const r = cudaRow(cuda);
  if (!r?.maxSm) return null;
  const all = [35, 37, 50, 52, 60, 61, 70, 75, 80, 86, 89, 90, 100, 120];
  return { archs: all.filter((s) => s >= 37 && s <= r.maxSm!).map((s) => `sm_${s}`), cuda };
}

function defaultVariant(variants: string[], version: string): string | undefined {
  // PyTorch's default pip wheel: 1.x used the second-newest CUDA (e.g. 1.4 → cu101, 1.8-1.12 → cu102);
  // 2.x: 2.0 cu117, 2.1-2.5 cu121, 2.6 cu124, 2.7 cu126, 2.8+ cu128.
  const known: Record<string, string> = {
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
  const k = known[majorMinor(version)];
  if (k && variants.includes(k)) return k;
  return variants[variants.length > 1 ? variants.length - 2 : 0];
}

function cuTagToVersion(tag: string): string {
  const d = tag.replace(/^cu/, '');
  return d.length <= 2 ? `${d[0]}.${d.slice(1) || '0'}` : `${d.slice(0, -1)}.${d.slice(-1)}`;
}

/** Is compute capability `cc` below the oldest architecture CUDA `cuda` targets (removed, as Kepler from 12.0)? null when unknown. */
export function ccBelowCudaMinimum(cuda: string, cc: string): boolean | null {
  const r = cudaRow(cuda);
  if (!r || r.minSm === undefined) return null;
  return ccToSm(cc) < r.minSm;
}

export function smOfCc(cc: string): string {
  return `sm_${ccToSm(cc)}`;
}

/** The CUDA builds of a jaxlib release (one per CUDA major), with the minimum CUDA and cuDNN each needs; null when unknown. */
export interface JaxCudaBuild {
  variant: string;
  cudaMajor: number;
  minCuda: string;
  minCudnn: string | null;
  /** 0.4.30+: CUDA comes as a plugin whose default install pulls CUDA and cuDNN from pip */
  plugin: boolean;
}

export function jaxCudaBuilds(version: string): JaxCudaBuild[] | null {
  const base = version.split('+')[0]!;
  if (!/^\d+\.\d+(?:\.\d+)?$/.test(base)) return null;
  const req = tryApi(() => compat.jaxRequirements(base));
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
