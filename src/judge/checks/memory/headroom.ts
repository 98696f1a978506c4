// memory.headroom: is there room for a job to start? cuDNN's algorithm search and workspace briefly need far
// more than the steady state; with little free, a real training job fails with out-of-memory or the misleading
// "Failed to get convolution algorithm" / CUDNN_STATUS_NOT_INITIALIZED. What the lab GPU showed (truth table run 1,
// docs/evidence/truth): with 1.2 GiB free a tiny JAX convolution still ran, and with ~700 MiB free a tiny torch
// convolution ran (a new CUDA context plus cuDNN took ~516 MiB there). So below MIN_FREE_MIB it is a warning
// about jobs that need more; only below CONTEXT_FLOOR_MIB is it certain that no GPU job can start.
// When a GPU is short, this one finding names every holder with its verdict (memory.holders then leaves
// those holders alone: one cause, one finding), and its fix leads with `gpu-env-doctor fix` when ending
// stale holders would free the memory.
import { fail, ok, type Finding } from '../../finding.js';
import { fmtAge, fmtCmdline, fmtMiB } from '../../../base/format.js';
import { assess, fixMayEnd, isStale, manualKill } from '../../procs/verdict.js';
import type { HolderProcess, Snapshot } from '../../../gather/snapshot/schema.js';
import { holderFrameworkLabel, holderPolicy, type HolderPolicy } from '../../../gather/procfs/framework.js';
import type { Check } from '../check.js';
import { gpusToMoveTo, MIN_ROOM_MIB, visibleDevicesLine } from '../../free-gpus.js';
import { t } from '../../../base/i18n/index.js';

/** cuDNN workspace + a CUDA context: plan for at least this much free before a conv job starts. */
export const MIN_FREE_MIB = MIN_ROOM_MIB;
/** A new CUDA context plus cuDNN took ~516 MiB in the lab (gpu-lab/proto smoke test beside hog.py keeping
 *  700 MiB: 184 MB left inside the process): below this no GPU job can start. */
export const CONTEXT_FLOOR_MIB = 512;

/** GPUs with less than MIN_FREE_MIB free: memory.headroom reports them (and their holders). */
export function shortGpus(s: Snapshot): number[] {
  return s.nvidia.ok ? s.nvidia.gpus.filter((g) => g.memory.freeMiB < MIN_FREE_MIB).map((g) => g.index) : [];
}

/** One line per holder: who (and the framework its mapped files show), how much, the verdict and why, what it runs. */
export function holderLine(s: Snapshot, p: HolderProcess): { text: string; source: string } {
  const { verdict: v, reason } = assess(p, s.self);
  const who =
    `PID ${p.pid}${p.name ? ` ${p.name}` : ''} ` +
    `(${[p.user ?? '?', holderFrameworkLabel(p)].filter(Boolean).join(', ')})`;
  const life = { age: fmtAge(p.ageSeconds), cpu: p.cpuSeconds?.toFixed(1) ?? '?', cmd: fmtCmdline(p.cmdline) };
  return {
    text: t(p.visible ? 'memory.holderLineLife' : 'memory.holderLine', {
      who,
      mib: fmtMiB(p.usedMiB),
      verdict: t(`verdict.${v}` as const),
      reason,
      ...life,
    }),
    source: p.visible ? `nvidia-smi -q -x, /proc/${p.pid}` : 'nvidia-smi -q -x',
  };
}

