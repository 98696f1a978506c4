// memory.unattributed: memory in use that no visible process accounts for — another container, the host,
// or a process that holds /dev/nvidia* open without a context nvidia-smi reports.
import { warn, type Finding } from '../../finding.js';
import { fmtMiB } from '../../../base/format.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

/** The driver keeps a little for itself even on an idle GPU; ignore differences below this. */
export const SLACK_MIB = 1024;

export const unattributedCheck: Check = {
  id: 'memory.unattributed',
  category: 'memory',
  get title() {
    return t('title.memory.unattributed');
  },
  applies: (s) => (s.nvidia.ok ? true : t('memory.noGpuInfo')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const listed = g.processes.reduce((a, p) => a + (p.usedMiB ?? 0), 0);
      const missing = g.memory.usedMiB - listed;
      const invisible = s.processes.list.filter((p) => p.gpus.includes(g.index) && !p.visible);
      if (missing > SLACK_MIB) {
        const deviceOnly = s.processes.list.filter(
          (p) => !p.listedByNvidiaSmi && p.holdsDeviceFiles && !p.isSelfOrAncestor,
        );
        out.push(
          warn({
            check: this.id,
            rootCause: 'memory_held_by_other_process',
            message: t('unattr.missing', { gpu: g.index, mib: fmtMiB(missing) }),
            details: g.processes.length === 0 ? t('unattr.noneListed') : t('unattr.fewer'),
            evidence: [
              {
                text: t('unattr.usedListed', { used: fmtMiB(g.memory.usedMiB), listed: fmtMiB(listed) }),
                source: 'nvidia-smi -q -x',
              },
              ...deviceOnly.map((p) => ({
                text: t('unattr.deviceOnly', { pid: p.pid, name: p.name ?? '?', user: p.user ?? '?' }),
                source: `/proc/${p.pid}/fd`,
              })),
            ],
            affects: { gpu: g.index },
            fix: {
              text: t('unattr.fix'),
              commands: ['nvidia-smi', 'sudo fuser -v /dev/nvidia*'],
            },
          }),
        );
      }
      for (const p of invisible) {
        out.push(
          warn({
            check: this.id,
            rootCause: 'memory_held_by_other_process',
            message: t('unattr.invisible', { gpu: g.index, pid: p.pid, mib: fmtMiB(p.usedMiB) }),
            evidence: [
              {
                text: t('unattr.invisibleEvidence', { pid: p.pid, mib: fmtMiB(p.usedMiB) }),
                source: 'nvidia-smi -q -x',
              },
            ],
            affects: { gpu: g.index, pid: p.pid },
            fix: { text: t('unattr.invisibleFix'), commands: [] },
          }),
        );
      }
    }
    return out;
  },
};
