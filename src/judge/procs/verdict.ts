// What a GPU-holding process is, for the user: the verdict shown by `procs`, used by the memory checks, by
// `run`'s report (through them), and by `fix` to decide what may be ended. The one place that decides. Pure.
//
// A process is stale — a candidate for `fix` — only on positive evidence: it is a zombie, it is stopped by a signal,
// the process that started it has exited (adoption.ts) and nothing shows that it works, serves or detached on purpose
// (leftover.ts), or it has idled for long while its owner is logged out. When nothing shows either way, the verdict is
// "unknown": shown with why, never ended by fix. Some processes are never candidates whatever the facts: this tool and
// its ancestors, PID 1, kernel threads, and a PID that nvidia-smi lists but that has no GPU open here (another
// namespace's PID).
import type { HolderProcess, Snapshot } from '../../gather/snapshot/schema.js';
import { adoptionOf, type Adoption } from './adoption.js';
import { jobPartOf, judgeAdopted } from './leftover.js';
import { t } from '../../base/i18n/index.js';

export type Verdict =
  | 'this job'
  | 'active'
  | 'idle'
  | 'orphaned'
  | 'stopped'
  | 'zombie'
  | 'other user'
  | 'invisible'
  | 'unknown';

/** A process alive for over an hour that used under 1% of a CPU on average holds memory without working. */
export const IDLE_MIN_AGE_S = 3600;
export const IDLE_MAX_CPU_SHARE = 0.01;

/** Using at least this much of a CPU during the probe's sample counts as working: a training loop keeps a core busy,
 *  while a process that only holds memory shows a few % at most (in the lab a hog 7 s old still showed some). */
export const BUSY_MIN_CPU_PERCENT = 25;

export interface Assessment {
  verdict: Verdict;
  /** why, in words, for findings, the procs table and the fix plan */
  reason: string;
  /** set when fix must never signal this process, whatever else is true: why */
  protectedBy?: string;
  /** the technical facts behind the reason (session, fork), for -v and the JSON */
  evidence?: string;
}

/**
 * The MPS control daemon and server: idle-looking daemons under PID 1 by design, through which every CUDA client of
 * the GPU runs; ending one breaks all its clients. /proc's comm cuts both names to "nvidia-cuda-mps".
 */
export function isMps(p: Pick<HolderProcess, 'name'> & { cmdline?: HolderProcess['cmdline'] }): boolean {
  const exe = p.cmdline?.[0]?.split('/').pop() ?? '';
  return /^nvidia-cuda-mps/.test(p.name ?? '') || /^nvidia-cuda-mps-(server|control)$/.test(exe);
}

/** Why fix must never signal this process, or null. Also used by fix on the live facts at apply time. */
export function protectionOf(
  p: Pick<HolderProcess, 'pid' | 'isSelfOrAncestor' | 'kernelThread' | 'gpuNotOpenHere' | 'name' | 'nvidiaSmiPid'> & {
    cmdline?: HolderProcess['cmdline'];
  },
): string | null {
  if (p.isSelfOrAncestor) return t('protect.self');
  if (p.pid <= 1) return t('protect.pid1');
  if (p.kernelThread) return t('protect.kthread');
  if (isMps(p)) return t('protect.mps');
  if (p.gpuNotOpenHere) {
    return t('protect.otherNs', { smiPid: p.nvidiaSmiPid ?? p.pid, name: p.name ?? t('protect.aProcess') });
  }
  return null;
}

export function assess(p: HolderProcess, self: Snapshot['self']): Assessment {
  const protectedBy = protectionOf(p);
  const guarded = (verdict: Verdict, reason: string, evidence?: string): Assessment => ({
    verdict,
    reason,
    ...(protectedBy ? { protectedBy } : {}),
    ...(evidence ? { evidence } : {}),
  });
  if (p.isSelfOrAncestor) return guarded('this job', t('reason.self'));
  // an MPS daemon serves the GPU's clients: never stale, whatever its parent, CPU use or age
  if (p.visible && isMps(p) && !p.gpuNotOpenHere) return guarded('active', t('reason.mps'));
  if (!p.visible) return { verdict: 'invisible', reason: p.exited ? t('reason.exited') : t('reason.invisible') };
  if (p.gpuNotOpenHere) return guarded('unknown', protectedBy!);
  if (p.kernelThread) return guarded('unknown', t('reason.kthread'));
  if (p.state === 'zombie' || p.state === 'dead') return guarded('zombie', t('reason.zombie'));
  if (p.state === 'stopped' && p.pid > 1) return guarded('stopped', t('reason.stopped'));
  if (p.state === 'tracing-stop') return guarded('unknown', t('reason.traced'));
  if (isBusy(p))
    return guarded(
      'active',
      p.ppid === 1 || adoptionOf(p).kind === 'adopted'
        ? t('reason.workingUnder', { cpu: p.recentCpuPercent ?? '?', parent: p.parentName ?? `PID ${p.ppid ?? '?'}` })
        : t('reason.running'),
    );
  if (p.pid <= 1) return guarded('unknown', protectedBy!);

  const a = adoptionOf(p);
  // Jupyter starts kernels in sessions of their own, so no session shows the server gone: its PID does.
  if (p.jupyterServerAlive === false && jobPartOf(p) === 'jupyter' && (p.connections ?? 0) === 0)
    return guarded('orphaned', t('reason.leftoverKernel'));
  if (a.kind === 'adopted') {
    // Its launching process is gone: a leftover only if nothing shows work, service or a deliberate detach.
    const j = judgeAdopted(p);
    if (j.kind === 'working')
      return guarded('active', t('reason.adoptedWorking', { signs: j.signs.join('; ') }), a.evidence);
    if (j.kind === 'detached') return guarded('unknown', t('reason.detached', { how: j.how }), a.evidence);
    const words =
      j.part === 'multiprocessing'
        ? t('reason.leftoverWorker')
        : j.part === 'jupyter'
          ? t('reason.leftoverKernel')
          : t('reason.leftover');
    return guarded('orphaned', words, a.evidence);
  }
  if (a.kind === 'unknown') return guarded('unknown', idleNote(p, a));
  if (self.uid !== null && p.uid !== null && p.uid !== self.uid) {
    if (isIdle(p) && p.ownerHasTerminal === false)
      return guarded('idle', t('reason.idleLoggedOut', { ...idleNumbers(p), user: p.user ?? p.uid ?? '?' }));
    return guarded('other user', t('reason.otherUser', { user: p.user ?? p.uid ?? '?' }));
  }
  if (isIdle(p))
    return guarded(
      'unknown',
      t('reason.idleOwnerIn', {
        ...idleNumbers(p),
        owner: p.uid === self.uid ? t('reason.you') : (p.user ?? p.uid ?? '?'),
      }),
    );
  return guarded('active', t('reason.running'));
}

