// system.platform: what kind of machine this is, and what that changes about what we can see.
import { ok, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const platformCheck: Check = {
  id: 'system.platform',
  category: 'system',
  get title() {
    return t('title.system.platform');
  },
  evaluate(s: Snapshot): Finding[] {
    const sys = s.system;
    const place =
      sys.container.kind === 'none'
        ? t('platform.noContainer')
        : t('platform.inContainer', { kind: sys.container.kind });
    const where = sys.wsl ? t('platform.wslSuffix', { where: place }) : place;
    const out: Finding[] = [
      ok({
        check: this.id,
        message: sys.kernelModule?.version
          ? t('platform.lineModule', {
              os: sys.os ?? t('platform.unknownOs'),
              kernel: sys.kernel ?? '?',
              arch: sys.arch,
              where,
              module: sys.kernelModule.version,
            })
          : t('platform.line', {
              os: sys.os ?? t('platform.unknownOs'),
              kernel: sys.kernel ?? '?',
              arch: sys.arch,
              where,
            }),
        evidence: [
          ...(sys.kernelModule ? [{ text: sys.kernelModule.line, source: '/proc/driver/nvidia/version' }] : []),
          ...sys.container.evidence.map((e) => ({ text: e, source: t('platform.containerDetection') })),
        ],
      }),
    ];
    if (sys.wsl) {
      out.push(
        ok({
          check: this.id,
          message: t('platform.wsl'),
          evidence: [{ text: t('platform.wslEvidence'), source: '/proc/version' }],
        }),
      );
    }
    if (
      sys.container.kind !== 'none' &&
      s.nvidia.ok &&
      s.nvidia.gpus.some((g) => g.memory.usedMiB > 1024) &&
      s.processes.list.every((p) => !p.visible)
    ) {
      out.push(
        ok({
          check: this.id,
          message: t('platform.containerBlind'),
          evidence: [],
        }),
      );
    }
    return out;
  },
};
