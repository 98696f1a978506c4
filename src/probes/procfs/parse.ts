// Pure parsers for /proc files. Kept apart from reading so tests feed them real captured lines.
import type { ProcState } from '../../snapshot/schema.js';

export interface ProcStat {
  pid: number;
  comm: string;
  state: ProcState;
  ppid: number;
  /** clock ticks */
  utime: number;
  stime: number;
  /** clock ticks after boot */
  starttime: number;
}

const STATES: Record<string, ProcState> = {
  R: 'running',
  S: 'sleeping',
  D: 'disk-sleep',
  T: 'stopped',
  t: 'tracing-stop',
  Z: 'zombie',
  X: 'dead',
  x: 'dead',
  I: 'idle',
};

/** /proc/PID/stat. The command name is in parentheses and may itself contain spaces and ")". */
export function parseProcStat(line: string): ProcStat | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  const rest = line.slice(close + 2).trim().split(/\s+/);
  // rest[0] is field 3 (state); field N is rest[N-3]
  const f = (n: number) => Number(rest[n - 3]);
  if (!Number.isInteger(pid) || rest.length < 20) return null;
  return {
    pid,
    comm: line.slice(open + 1, close),
    state: STATES[rest[0] ?? ''] ?? 'unknown',
    ppid: f(4),
    utime: f(14),
    stime: f(15),
    starttime: f(22),
  };
}

/** The "Key:\tvalue" lines of /proc/PID/status. */
export function parseProcStatus(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) m.set(line.slice(0, i), line.slice(i + 1).trim());
  }
  return m;
}

/** /proc/PID/cmdline: NUL-separated argv. */
export function parseCmdline(raw: string): string[] {
  return raw.split('\0').filter((a, i, all) => !(a === '' && i === all.length - 1));
}

/** "btime 1764660000" in /proc/stat: boot time, seconds since the epoch. */
export function parseBootTime(procStat: string): number | null {
  const m = /^btime\s+(\d+)/m.exec(procStat);
  return m ? Number(m[1]) : null;
}

/** /etc/passwd → uid → name */
export function parsePasswd(text: string): Map<number, string> {
  const m = new Map<number, string>();
  for (const line of text.split('\n')) {
    const parts = line.split(':');
    if (parts.length >= 3 && parts[0] && /^\d+$/.test(parts[2] ?? '')) m.set(Number(parts[2]), parts[0]);
  }
  return m;
}
