// memory.headroom: is there room for a convolution job to start? cuDNN's algorithm search and workspace
// briefly need far more than the steady state; with under ~2 GiB free the first conv fails with the
// misleading "Failed to get convolution algorithm" / CUDNN_STATUS_NOT_INITIALIZED.
import { finding, type Finding } from '../../core/finding.js';
import { fmtMiB } from '../../core/format.js';
import { verdictOf } from '../../procs/verdict.js';
import type { HolderProcess, Snapshot } from '../../snapshot/schema.js';
import { holderFrameworkLabel, holderPolicy, type HolderPolicy } from '../../procs/framework.js';
import type { Check } from '../check.js';

/** cuDNN workspace + a CUDA context: plan for at least this much free before a conv job starts. */
export const MIN_FREE_MIB = 2048;

export const headroomCheck: Check = {
  id: 'memory.headroom',
  category: 'memory',
  title: 'Free GPU memory',
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.length > 0 ? true : 'no GPU'),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    const roomy = s.nvidia.gpus.filter((g) => g.memory.freeMiB >= MIN_FREE_MIB).map((g) => g.index);
    for (const g of s.nvidia.gpus) {
      const holders = s.processes.list
        .filter((p) => p.gpus.includes(g.index) && (p.usedMiB ?? 0) > 0)
        .sort((a, b) => (b.usedMiB ?? 0) - (a.usedMiB ?? 0));
      const names = holders.map((p) => `PID ${p.pid} ${p.name ?? ''} (${[holderFrameworkLabel(p), p.user ?? '?', verdictOf(p, s.self)].filter(Boolean).join(', ')}) ${fmtMiB(p.usedMiB)}`.replace(/\s+/g, ' '));
      // What each holder's framework does with its memory (from its mapped files): it decides the fix.
      const policies = holders
        .filter((p) => !p.isSelfOrAncestor)
        .map((p) => ({ p, policy: holderPolicy(p, g.memory.totalMiB) }))
        .filter((x): x is { p: HolderProcess; policy: HolderPolicy } => x.policy !== null);
      const policyEvidence = policies.map(({ p, policy }) => ({ text: `PID ${p.pid}: ${policy.summary}`, source: `/proc/${p.pid}/maps${p.framework?.env ? `, /proc/${p.pid}/environ` : ''}` }));
      if (g.memory.freeMiB >= MIN_FREE_MIB) {
        const reserve = policies.find(({ p, policy }) => policy.reserve && (p.usedMiB ?? 0) >= g.memory.totalMiB * 0.25);
        out.push(
          finding({
            check: this.id,
            severity: 'info',
            status: 'ok',
            rootCause: null,
            message: `GPU ${g.index} ${g.name}: ${fmtMiB(g.memory.freeMiB)} free of ${fmtMiB(g.memory.totalMiB)}${reserve ? ` (PID ${reserve.p.pid}, ${holderFrameworkLabel(reserve.p)}, reserves ${fmtMiB(reserve.p.usedMiB)} up front)` : ''}`,
            evidence: [{ text: `total ${g.memory.totalMiB} MiB, used ${g.memory.usedMiB} MiB, free ${g.memory.freeMiB} MiB`, source: 'nvidia-smi -q -x' }, ...policyEvidence],
            affects: { gpu: g.index },
          }),
        );
        continue;
      }
      const reserves = policies.filter(({ policy }) => policy.reserve);
      out.push(
        finding({
          check: this.id,
          // An error only when no GPU of this machine has room: then a job here will fail.
          severity: roomy.length === 0 ? 'error' : 'warn',
          status: 'fail',
          rootCause: holders.length > 0 ? 'memory_held_by_other_process' : 'gpu_memory_exhausted',
          message: `GPU ${g.index}: only ${fmtMiB(g.memory.freeMiB)} free of ${fmtMiB(g.memory.totalMiB)}; a convolution job needs ${fmtMiB(MIN_FREE_MIB)} or more to start (cuDNN workspace)`,
          details: holders.length > 0 ? `Held by: ${names.join('; ')}` : 'No listed process holds it: see memory.unattributed.',
          evidence: [
            { text: `total ${g.memory.totalMiB} MiB, used ${g.memory.usedMiB} MiB, free ${g.memory.freeMiB} MiB`, source: 'nvidia-smi -q -x' },
            ...names.map((n) => ({ text: n, source: 'nvidia-smi + /proc' })),
            ...policyEvidence,
          ],
          affects: { gpu: g.index, ...(holders[0] ? { pid: holders[0].pid } : {}) },
          fix: {
            text:
              holders.length > 0
                ? `Free the memory (end the holders you own; gpu-env-doctor procs shows which are stale)${roomy.length > 0 ? `, or run on GPU ${roomy.join(' or ')}, which has room` : ''}.${reserves.map(({ p, policy }) => ` PID ${p.pid} runs ${holderFrameworkLabel(p)}, whose ${fmtMiB(p.usedMiB)} is mostly a reserve taken up front: ${policy.remedy}.`).join('')}`
                : `Find what holds it on the host: another container or VM may share this GPU${roomy.length > 0 ? `; GPU ${roomy.join(' or ')} has room` : ''}.`,
            // A UUID, not an index: CUDA's index order can differ from nvidia-smi's (CUDA_DEVICE_ORDER).
            commands: roomy.length > 0 ? [`export CUDA_VISIBLE_DEVICES=${s.nvidia.gpus.find((x) => x.index === roomy[0])?.uuid ?? roomy[0]}`, 'gpu-env-doctor procs'] : ['gpu-env-doctor procs'],
          },
        }),
      );
    }
    return out;
  },
};