export function verdictOf(p: HolderProcess, self: Snapshot['self']): Verdict {
  return assess(p, self).verdict;
}

export function isBusy(p: HolderProcess): boolean {
  return p.recentCpuPercent !== null && p.recentCpuPercent !== undefined && p.recentCpuPercent >= BUSY_MIN_CPU_PERCENT;
}

export function isIdle(p: HolderProcess): boolean {
  if (isBusy(p)) return false;
  return (
    p.ageSeconds !== null &&
    p.cpuSeconds !== null &&
    p.ageSeconds >= IDLE_MIN_AGE_S &&
    p.cpuSeconds / p.ageSeconds < IDLE_MAX_CPU_SHARE
  );
}

function idleNumbers(p: HolderProcess): { hours: string; cpu: string } {
  const hours = p.ageSeconds === null ? '?' : (p.ageSeconds / 3600).toFixed(p.ageSeconds < 36_000 ? 1 : 0);
  return { hours, cpu: p.cpuSeconds?.toFixed(0) ?? '?' };
}

function idleNote(p: HolderProcess, a: Extract<Adoption, { kind: 'unknown' }>): string {
  return isIdle(p) ? t('reason.unknownIdle', { why: a.why, ...idleNumbers(p) }) : a.why;
}

/**
 * Verdicts that mean "holds memory without doing work for anyone": candidates to end. Each is given only on evidence.
 */
export function isStale(v: Verdict): boolean {
  return v === 'orphaned' || v === 'stopped' || v === 'zombie' || v === 'idle';
}

/** `gpu-env-doctor fix` would end it: stale on evidence, not a zombie (its parent holds the memory), not protected. */
export function fixMayEnd(a: Pick<Assessment, 'verdict' | 'protectedBy'>): boolean {
  return a.protectedBy === undefined && isStale(a.verdict) && a.verdict !== 'zombie';
}

/** The kill a person may run after checking, or null: what fix may end, and an unprotected "unknown" holder. */
export function manualKill(pid: number, a: Pick<Assessment, 'verdict' | 'protectedBy'>): string | null {
  if (!fixMayEnd(a) && !(a.verdict === 'unknown' && a.protectedBy === undefined)) return null;
  return a.verdict === 'stopped' ? `kill -CONT ${pid}; kill ${pid}` : `kill ${pid}`;
}

/** Culprits first: stale, then other users', unknown, invisible, active; biggest holders first within a group. */
export function culpritOrder(
  a: { verdict: Verdict; usedMiB: number | null },
  b: { verdict: Verdict; usedMiB: number | null },
): number {
  const rank = (v: Verdict) =>
    isStale(v) ? 0 : v === 'other user' ? 1 : v === 'unknown' ? 2 : v === 'invisible' ? 3 : v === 'active' ? 4 : 5;
  return rank(a.verdict) - rank(b.verdict) || (b.usedMiB ?? 0) - (a.usedMiB ?? 0);
}

/** Why the verdict, in words, for findings and the procs table. Give the verdict assess() returned. */
export function verdictReason(p: HolderProcess, v: Verdict, self?: Snapshot['self']): string {
  const a = assess(p, self ?? { pid: 0, uid: p.uid, user: p.user, pidNamespace: null });
  if (a.verdict === v) return a.reason;
  // A verdict given from elsewhere (a zombie's parent in fix): the generic words.
  switch (v) {
    case 'zombie':
      return t('reason.zombie');
    case 'this job':
      return t('reason.self');
    case 'invisible':
      return t('reason.invisible');
    default:
      return a.reason;
  }
}
