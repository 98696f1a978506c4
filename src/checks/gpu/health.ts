// gpu.health: ECC errors, retired pages, row remapping — the hardware faults that look like software bugs.
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

export const healthCheck: Check = {
  id: 'gpu.health',
  category: 'gpu',
  title: 'GPU health (ECC, retired pages, row remapping)',
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.length > 0 ? true : 'no GPU'),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const problems: string[] = [];
      if ((g.ecc.volatileUncorrected ?? 0) > 0) problems.push(`${g.ecc.volatileUncorrected} uncorrectable ECC errors since the driver loaded`);
      if (g.retiredPages.pendingRetirement === 'Yes') problems.push('a page retirement is pending (needs a reset)');
      if (g.remappedRows.pending === 'Yes') problems.push('a row remapping is pending (needs a GPU reset)');
      if (g.remappedRows.failure === 'Yes') problems.push('row remapping has failed: the GPU has run out of spare rows');
      if (problems.length === 0) {
        if ((g.ecc.aggregateUncorrected ?? 0) > 0) {
          out.push(
            finding({
              check: this.id,
              severity: 'info',
              status: 'ok',
              rootCause: null,
              message: `GPU ${g.index}: ${g.ecc.aggregateUncorrected} uncorrectable ECC errors over its lifetime, none since the driver loaded`,
              evidence: [{ text: `aggregate uncorrectable ${g.ecc.aggregateUncorrected}`, source: 'nvidia-smi -q -x' }],
              affects: { gpu: g.index },
            }),
          );
        }
        continue;
      }
      out.push(
        finding({
          check: this.id,
          severity: 'error',
          status: 'fail',
          rootCause: 'hardware_or_driver_fault',
          message: `GPU ${g.index} (${g.name}): ${problems.join('; ')}`,
          evidence: [
            {
              text: `ECC volatile uncorrectable ${g.ecc.volatileUncorrected ?? 'n/a'}, pending retirement ${g.retiredPages.pendingRetirement ?? 'n/a'}, remap pending ${g.remappedRows.pending ?? 'n/a'}, remap failure ${g.remappedRows.failure ?? 'n/a'}`,
              source: 'nvidia-smi -q -x',
            },
          ],
          affects: { gpu: g.index },
          fix: {
            text: 'Jobs on this GPU can fail with CUDA errors that look like software bugs. Drain it, reset it when idle (pending retirements and remaps apply at reset), and if errors return, have the hardware checked (DCGM diagnostics).',
            commands: ['nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER', 'dmesg | grep -i xid | tail -20'],
            manual: [`sudo nvidia-smi -r -i ${g.index}`],
          },
        }),
      );
    }
    return out;
  },
};
