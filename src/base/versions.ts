// Which CUDA library a file is, and its version: from the real file name behind the symlinks
// (libcudnn.so.9.14.0, libcuda.so.580.95.05), from cudnn_version*.h next to the library, or from the
// owning package's version (pip's nvidia-cublas 13.1.0.3 ships an unversioned libcublas.so.13).

/** The library families we inventory. cuDNN's sub-libraries (8: *_infer/_train, 9: _graph, _engines_*) are their own families. */
const FAMILY_RE = /^(libcudnn(?:_[a-z_]+)?|libcudart|libcublasLt|libcublas|libcufft|libcusparse|libcurand|libcusolver|libnccl|libnvrtc|libnvJitLink|libcuda|libnvidia-ml)(?:[-.][0-9a-f]{8})?\.so(?:\.[0-9][0-9.]*)?$/;

/** "libcudnn_cnn.so.9.14.0" → "libcudnn_cnn"; auditwheel copies ("libcudart.faf08d9a.so.13") too; others → null. */
export function libraryFamily(basename: string): string | null {
  const m = FAMILY_RE.exec(basename);
  return m ? m[1]! : null;
}

export const CUDNN9_SUBLIBRARIES = ['libcudnn_graph', 'libcudnn_engines_precompiled', 'libcudnn_engines_runtime_compiled', 'libcudnn_heuristic', 'libcudnn_ops', 'libcudnn_cnn', 'libcudnn_adv'] as const;

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

/** Numeric comparison of dotted versions: "9.9.0" < "9.14.0". */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** "9.19.0" and "9.19.0.56" name the same release when the shorter is a prefix of the longer. */
export function sameVersion(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true;
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.min(pa.length, pb.length);
  return pa.slice(0, n).join('.') === pb.slice(0, n).join('.');
}
