// memory.unattributed: memory in use that no visible process accounts for — another container, the host,
// or a process that holds /dev/nvidia* open without a context nvidia-smi reports.
import { finding, type Finding } from '../../core/finding.js';
import { fmtMiB } from '../../core/format.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

/** The driver keeps a little for itself even on an idle GPU; ignore differences below this. */
export const SLACK_MIB = 1024;

export const unattributedCheck: Check = {
  id: 'memory.unattributed',
  category: 'memory',
  title: 'Memory with no visible owner',
  applies: (s) => (s.nvidia.ok ? true : 'no GPU information'),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const listed = g.processes.reduce((a, p) => a + (p.usedMiB ?? 0), 0);
      const missing = g.memory.usedMiB - listed;
      const invisible = s.processes.list.filter((p) => p.gpus.includes(g.index) && !p.visible);
      if (missing > SLACK_MIB) {
        const deviceOnly = s.processes.list.filter((p) => !p.listedByNvidiaSmi && p.holdsDeviceFiles && !p.isSelfOrAncestor);
        out.push(
          finding({
            check: this.id,
            severity: 'warn',
            status: 'warn',
            rootCause: 'memory_held_by_other_process',
            message: `GPU ${g.index}: ${fmtMiB(missing)} in use that no listed process accounts for`,
            details:
              g.processes.length === 0
                ? 'nvidia-smi lists no process, yet memory is in use: typical of another container or VM sharing the GPU, or of a PID namespace nvidia-smi cannot map.'
                : 'nvidia-smi lists fewer megabytes than are in use: the rest belongs to processes it cannot see from here.',
            evidence: [
              { text: `used ${fmtMiB(g.memory.usedMiB)}, listed processes ${fmtMiB(listed)}`, source: 'nvidia-smi -q -x' },
              ...deviceOnly.map((p) => ({ text: `PID ${p.pid} (${p.name ?? '?'}, ${p.user ?? '?'}) has /dev/nvidia* open but is not listed`, source: `/proc/${p.pid}/fd` })),
            ],
            affects: { gpu: g.index },
            fix: {
              text: 'Find the owner on the host (not inside a container): who has the device files open.',
              commands: ['nvidia-smi', 'sudo fuser -v /dev/nvidia*'],
            },
          }),
        );
      }
      for (const p of invisible) {
        out.push(
          finding({
            check: this.id,
            severity: 'warn',
            status: 'warn',
            rootCause: 'memory_held_by_other_process',
            message: `GPU ${g.index}: PID ${p.pid} holds ${fmtMiB(p.usedMiB)} but is not in this /proc (another container or the host)`,
            evidence: [{ text: `PID ${p.pid} listed by nvidia-smi with ${fmtMiB(p.usedMiB)}; /proc/${p.pid} does not exist here`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index, pid: p.pid },
            fix: { text: 'nvidia-smi reports host PIDs. Look for this PID on the host, or ask whoever runs the other container.', commands: [] },
          }),
        );
      }
    }
    return out;
  },
};
