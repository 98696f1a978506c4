// Which CUDA library a file is, and its version: from the real file name behind the symlinks
// (libcudnn.so.9.14.0, libcuda.so.580.95.05), from cudnn_version*.h next to the library, or from the
// owning package's version (pip's nvidia-cublas 13.1.0.3 ships an unversioned libcublas.so.13).
import { eitherOf, regexOf } from './regex.js';

/**
 * The library families we inventory. cuDNN's sub-libraries (8: *_infer/_train, 9: _graph, _engines_*) are their own
 * families.
 */
const FAMILY_RE = regexOf([
  '^(',
  eitherOf([
    /libcudnn(?:_[a-z_]+)?/, // cuDNN and its sub-libraries
    /libcudart|libcublasLt|libcublas|libcufft|libcusparse|libcurand|libcusolver/, // the CUDA toolkit's
    /libnccl|libnvrtc|libnvJitLink/,
    /libcuda|libnvidia-ml/, // the driver's
  ]),
  ')',
  /(?:[-.][0-9a-f]{8})?/, // auditwheel's hash
  /\.so(?:\.[0-9][0-9.]*)?$/, // the soname and version
]);

/** "libcudnn_cnn.so.9.14.0" → "libcudnn_cnn"; auditwheel copies ("libcudart.faf08d9a.so.13") too; others → null. */
export function libraryFamily(basename: string): string | null {
  const m = FAMILY_RE.exec(basename);
  return m ? m[1]! : null;
}

export const CUDNN9_SUBLIBRARIES = [
  'libcudnn_graph',
  'libcudnn_engines_precompiled',
  'libcudnn_engines_runtime_compiled',
  'libcudnn_heuristic',
  'libcudnn_ops',
  'libcudnn_cnn',
  'libcudnn_adv',
] as const;

/** cuDNN 8's sub-libraries, in dependency order (ops before cnn before adv). */
export const CUDNN8_SUBLIBRARIES = [
  'libcudnn_ops_infer',
  'libcudnn_ops_train',
  'libcudnn_cnn_infer',
  'libcudnn_cnn_train',
  'libcudnn_adv_infer',
  'libcudnn_adv_train',
] as const;

/** "libcudnn.so.9.14.0" → "9.14.0"; "libcuda.so.580.95.05" → "580.95.05"; "libcudnn.so.9" → null (only a major). */
export function versionFromFileName(basename: string): string | null {
  const m = /\.so\.(\d+(?:\.\d+)+)$/.exec(basename);
  return m ? m[1]! : null;
}

/** The soname-style major: "libcudnn.so.9.14.0" → "9". */
export function majorFromFileName(basename: string): string | null {
  return /\.so\.(\d+)/.exec(basename)?.[1] ?? null;
}

/** cudnn_version.h / cudnn_version_v9.h / cudnn.h (cuDNN ≤ 7): #define CUDNN_MAJOR 9 … → "9.19.0". */
export function parseCudnnHeader(text: string): string | null {
  const get = (k: string) => new RegExp(`#define\\s+CUDNN_${k}\\s+(\\d+)`).exec(text)?.[1];
  const major = get('MAJOR');
  const minor = get('MINOR');
  if (major === undefined || minor === undefined) return null;
  return `${major}.${minor}.${get('PATCHLEVEL') ?? '0'}`;
}

/** A package's version as the library's: cuDNN's pip version has a 4th build part ("9.19.0.56" → "9.19.0"). */
export function versionFromPackage(family: string, pkgVersion: string): string | null {
  const m = /^(\d+(?:\.\d+)*)/.exec(pkgVersion);
  if (!m) return null;
  const parts = m[1]!.split('.');
  return family.startsWith('libcudnn') ? parts.slice(0, 3).join('.') : m[1]!;
}

