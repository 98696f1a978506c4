// What a GPU-holding process is, for the user: the verdict shown by `procs`, used by the memory checks
// and by `fix` to decide what is safe to end. Pure.
import type { HolderProcess, Snapshot } from '../snapshot/schema.js';

export type Verdict = 'this job' | 'active' | 'idle' | 'orphaned' | 'stopped' | 'zombie' | 'other user' | 'invisible';

/** A process alive for over an hour that used under 1% of a CPU on average holds memory without working. */
export const IDLE_MIN_AGE_S = 3600;
export const IDLE_MAX_CPU_SHARE = 0.01;

export function verdictOf(p: HolderProcess, self: Snapshot['self']): Verdict {
  if (p.isSelfOrAncestor) return 'this job';
  if (!p.visible) return 'invisible';
  if (p.state === 'zombie' || p.state === 'dead') return 'zombie';
  if (p.state === 'stopped' || p.state === 'tracing-stop') return 'stopped';
  // A detached job (nohup, a daemon) also has init as its parent; if it is using the CPU it is working.
  if (p.orphaned) return isBusy(p) ? 'active' : 'orphaned';
  if (self.uid !== null && p.uid !== null && p.uid !== self.uid) return 'other user';
  if (isIdle(p)) return 'idle';
  return 'active';
}

/** Using at least this much of a CPU during the probe's sample counts as working: a training loop keeps a core busy,
 *  while a process that only holds memory shows a few % at most (on the H200 a hog 7 s old still showed some). */
export const BUSY_MIN_CPU_PERCENT = 25;

export function isBusy(p: HolderProcess): boolean {
  return p.recentCpuPercent !== null && p.recentCpuPercent !== undefined && p.recentCpuPercent >= BUSY_MIN_CPU_PERCENT;
}

export function isIdle(p: HolderProcess): boolean {
  if (isBusy(p)) return false;
  return p.ageSeconds !== null && p.cpuSeconds !== null && p.ageSeconds >= IDLE_MIN_AGE_S && p.cpuSeconds / p.ageSeconds < IDLE_MAX_CPU_SHARE;
}

/** Verdicts that mean "holds memory without doing work for anyone": candidates to end. */
export function isStale(v: Verdict): boolean {
  return v === 'orphaned' || v === 'stopped' || v === 'zombie' || v === 'idle';
}

/** Culprits first: stale, then other users', invisible, active; biggest holders first within a group. */
export function culpritOrder(a: { verdict: Verdict; usedMiB: number | null }, b: { verdict: Verdict; usedMiB: number | null }): number {
  const rank = (v: Verdict) => (isStale(v) ? 0 : v === 'other user' ? 1 : v === 'invisible' ? 2 : v === 'active' ? 3 : 4);
  return rank(a.verdict) - rank(b.verdict) || (b.usedMiB ?? 0) - (a.usedMiB ?? 0);
}

/** Why the verdict, in words, for findings and the procs table. */
export function verdictReason(p: HolderProcess, v: Verdict): string {
  switch (v) {
    case 'this job':
      return 'the process running gpu-env-doctor, or its parent';
    case 'invisible':
      return 'not in this /proc: another container or PID namespace, or the host';
    case 'zombie':
      return 'a zombie: it has exited but its parent has not collected it';
    case 'stopped':
      return 'stopped (Ctrl-Z or SIGSTOP): it keeps its GPU memory while it does nothing';
    case 'orphaned':
      return `its parent is gone (now a child of ${p.parentName ?? `PID ${p.ppid ?? '?'}`}): a leftover of a job that ended (a crashed run, an orphaned DataLoader worker)`;
    case 'other user':
      return `belongs to another user (${p.user ?? p.uid ?? '?'})`;
    case 'idle':
      return `alive for a long time with almost no CPU use (${p.cpuSeconds?.toFixed(0) ?? '?'} s of CPU): holding memory without working`;
    case 'active':
      return p.orphaned && isBusy(p) ? `detached from its parent but working (${p.recentCpuPercent}% CPU): a nohup job or a daemon` : 'running';
  }
}
