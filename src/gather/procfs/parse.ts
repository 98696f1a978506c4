// Pure parsers for /proc files. Kept apart from reading so tests feed them real captured lines.
import type { ProcState } from '../snapshot/schema.js';

export interface ProcStat {
  pid: number;
  comm: string;
  state: ProcState;
  ppid: number;
  /** process group and session (field 5, 6); 0 when they lie outside our PID namespace (or for init's session) */
  pgid: number;
  sid: number;
  /** the controlling terminal's device number; 0: none */
  ttyNr: number;
  /** the foreground process group of that terminal; -1: none */
  tpgid: number;
  /** the kernel's PF_* flags (field 9): PF_KTHREAD marks a kernel thread */
  flags: number;
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
  const rest = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); field N is rest[N-3]
  const f = (n: number) => Number(rest[n - 3]);
  if (!Number.isInteger(pid) || rest.length < 20) return null;
  return {
    pid,
    comm: line.slice(open + 1, close),
    state: STATES[rest[0] ?? ''] ?? 'unknown',
    ppid: f(4),
    pgid: f(5),
    sid: f(6),
    ttyNr: f(7),
    tpgid: f(8),
    flags: f(9),
    utime: f(14),
    stime: f(15),
    starttime: f(22),
  };
}

/** PF_KTHREAD (include/linux/sched.h): the process is a kernel thread. */
export const PF_KTHREAD = 0x00200000;

export function isKernelThread(st: ProcStat): boolean {
  return (st.flags & PF_KTHREAD) !== 0;
}

/**
 * The systemd unit a process runs in, from /proc/PID/cgroup: the last path component that names a service
 * ("ollama.service", "user@1000.service/app.slice/jupyter.service" gives "jupyter.service"). null when none.
 */
export function serviceUnitOf(cgroupText: string): string | null {
  let unit: string | null = null;
  for (const line of cgroupText.split('\n')) {
    const path = line.split(':').slice(2).join(':');
    for (const part of path.split('/'))
      if (/^[^/]+\.service$/.test(part) && !/^user@\d+\.service$/.test(part)) unit = part;
  }
  return unit;
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

/**
 * SigIgn in /proc/PID/status: is SIGHUP (signal 1, the lowest bit) ignored? `nohup` leaves it so. null: no such line.
 */
export function sigHupIgnored(status: Map<string, string>): boolean | null {
  const hex = status.get('SigIgn');
  if (hex === undefined || !/^[0-9a-fA-F]+$/.test(hex)) return null;
  return (parseInt(hex.slice(-1), 16) & 1) === 1;
}

export interface NetSocket {
  inode: number;
  /** "tcp 127.0.0.1:8000", "tcp6 [::]:8000", "unix /run/x.sock", "unix @abstract" */
  address: string;
  listening: boolean;
  established: boolean;
}

const TCP_LISTEN = '0A';
const TCP_ESTABLISHED = '01';

/** /proc/PID/net/tcp or tcp6: one entry per socket with its inode (the link /proc/PID/fd/N shows as socket:[inode]). */
export function parseNetTcp(text: string, family: 'tcp' | 'tcp6'): NetSocket[] {
  const out: NetSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const inode = Number(f[9]);
    const st = (f[3] ?? '').toUpperCase();
    if (!Number.isInteger(inode) || inode <= 0) continue;
    out.push({
      inode,
      address: `${family} ${tcpAddress(f[1] ?? '', family)}`,
      listening: st === TCP_LISTEN,
      established: st === TCP_ESTABLISHED,
    });
  }
  return out;
}

/** "0100007F:1F90" → "127.0.0.1:8080"; IPv6 as [hex groups] (the kernel writes each 32-bit word in host order). */
function tcpAddress(field: string, family: 'tcp' | 'tcp6'): string {
  const [hex = '', portHex = ''] = field.split(':');
  const port = parseInt(portHex, 16);
  if (family === 'tcp' && hex.length === 8) {
    const b = [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16));
    return `${b.join('.')}:${port}`;
  }
  if (hex.length === 32) {
    const bytes: number[] = [];
    for (let w = 0; w < 4; w++)
      for (const i of [6, 4, 2, 0]) bytes.push(parseInt(hex.slice(w * 8 + i, w * 8 + i + 2), 16));
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
    // Uncompressed (valid, if long), except the any-address.
    return `[${groups.every((g) => g === '0') ? '::' : groups.join(':')}]:${port}`;
  }
  return `${hex}:${port}`;
}

/** __SO_ACCEPTCON in /proc/net/unix's Flags: the socket listens. */
const SO_ACCEPTCON = 0x10000;

/**
 * /proc/PID/net/unix: "Num RefCount Protocol Flags Type St Inode [Path]". Only listening sockets carry meaning here.
 */
export function parseNetUnix(text: string): NetSocket[] {
  const out: NetSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 7) continue;
    const inode = Number(f[6]);
    if (!Number.isInteger(inode) || inode <= 0) continue;
    const listening = (parseInt(f[3] ?? '0', 16) & SO_ACCEPTCON) !== 0;
    const path = f.slice(7).join(' ');
    out.push({ inode, address: `unix ${path === '' ? '(unnamed)' : path}`, listening, established: false });
  }
  return out;
}
