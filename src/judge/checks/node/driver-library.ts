// node.driver-library: the user-space driver files the frameworks load (libcuda, libnvidia-ml) against the kernel
// module that is loaded (/proc/driver/nvidia/version). They must be the same release: after a driver upgrade
// without a reboot the new files meet the old module, and NVML says "Driver/library version mismatch".
import { fail, ok, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { librariesOf } from '../libraries/common.js';
import { t } from '../../../base/i18n/index.js';

export const driverLibraryCheck: Check = {
  id: 'node.driver-library',
  category: 'gpu',
  get title() {
    return t('title.node.driver-library');
  },
  applies: (s) =>
    !s.system.kernelModule?.version ? t('node.noModule') : librariesOf(s) ? true : t('applies.noLibraries'),
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const kernel = s.system.kernelModule!.version!;
    const files = new Map<string, { family: string; version: string; path: string }>();
    for (const c of lib.consumers) {
      for (const r of c.resolved) {
        if ((r.family !== 'libcuda' && r.family !== 'libnvidia-ml') || !r.realPath || !r.version) continue;
        // a forward-compatibility libcuda is meant to differ (libs.compat-libcuda judges it)
        if (lib.copies.find((k) => k.path === r.realPath)?.origin === 'compat') continue;
        files.set(r.realPath, { family: r.family, version: r.version, path: r.realPath });
      }
    }
    const bad = [...files.values()].filter((f) => f.version !== kernel);
    if (bad.length === 0) {
      if (files.size === 0) return [];
      return [
        ok({
          check: this.id,
          message: t('node.driverLibrary.ok', { version: kernel }),
          evidence: [...files.values()].map((f) => ({ text: `${f.path} (${f.version})`, source: 'loader emulation' })),
        }),
      ];
    }
    return bad.map((f) =>
      fail({
        check: this.id,
        severity: 'error',
        rootCause: 'hardware_or_driver_fault',
        message: t('node.driverLibrary.mismatch', { lib: f.family, version: f.version, path: f.path, kernel }),
        consequences: [
          f.family === 'libnvidia-ml'
            ? {
                outcome: 'fails',
                certainty: 'verified',
                text: t('node.driverLibrary.nvml'),
                source:
                  'NVIDIA/nvidia-container-toolkit and NVIDIA/k8s-device-plugin issue threads: "Failed to initialize ' +
                  'NVML: Driver/library version mismatch" after a driver upgrade without reboot',
              }
            : {
                outcome: 'fails',
                certainty: 'expected',
                text: t('node.driverLibrary.cuda'),
                source:
                  'CUDA driver API: cuInit checks the kernel module version (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, 803)',
              },
        ],
        evidence: [
          { text: s.system.kernelModule!.line, source: '/proc/driver/nvidia/version' },
          { text: `${f.path} (${f.version})`, source: 'loader emulation: the file the frameworks load' },
        ],
        affects: { library: f.family },
        fix: {
          text: t('node.driverLibrary.fix'),
          commands: ['cat /proc/driver/nvidia/version'],
          manual: ['sudo reboot'],
        },
      }),
    );
  },
};
