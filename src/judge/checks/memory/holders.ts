// memory.holders: memory held by processes that are not doing work for anyone (orphaned, stopped,
// zombie, long idle), by other users, or by processes this machine cannot see (another container).
// A holder on a GPU that is short of memory is reported by memory.headroom (with its verdict and the fix):
// one cause, one finding. This check speaks of holders on GPUs that still have room.
import { warn, type Finding } from '../../finding.js';
import { fmtAge, fmtCmdline, fmtMiB } from '../../../base/format.js';
import { assess, fixMayEnd, isStale, manualKill, type Verdict } from '../../procs/verdict.js';
import type { HolderProcess, Snapshot } from '../../../gather/snapshot/schema.js';
import { holderFrameworkLabel, holderPolicy } from '../../../gather/procfs/framework.js';
import type { Check } from '../check.js';
import { shortGpus } from './headroom.js';
import { t } from '../../../base/i18n/index.js';

/** Under this, a holder is not worth a finding: a CUDA context alone costs ~500 MiB. */
export const NOTABLE_MIB = 256;

export const holdersCheck: Check = {
  id: 'memory.holders',
  category: 'memory',
  get title() {
    return t('title.memory.holders');
  },
  applies: (s) => (s.nvidia.ok ? true : t('memory.noGpuInfo')),
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const short = new Set(shortGpus(s));
    for (const p of s.processes.list) {
      if (p.listedByNvidiaSmi && p.gpus.length > 0 && p.gpus.every((g) => short.has(g))) continue; // in memory.headroom
      if (!p.listedByNvidiaSmi && !p.holdsDeviceFiles) continue;
      const { verdict: v, reason, protectedBy } = assess(p, s.self);
      if (v === 'this job' || v === 'active') continue;
      if (!p.listedByNvidiaSmi) continue; // device-file-only holders: see memory.unattributed
      if ((p.usedMiB ?? 0) < NOTABLE_MIB && v !== 'zombie') continue;
      out.push(holderFinding(s, p, v, reason, protectedBy !== undefined));
    }
    return out;
  },
};

function holderFinding(s: Snapshot, p: HolderProcess, v: Verdict, reason: string, isProtected: boolean): Finding {
  const gpuText = p.gpus.length > 0 ? `GPU ${p.gpus.join(', ')}` : t('holders.theGpu');
  const who = `PID ${p.pid}${p.user ? ` (${p.user})` : ''}`;
  const stale = isStale(v);
  const a = { verdict: v, ...(isProtected ? { protectedBy: 'protected' } : {}) };
  const kill = manualKill(p.pid, a);
  const total = s.nvidia.ok ? (s.nvidia.gpus.find((g) => g.index === p.gpus[0])?.memory.totalMiB ?? null) : null;
  const policy = holderPolicy(p, total);
  const evidence = [
    { text: t('holders.holdsOn', { who, mib: fmtMiB(p.usedMiB), gpu: gpuText }), source: 'nvidia-smi -q -x' },
    ...(policy
      ? [{ text: policy.summary, source: `/proc/${p.pid}/maps${p.framework?.env ? `, /proc/${p.pid}/environ` : ''}` }]
      : []),
    ...(p.visible
      ? [
          {
            text: t('holders.stateLine', {
              state: p.state ?? '?',
              ppid: p.ppid ?? '?',
              parent: p.parentName ?? '?',
              age: fmtAge(p.ageSeconds),
              cpu: p.cpuSeconds?.toFixed(1) ?? '?',
              cmd: fmtCmdline(p.cmdline),
            }),
            source: `/proc/${p.pid}/stat, /proc/${p.pid}/cmdline`,
          },
        ]
      : []),
  ];
  const fixText = fixTextFor(s, p, v, isProtected);
  return warn({
    check: 'memory.holders',
    severity: stale || v === 'other user' || v === 'invisible' || v === 'unknown' ? 'warn' : 'info',
    rootCause: 'memory_held_by_other_process',
    message: p.framework
      ? t('holders.messageFw', {
          who,
          fw: holderFrameworkLabel(p) ?? '?',
          mib: fmtMiB(p.usedMiB),
          gpu: gpuText,
          reason,
        })
      : t('holders.message', { who, mib: fmtMiB(p.usedMiB), gpu: gpuText, reason }),
    evidence,
    affects: { pid: p.pid, ...(p.gpus[0] !== undefined ? { gpu: p.gpus[0] } : {}) },
    fix: {
      text:
        policy && (v === 'other user' || v === 'invisible' || v === 'idle')
          ? t('holders.mustKeep', { fix: fixText, remedy: policy.remedy })
          : fixText,
      commands: [...(fixMayEnd(a) ? ['gpu-env-doctor fix'] : []), `ps -o pid,ppid,user,etime,stat,cmd -p ${p.pid}`],
      ...(kill ? { manual: [kill] } : {}),
    },
  });
}

function fixTextFor(s: Snapshot, p: HolderProcess, v: Verdict, isProtected: boolean): string {
  if (p.gpuNotOpenHere) return t('holders.fixOtherNs');
  if (isProtected) return t('holders.fixProtected');
  switch (v) {
    case 'zombie':
      return t('holders.fixZombie', { ppid: p.ppid ?? '?' });
    case 'stopped':
      return t('holders.fixStopped');
    case 'other user':
      return t(s.nvidia.ok && s.nvidia.gpus.length > 1 ? 'holders.fixOtherUserCvd' : 'holders.fixOtherUser', {
        user: p.user ?? t('holders.itsOwner'),
      });
    case 'invisible':
      return t('holders.fixInvisible');
    case 'unknown':
      return t('holders.fixUnknown');
    default:
      return t('holders.fixDefault');
  }
}
