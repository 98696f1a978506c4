// Shared helpers of the library checks: the libraries section, a consumer's "own" copies, fixes that
// rewrite LD_LIBRARY_PATH, and short labels.
import * as nodePath from 'node:path';
import type { Consumer, LibrariesSection, ResolvedLibrary } from '../../../gather/snapshot/schema-libraries.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { t } from '../../../base/i18n/index.js';

export function librariesOf(s: Snapshot): LibrariesSection | null {
  const l = (s as { libraries?: LibrariesSection }).libraries;
  return l ?? null;
}

export function needsLibraries(s: Snapshot): true | string {
  return librariesOf(s) ? true : t('applies.noLibraries');
}

/** A copy installed with the framework: in its environment's site-packages (pip) or its conda prefix. */
export function isOwnCopy(lib: Consumer, path: string | null, section: LibrariesSection): boolean {
  if (!path || !lib.environment) return false;
  const env = section.environments.find((e) => e.prefix === lib.environment);
  const roots = env ? [...env.sitePackages, `${env.prefix}/lib`] : [lib.environment];
  return roots.some((r) => path.startsWith(`${r}/`));
}

/** LD_LIBRARY_PATH without the given folders; null when nothing would be left (then: unset it). */
export function ldLibraryPathWithout(section: LibrariesSection, drop: readonly string[]): string | null {
  const norm = (d: string) => nodePath.posix.normalize(d).replace(/\/$/, '');
  const dropSet = new Set(drop.map(norm));
  const kept = section.ldLibraryPath.filter((d) => !dropSet.has(norm(d)));
  return kept.length > 0 ? kept.join(':') : null;
}

/** The LD_LIBRARY_PATH entry a file was found in (the folder, or the folder above a glibc-hwcaps subfolder). */
export function ldLibraryPathDirOf(section: LibrariesSection, path: string): string | null {
  const dir = nodePath.posix.dirname(path).replace(/\/glibc-hwcaps\/[^/]+$/, '');
  return section.ldLibraryPath.find((d) => nodePath.posix.normalize(d).replace(/\/$/, '') === dir) ?? null;
}

export function fixWithoutDirs(section: LibrariesSection, dirs: readonly string[]): string[] {
  const rest = ldLibraryPathWithout(section, dirs);
  return rest === null ? ['unset LD_LIBRARY_PATH'] : [`export LD_LIBRARY_PATH=${shellQuote(rest)}`];
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

export const FAMILY_LABEL: Record<string, string> = {
  libcudnn: 'cuDNN',
  libcudart: 'CUDA runtime',
  libcublas: 'cuBLAS',
  libcublasLt: 'cuBLASLt',
  libcufft: 'cuFFT',
  libcusparse: 'cuSPARSE',
  libcurand: 'cuRAND',
  libcusolver: 'cuSOLVER',
  libnccl: 'NCCL',
  libnvrtc: 'NVRTC',
  libnvJitLink: 'nvJitLink',
  libcuda: 'the driver library libcuda',
  'libnvidia-ml': 'NVML',
};

export function label(family: string | null): string {
  if (!family) return t('lib.library');
  if (family === 'libcudart') return t('lib.cudart');
  if (family === 'libcuda') return t('lib.libcuda');
  return FAMILY_LABEL[family] ?? (family.startsWith('libcudnn_') ? t('lib.sublibrary', { family }) : family);
}

export const FRAMEWORK_LABEL: Record<string, string> = {
  torch: 'PyTorch',
  tensorflow: 'TensorFlow',
  jax: 'JAX',
  cupy: 'CuPy',
};

export function consumerLabel(c: Consumer): string {
  return c.framework ? FRAMEWORK_LABEL[c.framework]! : nodePath.posix.basename(c.path);
}

export function viaText(
  r: Pick<ResolvedLibrary, 'via' | 'firstVia' | 'how' | 'requestedBy'> & {
    preloadFrom?: ResolvedLibrary['preloadFrom'];
  },
  c?: Consumer,
): string {
  switch (r.via) {
    case 'ld_preload':
      return r.preloadFrom ?? 'LD_PRELOAD';
    case 'preloaded':
      return `preloaded by path${c?.framework ? ` by ${FRAMEWORK_LABEL[c.framework]}'s Python code` : ''}`;
    case 'already_loaded':
      return `already loaded${r.firstVia ? ` (found first via ${r.firstVia.replace(/_/g, ' ')})` : ''}`;
    case 'rpath':
      return 'DT_RPATH';
    case 'runpath':
      return 'DT_RUNPATH';
    case 'ld_library_path':
      return 'LD_LIBRARY_PATH';
    case 'ld_cache':
      return 'the ld cache (/etc/ld.so.cache)';
    case 'default':
      return 'a default folder';
    case 'path':
      return 'an explicit path';
    case 'not_found':
      return 'not found';
  }
}

export function versionText(v: string | null): string {
  return v ?? t('lib.versionUnknown');
}