export const headroomCheck: Check = {
  id: 'memory.headroom',
  category: 'memory',
  get title() {
    return t('title.memory.headroom');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.length > 0 ? true : t('memory.noGpu')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    const roomy = s.nvidia.gpus.filter((g) => g.memory.freeMiB >= MIN_FREE_MIB);
    for (const g of s.nvidia.gpus) {
      const memory = {
        // one spelling of a GPU's memory in every output: fmtMiB's
        text: t('memory.totalsGiB', {
          total: fmtMiB(g.memory.totalMiB),
          used: fmtMiB(g.memory.usedMiB),
          free: fmtMiB(g.memory.freeMiB),
        }),
        source: 'nvidia-smi -q -x',
      };
      const holders = s.processes.list
        .filter((p) => p.gpus.includes(g.index) && (p.usedMiB ?? 0) > 0)
        .sort((a, b) => (b.usedMiB ?? 0) - (a.usedMiB ?? 0));
      // What each holder's framework does with its memory (from its mapped files): it decides the fix.
      const policies = holders
        .filter((p) => !p.isSelfOrAncestor)
        .map((p) => ({ p, policy: holderPolicy(p, g.memory.totalMiB) }))
        .filter((x): x is { p: HolderProcess; policy: HolderPolicy } => x.policy !== null);
      const policyEvidence = policies.map(({ p, policy }) => ({
        text: `PID ${p.pid}: ${policy.summary}`,
        source: `/proc/${p.pid}/maps${p.framework?.env ? `, /proc/${p.pid}/environ` : ''}`,
      }));
      if (g.memory.freeMiB >= MIN_FREE_MIB) {
        const reserve = policies.find(
          ({ p, policy }) => policy.reserve && (p.usedMiB ?? 0) >= g.memory.totalMiB * 0.25,
        );
        out.push(
          ok({
            check: this.id,
            message: reserve
              ? t('memory.freeOkReserve', {
                  gpu: g.index,
                  name: g.name,
                  free: fmtMiB(g.memory.freeMiB),
                  total: fmtMiB(g.memory.totalMiB),
                  pid: reserve.p.pid,
                  fw: holderFrameworkLabel(reserve.p) ?? '?',
                  reserved: fmtMiB(reserve.p.usedMiB),
                })
              : t('memory.freeOk', {
                  gpu: g.index,
                  name: g.name,
                  free: fmtMiB(g.memory.freeMiB),
                  total: fmtMiB(g.memory.totalMiB),
                }),
            evidence: [memory, ...policyEvidence],
            affects: { gpu: g.index },
          }),
        );
        continue;
      }
      const verdicts = holders.map((p) => {
        const a = assess(p, s.self);
        return { p, v: a.verdict, a };
      });
      // fix ends only what is provably stale and not protected; an "unknown" holder gets a by-hand step.
      const endable = verdicts.filter(({ a }) => fixMayEnd(a));
      const unknown = verdicts.filter(({ a }) => a.verdict === 'unknown' && a.protectedBy === undefined);
      const zombies = verdicts.filter(({ v }) => v === 'zombie');
      const reserves = policies.filter(({ policy }) => policy.reserve);
      // the GPU to move to, by the rule serve's "Free now" and every other output use, spelled by one line
      const moveTo = gpusToMoveTo(s).filter((x) => x.index !== g.index);
      const line = visibleDevicesLine(moveTo.slice(0, 1));
      const elsewhere = line ? [line] : [];
      const otherGpu =
        moveTo.length > 0
          ? t(moveTo.length === 1 ? 'memory.otherGpu' : 'memory.otherGpuFree', {
              gpus: moveTo.map((x) => x.index).join(t('list.comma')),
              first: moveTo[0]!.index,
            })
          : '';
      const kinds = [...new Set(endable.map(({ v }) => t(`verdict.${v}` as const)))].join(t('list.comma'));
      const pidsOf = (list: typeof verdicts): string => list.map(({ p }) => `PID ${p.pid}`).join(', ');
      let text: string;
      if (holders.length === 0) text = `${t('memory.noHolder')}${otherGpu}`;
      else if (endable.length === verdicts.length)
        text = `${t('memory.allLeftovers', { n: endable.length, verdicts: kinds })}${otherGpu}`;
      else if (endable.length > 0) text = `${t('memory.someLeftovers', { pids: pidsOf(endable) })}${otherGpu}`;
      else if (unknown.length > 0)
        text = `${t('memory.unknownHolders', { pids: pidsOf(unknown), n: unknown.length })}${otherGpu}`;
      else text = `${t('memory.working')}${otherGpu}`;
      if (zombies.length > 0)
        text += t('memory.zombieParent', { ppids: zombies.map(({ p }) => p.ppid ?? '?').join(', ') });
      // a holder whose framework reserved most of it up front would need far less if started differently
      text += reserves
        .map(({ p, policy }) =>
          t('memory.reserveHolder', {
            pid: p.pid,
            fw: holderFrameworkLabel(p) ?? '?',
            mib: fmtMiB(p.usedMiB),
            remedy: policy.remedy,
          }),
        )
        .join('');
      out.push(
        fail({
          check: this.id,
          // An error only when nothing can start here and no GPU of this machine has room; between the floor and
          // MIN_FREE_MIB small jobs still run (seen in the lab), so it is a warning about the ones that need more.
          severity: roomy.length === 0 && g.memory.freeMiB < CONTEXT_FLOOR_MIB ? 'error' : 'warn',
          rootCause: holders.length > 0 ? 'memory_held_by_other_process' : 'gpu_memory_exhausted',
          message:
            g.memory.freeMiB < CONTEXT_FLOOR_MIB
              ? t('memory.noContext', {
                  gpu: g.index,
                  free: fmtMiB(g.memory.freeMiB),
                  total: fmtMiB(g.memory.totalMiB),
                  floor: fmtMiB(CONTEXT_FLOOR_MIB),
                })
              : t('memory.low', {
                  gpu: g.index,
                  free: fmtMiB(g.memory.freeMiB),
                  total: fmtMiB(g.memory.totalMiB),
                  min: fmtMiB(MIN_FREE_MIB),
                }),
          evidence: [memory, ...holders.map((p) => holderLine(s, p)), ...policyEvidence],
          affects: { gpu: g.index, ...(holders[0] ? { pid: holders[0].pid } : {}) },
          fix: {
            text,
            commands: [
              ...(endable.length > 0 || zombies.length > 0 ? ['gpu-env-doctor fix'] : []),
              ...elsewhere,
              ...verdicts
                .filter(({ v }) => !isStale(v))
                .map(({ p }) => `ps -o pid,ppid,user,etime,stat,cmd -p ${p.pid}`),
            ],
            ...(endable.length + unknown.length > 0
              ? { manual: [...endable, ...unknown].map(({ p, a }) => manualKill(p.pid, a)!) }
              : {}),
          },
        }),
      );
    }
    return out;
  },
};
