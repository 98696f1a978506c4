// What a GPU-holding process is, for the user: the verdict shown by `procs`, used by the memory checks, by
// `run`'s report (through them), and by `fix` to decide what may be ended. The one place that decides. Pure.
//
// A process is stale — a candidate for `fix` — only on positive evidence: it is a zombie, it is stopped by a
// signal, the process that started it has exited (adoption.ts), or it has idled for long while its owner is
// logged out. When nothing shows either way, the verdict is "unknown": shown with why, never ended by fix.
// Some processes are never candidates whatever the facts: this tool and its ancestors, PID 1, kernel
// threads, and a PID that nvidia-smi lists but that has no GPU open here (another namespace's PID).
import type { HolderProcess, Snapshot } from '../snapshot/schema.js';
import { adoptionOf, type Adoption } from './adoption.js';

export type Verdict = 'this job' | 'active' | 'idle' | 'orphaned' | 'stopped' | 'zombie' | 'other user' | 'invisible' | 'unknown';

/** A process alive for over an hour that used under 1% of a CPU on average holds memory without working. */
export const IDLE_MIN_AGE_S = 3600;
export const IDLE_MAX_CPU_SHARE = 0.01;

/** Using at least this much of a CPU during the probe's sample counts as working: a training loop keeps a core busy,
 *  while a process that only holds memory shows a few % at most (on the H200 a hog 7 s old still showed some). */
export const BUSY_MIN_CPU_PERCENT = 25;

export interface Assessment {
  verdict: Verdict;
  /** why, in words, for findings, the procs table and the fix plan */
  reason: string;
  /** set when fix must never signal this process, whatever else is true: why */
  protectedBy?: string;
}

/** Why fix must never signal this process, or null. Also used by fix on the live facts at apply time. */
export function protectionOf(p: Pick<HolderProcess, 'pid' | 'isSelfOrAncestor' | 'kernelThread' | 'gpuNotOpenHere' | 'name' | 'nvidiaSmiPid'>): string | null {
  if (p.isSelfOrAncestor) return 'it is gpu-env-doctor itself or one of its ancestors (the shell or job that started it)';
  if (p.pid <= 1) return 'it is PID 1, the init of this PID namespace: ending it ends everything in it (the whole container)';
  if (p.kernelThread) return 'it is a kernel thread';
  if (p.gpuNotOpenHere) {
    return `nvidia-smi lists PID ${p.nvidiaSmiPid ?? p.pid}, but here that PID is ${p.name ?? 'a process'} with no /dev/nvidia* open (every process's open files were read): the number names a process in another PID namespace (nvidia-smi reports the host's PIDs), not this one`;
  }
  return null;
}

export function assess(p: HolderProcess, self: Snapshot['self']): Assessment {
  const protectedBy = protectionOf(p);
  const guarded = (verdict: Verdict, reason: string): Assessment => (protectedBy ? { verdict, reason, protectedBy } : { verdict, reason });
  if (p.isSelfOrAncestor) return guarded('this job', 'the process running gpu-env-doctor, or its parent');
  if (!p.visible) return { verdict: 'invisible', reason: 'not in this /proc: another container or PID namespace, or the host' };
  if (p.gpuNotOpenHere) return guarded('unknown', protectedBy!);
  if (p.kernelThread) return guarded('unknown', 'a kernel thread: it cannot hold GPU memory itself');
  if (p.state === 'zombie' || p.state === 'dead') return guarded('zombie', 'a zombie: it has exited but its parent has not collected it');
  if (p.state === 'stopped' && p.pid > 1) return guarded('stopped', 'stopped (Ctrl-Z or SIGSTOP): it keeps its GPU memory while it does nothing');
  if (p.state === 'tracing-stop') return guarded('unknown', 'stopped under a debugger or tracer (tracing stop): someone may be inspecting it');
  if (isBusy(p)) return guarded('active', p.ppid === 1 || p.orphaned ? `working (${p.recentCpuPercent}% CPU), under ${p.parentName ?? `PID ${p.ppid ?? '?'}`}: a service, a nohup job or a daemon` : 'running');
  if (p.pid <= 1) return guarded('unknown', protectedBy!);

  const a = adoptionOf(p);
  if (a.kind === 'adopted') return guarded('orphaned', a.evidence);
  if (a.kind === 'unknown') return guarded('unknown', idleNote(p, a));
  if (self.uid !== null && p.uid !== null && p.uid !== self.uid) {
    if (isIdle(p) && p.ownerHasTerminal === false) return guarded('idle', idleReason(p, `its owner ${p.user ?? p.uid} is logged out (no process of theirs has a terminal)`));
    return guarded('other user', `belongs to another user (${p.user ?? p.uid ?? '?'})`);
  }
  if (isIdle(p)) return guarded('unknown', `${idleReason(p, null)}, but its owner is logged in (${p.uid === self.uid ? 'you' : (p.user ?? p.uid)}): it may be waiting for work (a notebook, a server)`);
  return guarded('active', 'running');
}

