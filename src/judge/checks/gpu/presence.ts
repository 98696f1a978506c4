// gpu.presence: the driver answers but lists no GPU, or a GPU is in a mode that hides it from jobs
// (MIG without instances selected, compute mode Prohibited / Exclusive_Process already taken).
import { fail, ok, warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const presenceCheck: Check = {
  id: 'gpu.presence',
  category: 'gpu',
  get title() {
    return t('title.gpu.presence');
  },
  applies: (s) => (s.nvidia.ok ? true : t('gpu.presence.noDriverAnswer')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const gpus = s.nvidia.gpus;
    if (gpus.length === 0) {
      return [
        fail({
          check: this.id,
          severity: 'error',
          rootCause: 'no_device_visible',
          message: t('gpu.presence.none'),
          evidence: [{ text: t('gpu.presence.noneEvidence'), source: 'nvidia-smi -q -x' }],
          fix: { text: t('gpu.presence.noneFix'), commands: ['dmesg | grep -i -E "nvrm|xid" | tail -20'] },
        }),
      ];
    }
    const out: Finding[] = [];
    const names = [...new Set(gpus.map((g) => g.name))];
    out.push(
      ok({
        check: this.id,
        message: gpus[0]?.computeCapability
          ? t('gpu.presence.ok', {
              count: gpus.length,
              names: names.join(' + '),
              cc: [...new Set(gpus.map((g) => g.computeCapability ?? '?'))].join(', '),
              driver: s.nvidia.driverVersion,
              cuda: s.nvidia.cudaVersion ?? '?',
            })
          : t('gpu.presence.okNoCc', {
              count: gpus.length,
              names: names.join(' + '),
              driver: s.nvidia.driverVersion,
              cuda: s.nvidia.cudaVersion ?? '?',
            }),
        evidence: gpus.map((g) => ({
          text: `GPU ${g.index}: ${g.name} ${g.uuid} ${g.busId}`,
          source: 'nvidia-smi -q -x',
        })),
      }),
    );
    for (const g of gpus) {
      if (g.migMode === 'Enabled') {
        out.push(
          warn({
            check: this.id,
            rootCause: 'no_device_visible',
            message: t('gpu.presence.mig', { gpu: g.index }),
            evidence: [{ text: `mig_mode current ${g.migMode}`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index },
            fix: {
              text: t('gpu.presence.migFix'),
              commands: ['nvidia-smi -L'],
              manual: [`sudo nvidia-smi -i ${g.index} -mig 0`],
            },
          }),
        );
      }
      if (g.computeMode === 'Prohibited') {
        out.push(
          fail({
            check: this.id,
            severity: 'error',
            rootCause: 'no_device_visible',
            message: t('gpu.presence.prohibited', { gpu: g.index }),
            evidence: [{ text: `compute_mode ${g.computeMode}`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index },
            fix: {
              text: t('gpu.presence.prohibitedFix'),
              commands: [],
              manual: [`sudo nvidia-smi -i ${g.index} -c DEFAULT`],
            },
          }),
        );
      }
      if (g.computeMode === 'Exclusive_Process' && g.processes.length > 0) {
        out.push(
          warn({
            check: this.id,
            rootCause: 'memory_held_by_other_process',
            message: t('gpu.presence.exclusive', { gpu: g.index, pids: g.processes.map((p) => p.pid).join(', ') }),
            evidence: [{ text: `compute_mode ${g.computeMode}`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index },
            fix: { text: t('gpu.presence.exclusiveFix'), commands: ['gpu-env-doctor procs'] },
          }),
        );
      }
    }
    return out;
  },
};
