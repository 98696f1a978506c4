// Who a PID is right now, read from /proc through the filesystem port: the facts `fix` compares with the
// snapshot before every signal, so that a PID the kernel has since given to another process is never hit.
import type { FileSystem } from '../../ports/fs.js';
import { readTextOr } from '../../ports/fs.js';
import { isKernelThread, parseBootTime, parseProcStat, parseProcStatus } from './parse.js';
import { CLOCK_TICKS, startedAtMs } from './processes.js';
import type { ProcState } from '../snapshot/schema.js';

export interface LiveIdentity {
  pid: number;
  /** ms since the epoch, computed exactly as the process probe computes HolderProcess.startedAt */
  startedAt: number | null;
  state: ProcState;
  ppid: number;
  uid: number | null;
  comm: string;
  /** user + system CPU time so far, seconds */
  cpuSeconds: number;
  /** a kernel thread (PF_KTHREAD): never signalled */
  kernelThread?: boolean;
}

/** The process's identity now, or null when the PID is not in /proc (it has exited and been reaped). */
export function readIdentity(fs: FileSystem, pid: number): LiveIdentity | null {
  const statLine = readTextOr(fs, `/proc/${pid}/stat`);
  const stat = statLine ? parseProcStat(statLine) : null;
  if (!stat || stat.pid !== pid) return null;
  const bootTime = parseBootTime(readTextOr(fs, '/proc/stat') ?? '');
  const uidText = parseProcStatus(readTextOr(fs, `/proc/${pid}/status`) ?? '')
    .get('Uid')
    ?.split(/\s+/)[0];
  return {
    pid,
    startedAt: startedAtMs(bootTime, stat.starttime),
    state: stat.state,
    ppid: stat.ppid,
    uid: uidText !== undefined && /^\d+$/.test(uidText) ? Number(uidText) : null,
    comm: stat.comm,
    cpuSeconds: (stat.utime + stat.stime) / CLOCK_TICKS,
    kernelThread: isKernelThread(stat),
  };
}

// The process probe's own formula, so equal inputs give equal numbers to the millisecond.
export { startedAtMs };

/**
 * The process has exited: gone from /proc, a zombie waiting for its parent (it holds no memory), or the PID is another
 * process now.
 */
export function hasEnded(now: LiveIdentity | null, expectedStartedAt: number): boolean {
  if (now === null) return true;
  if (now.startedAt !== expectedStartedAt) return true;
  return now.state === 'zombie' || now.state === 'dead';
}
