// memory.holders: memory held by processes that are not doing work for anyone (orphaned, stopped,
// zombie, long idle), by other users, or by processes this machine cannot see (another container).
import { finding, type Finding } from '../../core/finding.js';
import { fmtAge, fmtCmdline, fmtMiB } from '../../core/format.js';
import { isStale, verdictOf, verdictReason, type Verdict } from '../../procs/verdict.js';
import type { HolderProcess, Snapshot } from '../../snapshot/schema.js';
import { holderFrameworkLabel, holderPolicy } from '../../procs/framework.js';
import type { Check } from '../check.js';

/** Under this, a holder is not worth a finding: a CUDA context alone costs ~500 MiB. */
export const NOTABLE_MIB = 256;

export const holdersCheck: Check = {
  id: 'memory.holders',
  category: 'memory',
  title: 'Processes holding GPU memory',
  applies: (s) => (s.nvidia.ok ? true : 'no GPU information'),
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const p of s.processes.list) {
      if (!p.listedByNvidiaSmi && !p.holdsDeviceFiles) continue;
      const v = verdictOf(p, s.self);
      if (v === 'this job' || v === 'active') continue;
      if (!p.listedByNvidiaSmi) continue; // device-file-only holders: see memory.unattributed
      if ((p.usedMiB ?? 0) < NOTABLE_MIB && v !== 'zombie') continue;
      out.push(holderFinding(s, p, v));
    }
    return out;
  },
};

function holderFinding(s: Snapshot, p: HolderProcess, v: Verdict): Finding {
  const gpuText = p.gpus.length > 0 ? `GPU ${p.gpus.join(', ')}` : 'the GPU';
  const who = `PID ${p.pid}${p.user ? ` (${p.user})` : ''}`;
  const stale = isStale(v);
  const killable = stale && v !== 'zombie';
  const total = s.nvidia.ok ? (s.nvidia.gpus.find((g) => g.index === p.gpus[0])?.memory.totalMiB ?? null) : null;
  const policy = holderPolicy(p, total);
  const evidence = [
    { text: `${who} holds ${fmtMiB(p.usedMiB)} on ${gpuText}`, source: 'nvidia-smi -q -x' },
    ...(policy ? [{ text: policy.summary, source: `/proc/${p.pid}/maps${p.framework?.env ? `, /proc/${p.pid}/environ` : ''}` }] : []),
    ...(p.visible
      ? [{ text: `state ${p.state ?? '?'}, parent ${p.ppid ?? '?'} (${p.parentName ?? '?'}), started ${fmtAge(p.ageSeconds)} ago, ${p.cpuSeconds?.toFixed(1) ?? '?'} s of CPU: ${fmtCmdline(p.cmdline)}`, source: `/proc/${p.pid}/stat, /proc/${p.pid}/cmdline` }]
      : []),
  ];
  const fixText =
    v === 'zombie'
      ? `A zombie holds nothing itself, but its parent (PID ${p.ppid ?? '?'}) may: end or restart the parent.`
      : v === 'stopped'
        ? `It was stopped (Ctrl-Z) and keeps its memory. Resume it in its shell with \`fg\`, or end it.`
        : v === 'other user'
          ? `Ask ${p.user ?? 'its owner'} to end it, or use another GPU${s.nvidia.ok && s.nvidia.gpus.length > 1 ? ' (CUDA_VISIBLE_DEVICES)' : ''}.`
          : v === 'invisible'
            ? 'It is not visible from here (another container or the host). Look on the host: `nvidia-smi` there, or `fuser -v /dev/nvidia*`.'
            : `End it if it is yours and no longer needed (gpu-env-doctor fix does this safely).`;
  return finding({
    check: 'memory.holders',
    severity: stale || v === 'other user' || v === 'invisible' ? 'warn' : 'info',
    status: 'warn',
    rootCause: 'memory_held_by_other_process',
    message: `${who}${p.framework ? `, ${holderFrameworkLabel(p)},` : ''} holds ${fmtMiB(p.usedMiB)} on ${gpuText}: ${verdictReason(p, v)}`,
    evidence,
    affects: { pid: p.pid, ...(p.gpus[0] !== undefined ? { gpu: p.gpus[0] } : {}) },
    fix: {
      text: policy && (v === 'other user' || v === 'invisible' || v === 'idle') ? `${fixText} If it must keep running: ${policy.remedy}.` : fixText,
      commands: [`ps -o pid,ppid,user,etime,stat,cmd -p ${p.pid}`],
      ...(killable ? { manual: [v === 'stopped' ? `kill -CONT ${p.pid}; kill ${p.pid}` : `kill ${p.pid}`] } : {}),
    },
  });
}