/** A version as numbers per dot-separated part (never a float: "12.10" > "12.9") and its pre-release rank:
 *  "2.1.0+cu121" is 2.1.0 with a local label, "2.0.0rc1" comes before "2.0.0", ".post1" and "+local" are ignored. */
export interface DottedVersion {
  nums: number[];
  /** pre-release rank: dev < a/alpha < b/beta < rc/c < (none) */
  pre: [number, number] | null;
}

const PRE_RANK: Record<string, number> = { dev: 0, a: 1, alpha: 1, b: 2, beta: 2, rc: 3, c: 3 };

/** "12.4", "580.65.06", "2.1.0+cu121", "2.0.0rc1" → parts; anything else → null. */
export function parseDotted(v: string): DottedVersion | null {
  const m = /^\s*v?(\d+(?:\.\d+)*)(?:[.-]?(dev|a|alpha|b|beta|rc|c)\.?(\d*))?(?:\.post\d+)?(?:\+[\w.]+)?\s*$/i.exec(v);
  if (!m) return null;
  const nums = m[1]!.split('.').map((x) => Number(x));
  const pre = m[2] ? ([PRE_RANK[m[2].toLowerCase()] ?? 0, Number(m[3] || 0)] as [number, number]) : null;
  return { nums, pre };
}

/** True when `v` looks like a version ("12.4", "580.65.06", "2.1.0+cu121", "2.0.0rc1"). */
export function isVersion(v: string): boolean {
  return parseDotted(v) !== null;
}

/**
 * The one comparison of version strings: negative, 0 or positive (the sign only). Missing parts count as 0
 * ("12.4" == "12.4.0"); pre-releases come before their release. Text that is not a clean version (a log's "10.1
 * (nvcc)", "11.8-1") is compared part by part on its leading numbers, never rejected: a diagnosis must not fail on it.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parseDotted(a);
  const pb = parseDotted(b);
  if (pa && pb) {
    const n = Math.max(pa.nums.length, pb.nums.length);
    for (let i = 0; i < n; i++) {
      const d = (pa.nums[i] ?? 0) - (pb.nums[i] ?? 0);
      if (d !== 0) return Math.sign(d);
    }
    if (pa.pre && !pb.pre) return -1;
    if (!pa.pre && pb.pre) return 1;
    if (pa.pre && pb.pre) return Math.sign(pa.pre[0] - pb.pre[0]) || Math.sign(pa.pre[1] - pb.pre[1]);
    return 0;
  }
  const x = a.split(/[.+-]/).map((p) => Number.parseInt(p, 10));
  const y = b.split(/[.+-]/).map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = Number.isFinite(x[i]) ? x[i]! : 0;
    const q = Number.isFinite(y[i]) ? y[i]! : 0;
    if (p !== q) return Math.sign(p - q);
  }
  return 0;
}

/**
 * The release series of a version: "12.4.1" → "12.4", and a major alone padded ("12" → "12.0"). null when `v` is
 * not a version. For text read from a log, where "CUDA 11" means any 11.x, use `majorMinorOfText`.
 */
export function majorMinor(v: string): string | null {
  const p = parseDotted(v);
  if (!p) return null;
  const nums = p.nums.slice(0, 2);
  if (nums.length < 2) nums.push(0);
  return nums.join('.');
}

/**
 * The first two dot-separated parts of text as written: "12.4.1" → "12.4", "2.4.0-gpu" → "2.4"; a major alone stays
 * itself ("11"), since a log's "CUDA 11" could be any of its minors. Never rejects: a diagnosis must not fail on it.
 */
export function majorMinorOfText(v: string): string {
  const parts = v.split('.');
  return parts.length >= 2 ? `${parts[0]}.${parts[1]}` : `${parts[0]}`;
}

/** "9.19.0" and "9.19.0.56" name the same release when the shorter is a prefix of the longer. */
export function sameVersion(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true;
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.min(pa.length, pb.length);
  return pa.slice(0, n).join('.') === pb.slice(0, n).join('.');
}