export function verdictOf(p: HolderProcess, self: Snapshot['self']): Verdict {
  return assess(p, self).verdict;
}

export function isBusy(p: HolderProcess): boolean {
  return p.recentCpuPercent !== null && p.recentCpuPercent !== undefined && p.recentCpuPercent >= BUSY_MIN_CPU_PERCENT;
}

export function isIdle(p: HolderProcess): boolean {
  if (isBusy(p)) return false;
  return p.ageSeconds !== null && p.cpuSeconds !== null && p.ageSeconds >= IDLE_MIN_AGE_S && p.cpuSeconds / p.ageSeconds < IDLE_MAX_CPU_SHARE;
}

function idleReason(p: HolderProcess, logout: string | null): string {
  const hours = p.ageSeconds === null ? '?' : (p.ageSeconds / 3600).toFixed(p.ageSeconds < 36_000 ? 1 : 0);
  return `idle: alive ${hours} h with almost no CPU use (${p.cpuSeconds?.toFixed(0) ?? '?'} s of CPU)${logout ? ` and ${logout}` : ''}`;
}

function idleNote(p: HolderProcess, a: Extract<Adoption, { kind: 'unknown' }>): string {
  return isIdle(p) ? `${a.why}. It has been ${idleReason(p, null).replace(/^idle: /, '')}` : a.why;
}

/** Verdicts that mean "holds memory without doing work for anyone": candidates to end. Each is given only on evidence. */
export function isStale(v: Verdict): boolean {
  return v === 'orphaned' || v === 'stopped' || v === 'zombie' || v === 'idle';
}

/** Culprits first: stale, then other users', unknown, invisible, active; biggest holders first within a group. */
export function culpritOrder(a: { verdict: Verdict; usedMiB: number | null }, b: { verdict: Verdict; usedMiB: number | null }): number {
  const rank = (v: Verdict) => (isStale(v) ? 0 : v === 'other user' ? 1 : v === 'unknown' ? 2 : v === 'invisible' ? 3 : v === 'active' ? 4 : 5);
  return rank(a.verdict) - rank(b.verdict) || (b.usedMiB ?? 0) - (a.usedMiB ?? 0);
}

/** Why the verdict, in words, for findings and the procs table. Give the verdict assess() returned. */
export function verdictReason(p: HolderProcess, v: Verdict, self?: Snapshot['self']): string {
  const a = assess(p, self ?? { pid: 0, uid: p.uid, user: p.user, pidNamespace: null });
  if (a.verdict === v) return a.reason;
  // A verdict given from elsewhere (a zombie's parent in fix): the generic words.
  switch (v) {
    case 'zombie':
      return 'a zombie: it has exited but its parent has not collected it';
    case 'this job':
      return 'the process running gpu-env-doctor, or its parent';
    case 'invisible':
      return 'not in this /proc: another container or PID namespace, or the host';
    default:
      return a.reason;
  }
}
