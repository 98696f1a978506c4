// libs.compat-libcuda: a forward-compatibility libcuda (cuda-compat, /usr/local/cuda-X/compat) that is older
// than the kernel driver fails every CUDA call with error 803 ("system has unsupported display driver /
// cuda driver combination"). It wins when its folder is in LD_LIBRARY_PATH or the ld cache.
import * as nodePath from 'node:path';
import { fail, ok, unknown, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { compareVersions } from '../../../base/versions.js';
import { consumerLabel, fixWithoutDirs, ldLibraryPathDirOf, librariesOf, needsLibraries } from './common.js';
import { t } from '../../../base/i18n/index.js';

export function kernelDriverVersion(s: Snapshot): { version: string; source: string } | null {
  if (s.system.kernelModule?.version)
    return { version: s.system.kernelModule.version, source: '/proc/driver/nvidia/version' };
  if (s.nvidia.ok) return { version: s.nvidia.driverVersion, source: 'nvidia-smi' };
  return null;
}

export const compatLibcudaCheck: Check = {
  id: 'libs.compat-libcuda',
  category: 'libraries',
  get title() {
    return t('title.libs.compat-libcuda');
  },
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    const kernel = kernelDriverVersion(s);
    const compat = new Map(
      lib.copies.filter((c) => c.origin === 'compat' && c.name === 'libcuda').map((c) => [c.path, c]),
    );
    if (compat.size === 0) return out;
    // Who would use it: consumers resolving libcuda.so.1 to it, processes that mapped it.
    const users = new Map<string, string[]>();
    for (const c of lib.consumers) {
      const r = c.resolved.find((x) => x.family === 'libcuda' && x.realPath && compat.has(x.realPath));
      if (r)
        users.set(r.realPath!, [
          ...(users.get(r.realPath!) ?? []),
          `${consumerLabel(c)} (${c.path}) via ${r.via.replace(/_/g, ' ')}`,
        ]);
    }
    for (const copy of compat.values()) {
      if (copy.links.some((l) => ldLibraryPathDirOf(lib, l)))
        users.set(copy.path, [...(users.get(copy.path) ?? []), 'any CUDA program started with this LD_LIBRARY_PATH']);
    }
    for (const l of lib.loaded) {
      if (compat.has(l.path)) users.set(l.path, [...(users.get(l.path) ?? []), `process ${l.pid} has it mapped`]);
    }
    for (const [path, who] of users) {
      const copy = compat.get(path)!;
      if (!kernel || !copy.version) {
        out.push(
          unknown({
            check: this.id,
            severity: 'warn',
            rootCause: null,
            message: t(kernel ? 'compatcuda.unknownOwn' : 'compatcuda.unknown', { path }),
            evidence: who.map((w) => ({ text: w, source: 'loader emulation' })),
          }),
        );
        continue;
      }
      const cmp = compareVersions(copy.version, kernel.version);
      const llpDir =
        lib.ldLibraryPath.length > 0
          ? ldLibraryPathDirOf(lib, copy.links.find((l) => ldLibraryPathDirOf(lib, l)) ?? path)
          : null;
      const evidence = [
        { text: t('compatcuda.copy', { path, version: copy.version }), source: copy.versionSource ?? 'file name' },
        { text: t('compatcuda.kernel', { version: kernel.version }), source: kernel.source },
        ...who.map((w) => ({ text: t('compatcuda.usedBy', { who: w }), source: 'loader emulation' })),
      ];
      if (cmp < 0) {
        out.push(
          fail({
            check: this.id,
            severity: 'error',
            rootCause: 'driver_too_old',
            message: t('compatcuda.older', { version: copy.version, kernel: kernel.version }),
            details: t('compatcuda.olderDetails'),
            evidence,
            affects: { library: 'libcuda.so.1' },
            fix: llpDir
              ? {
                  text: t('compatcuda.llpFix', { dir: llpDir, kernel: kernel.version }),
                  commands: fixWithoutDirs(lib, [llpDir]),
                }
              : {
                  text: t('compatcuda.cacheFix'),
                  commands: [`grep -rl ${nodePath.posix.dirname(path)} /etc/ld.so.conf.d/`],
                  manual: [
                    'sudo ldconfig',
                    `sudo apt remove ` +
                      `cuda-compat-${/cuda-(\d+)-?(\d+)?/.exec(path)?.slice(1).filter(Boolean).join('-') ?? 'X-Y'}`,
                  ],
                },
          }),
        );
      } else if (cmp > 0) {
        out.push(
          ok({
            check: this.id,
            message: t('compatcuda.ok', { version: copy.version, kernel: kernel.version }),
            evidence,
          }),
        );
      }
    }
    return out;
  },
};
