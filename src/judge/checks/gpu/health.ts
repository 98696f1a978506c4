// gpu.health: ECC errors, retired pages, row remapping — the hardware faults that look like software bugs.
import { fail, ok, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { joinList, t } from '../../../base/i18n/index.js';

export const healthCheck: Check = {
  id: 'gpu.health',
  category: 'gpu',
  get title() {
    return t('title.gpu.health');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.length > 0 ? true : t('gpu.health.noGpu')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const problems: string[] = [];
      if ((g.ecc.volatileUncorrected ?? 0) > 0)
        problems.push(t('gpu.health.ecc', { n: g.ecc.volatileUncorrected ?? 0 }));
      if (g.retiredPages.pendingRetirement === 'Yes') problems.push(t('gpu.health.retirementPending'));
      if (g.remappedRows.pending === 'Yes') problems.push(t('gpu.health.remapPending'));
      if (g.remappedRows.failure === 'Yes') problems.push(t('gpu.health.remapFailed'));
      if (problems.length === 0) {
        if ((g.ecc.aggregateUncorrected ?? 0) > 0) {
          out.push(
            ok({
              check: this.id,
              message: t('gpu.health.lifetime', { gpu: g.index, n: g.ecc.aggregateUncorrected ?? 0 }),
              evidence: [{ text: `aggregate uncorrectable ${g.ecc.aggregateUncorrected}`, source: 'nvidia-smi -q -x' }],
              affects: { gpu: g.index },
            }),
          );
        }
        continue;
      }
      out.push(
        fail({
          check: this.id,
          severity: 'error',
          rootCause: 'hardware_or_driver_fault',
          message: t('gpu.health.problems', { gpu: g.index, name: g.name, problems: joinList(problems) }),
          evidence: [
            {
              text:
                `ECC volatile uncorrectable ${g.ecc.volatileUncorrected ?? 'n/a'}, pending retirement ` +
                `${g.retiredPages.pendingRetirement ?? 'n/a'}, remap pending ${g.remappedRows.pending ?? 'n/a'}, ` +
                `remap failure ${g.remappedRows.failure ?? 'n/a'}`,
              source: 'nvidia-smi -q -x',
            },
          ],
          affects: { gpu: g.index },
          fix: {
            text: t('gpu.health.fix'),
            commands: ['nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER', 'dmesg | grep -i xid | tail -20'],
            manual: [`sudo nvidia-smi -r -i ${g.index}`],
          },
        }),
      );
    }
    return out;
  },
};
