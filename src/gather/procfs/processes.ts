// Who holds GPU memory: nvidia-smi's process list joined with /proc, plus processes that hold
// /dev/nvidia* open without being listed (another tool's context, a process in the middle of start-up).
import { FsError, listNames, type FileStat, type FileSystem } from '../../ports/fs.js';
import { readTextOr } from '../../ports/fs.js';
import type { HolderProcess, Nvidia } from '../snapshot/schema.js';
import { adoptionOf } from '../../judge/procs/adoption.js';
import { IDLE_MIN_AGE_S } from '../../judge/procs/verdict.js';
import {
  isKernelThread,
  parseBootTime,
  parseCmdline,
  parseNetTcp,
  parseNetUnix,
  parsePasswd,
  parseProcStat,
  parseProcStatus,
  serviceUnitOf,
  sigHupIgnored,
  type NetSocket,
} from './parse.js';
import { parseMaps } from '../libraries/maps.js';
import { frameworkFromMaps } from './framework.js';

/** Linux's USER_HZ: 100 on every architecture that GPU servers run (x86_64, aarch64, ppc64le). */
export const CLOCK_TICKS = 100;

/** CPU ticks of the processes that have a GPU open, taken before nvidia-smi runs: the second reading after
 *  it returns gives each one's recent CPU use for free (nvidia-smi takes ~0.1 s), which tells a working
 *  detached job from a leftover that only sits on its memory. */
export interface CpuSample {
  atMs: number;
  ticks: Map<number, number>;
  /** the scan of every /proc/PID/fd that found the processes: probeProcesses reuses it instead of scanning again */
  holders?: DeviceHolders;
}

/** Shorter windows than this cannot tell 0% from 10% with 10 ms ticks. */
const MIN_SAMPLE_MS = 50;

export function sampleGpuProcessCpu(fs: FileSystem, atMs: number): CpuSample {
  const ticks = new Map<number, number>();
  const holders = scanDeviceHolders(fs);
  for (const pid of holders.pids) {
    const st = readTextOr(fs, `/proc/${pid}/stat`);
    const p = st ? parseProcStat(st) : null;
    if (p) ticks.set(pid, p.utime + p.stime);
  }
  return { atMs, ticks, holders };
}

/** PIDs of the processes that have a GPU open, as the sample found them (the GPU processes the library probe
 *  reads the maps of, before nvidia-smi has answered). */
export function holderPids(sample: CpuSample): number[] {
  return [...(sample.holders?.pids ?? [])];
}

export interface ProcessesProbe {
  ok: boolean;
  message?: string;
  deviceScanComplete?: boolean;
  list: HolderProcess[];
}

export function probeProcesses(
  fs: FileSystem,
  nvidia: Nvidia,
  selfPid: number,
  nowMs: number,
  before?: CpuSample,
  sampleEndMs?: number,
): ProcessesProbe {
  if (!fs.exists('/proc/self') && !fs.exists('/proc/1')) {
    return { ok: false, message: '/proc is not readable here', list: [] };
  }
  const bootTime = parseBootTime(readTextOr(fs, '/proc/stat') ?? '');
  const users = parsePasswd(readTextOr(fs, '/etc/passwd') ?? '');
  const ourNs = safeReadlink(fs, '/proc/self/ns/pid');
  const ancestors = ancestry(fs, selfPid);

  // GPU processes as nvidia-smi lists them, possibly on several GPUs.
  const byPid = new Map<number, { gpus: number[]; usedMiB: number | null; name: string }>();
  if (nvidia.ok) {
    for (const g of nvidia.gpus) {
      for (const p of g.processes) {
        const e = byPid.get(p.pid) ?? { gpus: [], usedMiB: null, name: p.name };
        if (!e.gpus.includes(g.index)) e.gpus.push(g.index);
        if (p.usedMiB !== null) e.usedMiB = (e.usedMiB ?? 0) + p.usedMiB;
        byPid.set(p.pid, e);
      }
    }
  }
  // The scan of the CPU sample, taken a moment ago, when there is one: reading every /proc/PID/fd is the costly part of
  // this probe on a machine with many processes, and a GPU process that started since then holds no memory worth naming
  // yet.
  const deviceHolders = before?.holders ?? scanDeviceHolders(fs);
  const smiToLocal = pairHostPids(fs, byPid, deviceHolders);
  const pids = new Set<number>([...deviceHolders.pids]);
  for (const smiPid of byPid.keys()) pids.add(smiToLocal.get(smiPid) ?? smiPid);
  const listedHere = new Set([...byPid.keys()].map((p) => smiToLocal.get(p) ?? p));
  for (const pid of [...pids]) {
    if (listedHere.has(pid)) continue;
    // This tool's own children (its nvidia-smi calls have the GPU open while they run) are no GPU processes of
    // anyone; a device holder gone since the scan holds nothing now.
    if (!fs.exists(`/proc/${pid}/stat`) || descendsFrom(fs, pid, selfPid)) pids.delete(pid);
  }
  const localToSmi = new Map([...smiToLocal].map(([h, l]) => [l, h]));
  const terminals = lazyTerminalOwners(fs);
  // "No GPU open here" is evidence only where a GPU can be opened: a machine with no /dev/nvidia<N> at all
  // (only fakes list processes then) says nothing either way.
  const gpuNodes = listNames(fs, '/dev').some((n) => /^nvidia\d+$/.test(n));
  const list: HolderProcess[] = [];
  for (const pid of [...pids].sort((a, b) => a - b)) {
    const smiPid = localToSmi.get(pid) ?? pid;
    const smi = byPid.get(smiPid);
    const described = describe(fs, pid, {
      gpus: smi?.gpus ?? [],
      usedMiB: smi?.usedMiB ?? null,
      listed: smi !== undefined,
      holdsDevice: deviceHolders.pids.has(pid),
      // Listed, yet a complete scan shows no GPU open under this PID here: the number is another namespace's.
      notOpenHere: smi !== undefined && gpuNodes && deviceHolders.complete && !deviceHolders.pids.has(pid),
      terminals,
      bootTime,
      users,
      ourNs,
      ancestors,
      nowMs,
      before,
      sampleEndMs,
      seenBefore: deviceHolders.pids.has(pid) || (before?.ticks.has(pid) ?? false),
    });
    list.push(smiPid === pid ? described : { ...described, nvidiaSmiPid: smiPid });
  }
  const message =
    deviceHolders.unreadable > 0
      ? `${deviceHolders.unreadable} processes' open files could not be read (run as root to see every holder of ` +
        `/dev/nvidia*)`
      : undefined;
  return { ok: true, ...(message ? { message } : {}), deviceScanComplete: deviceHolders.complete, list };
}

interface DescribeCtx {
  gpus: number[];
  usedMiB: number | null;
  listed: boolean;
  holdsDevice: boolean;
  notOpenHere: boolean;
  terminals: () => Set<number> | null;
  bootTime: number | null;
  users: Map<number, string>;
  ourNs: string | null;
  ancestors: Set<number>;
  nowMs: number;
  before: CpuSample | undefined;
  sampleEndMs: number | undefined;
  /** the device scan found it a moment ago: if it is gone now, it exited meanwhile */
  seenBefore: boolean;
}

function describe(fs: FileSystem, pid: number, c: DescribeCtx): HolderProcess {
  const statLine = readTextOr(fs, `/proc/${pid}/stat`);
  const stat = statLine ? parseProcStat(statLine) : null;
  const base: HolderProcess = {
    pid,
    gpus: c.gpus,
    usedMiB: c.usedMiB,
    listedByNvidiaSmi: c.listed,
    visible: stat !== null,
    name: null,
    cmdline: null,
    uid: null,
    user: null,
    state: null,
    ppid: null,
    orphaned: null,
    parentName: null,
    startedAt: null,
    ageSeconds: null,
    cpuSeconds: null,
    otherPidNamespace: null,
    holdsDeviceFiles: c.holdsDevice,
    isSelfOrAncestor: c.ancestors.has(pid),
  };
  if (!stat) return c.seenBefore ? { ...base, exited: true } : base;
  const status = parseProcStatus(readTextOr(fs, `/proc/${pid}/status`) ?? '');
  const uidText = status.get('Uid')?.split(/\s+/)[0];
  const uid = uidText !== undefined && /^\d+$/.test(uidText) ? Number(uidText) : null;
  const rawCmd = readTextOr(fs, `/proc/${pid}/cmdline`, 64 * 1024);
  const parentStat = stat.ppid > 0 ? readTextOr(fs, `/proc/${stat.ppid}/stat`) : undefined;
  const parent = parentStat ? parseProcStat(parentStat) : null;
  const startedAt = startedAtMs(c.bootTime, stat.starttime);
  const ticks0 = c.before?.ticks.get(pid);
  const windowMs = c.before && c.sampleEndMs !== undefined ? c.sampleEndMs - c.before.atMs : 0;
  const recentCpuPercent =
    ticks0 !== undefined && windowMs >= MIN_SAMPLE_MS
      ? Math.round((((stat.utime + stat.stime - ticks0) * 1000) / CLOCK_TICKS / windowMs) * 100)
      : null;
  const ns = safeReadlink(fs, `/proc/${pid}/ns/pid`);
  const ageSeconds = startedAt === null ? null : Math.max(0, Math.round((c.nowMs - startedAt) / 1000));
  // Who else the owner runs only matters for a process old enough to count as idle: read /proc for it then.
  const owners = uid !== null && ageSeconds !== null && ageSeconds >= IDLE_MIN_AGE_S ? c.terminals() : null;
  const facts: HolderProcess = {
    ...base,
    name: stat.comm,
    cmdline: rawCmd === undefined ? null : parseCmdline(rawCmd),
    uid,
    user: uid === null ? null : (c.users.get(uid) ?? String(uid)),
    state: stat.state,
    ppid: stat.ppid,
    parentName: parent?.comm ?? null,
    pgid: stat.pgid,
    sid: stat.sid,
    ttyNr: stat.ttyNr,
    parentStartTicks: parent?.starttime ?? null,
    parentSid: parent?.sid ?? null,
    kernelThread: isKernelThread(stat),
    serviceUnit: serviceUnitOf(readTextOr(fs, `/proc/${pid}/cgroup`, 64 * 1024) ?? ''),
    ...(owners !== null && uid !== null ? { ownerHasTerminal: owners.has(uid) } : {}),
    // A zombie has closed every file, so the scan says nothing about it.
    ...(c.notOpenHere && stat.state !== 'zombie' && stat.state !== 'dead' ? { gpuNotOpenHere: true } : {}),
    startedAt,
    ageSeconds,
    cpuSeconds: (stat.utime + stat.stime) / CLOCK_TICKS,
    startTicks: stat.starttime,
    recentCpuPercent,
    otherPidNamespace: ns === null || c.ourNs === null ? null : ns !== c.ourNs,
    framework: frameworkOf(fs, pid),
    ...detachmentFacts(fs, pid, stat.sid, status),
  };
  const adoption = adoptionOf(facts);
  return { ...facts, orphaned: adoption.kind === 'adopted' ? true : adoption.kind === 'parented' ? false : null };
}

/**
 * What tells a job that detached on purpose, or still works or serves, from a leftover: read here, judged in
 * procs/leftover.ts. Each fact is left out when it cannot be read (another user's process, not root).
 */
function detachmentFacts(
  fs: FileSystem,
  pid: number,
  sid: number,
  status: Map<string, string>,
): Partial<HolderProcess> {
  const out: Partial<HolderProcess> = {};
  const hup = sigHupIgnored(status);
  if (hup !== null) out.sigHupIgnored = hup;
  const cwd = safeReadlink(fs, `/proc/${pid}/cwd`);
  out.cwdIsRoot = cwd === null ? null : cwd === '/';
  const anc = ancestorsOf(fs, pid);
  if (anc !== null) out.ancestors = anc;
  out.sessionLeaderAlive = sid > 0 ? sessionLeaderAlive(fs, sid) : null;
  // Jupyter starts each kernel in a session of its own and names itself in the kernel's environment.
  const server = /(?:^|\0)JPY_PARENT_PID=(\d+)(?:\0|$)/.exec(readTextOr(fs, `/proc/${pid}/environ`, 1024 * 1024) ?? '');
  if (server) {
    const st = readTextOr(fs, `/proc/${server[1]}/stat`);
    const parsed = st ? parseProcStat(st) : null;
    out.jupyterServerAlive = parsed !== null && parsed.state !== 'zombie' && parsed.state !== 'dead';
  }
  let fds;
  try {
    fds = fs.readdir(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  const targets = new Map<number, string>();
  for (const fd of fds) {
    if (!/^\d+$/.test(fd.name)) continue;
    const target = safeReadlink(fs, `/proc/${pid}/fd/${fd.name}`);
    if (target !== null) targets.set(Number(fd.name), target);
  }
  // /dev/null by identity, not by name: inside a container or namespace its path may read otherwise.
  const devNull = tryStatOr(fs, '/dev/null');
  const isNull = (fd: number) => {
    const st = devNull && targets.has(fd) ? tryStatOr(fs, `/proc/${pid}/fd/${fd}`) : null;
    return st !== null && devNull !== null && st.dev === devNull.dev && st.ino === devNull.ino;
  };
  out.stdio = [0, 1, 2].map((fd) => (isNull(fd) ? 'null' : stdioKind(targets.get(fd))));
  let written: number | null = null;
  for (const fd of [1, 2]) {
    if (out.stdio[fd] !== 'file') continue;
    const m = mtimeOf(fs, `/proc/${pid}/fd/${fd}`);
    if (m !== null && (written === null || m > written)) written = m;
  }
  out.outputWrittenAt = written;
  const inodes = new Set<number>();
  for (const target of targets.values()) {
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(Number(m[1]));
  }
  const listening: string[] = [];
  let connections = 0;
  if (inodes.size > 0) {
    // The process's own network namespace: /proc/PID/net is the one it sees.
    const sockets: NetSocket[] = [
      ...parseNetTcp(readTextOr(fs, `/proc/${pid}/net/tcp`, 16 * 1024 * 1024) ?? '', 'tcp'),
      ...parseNetTcp(readTextOr(fs, `/proc/${pid}/net/tcp6`, 16 * 1024 * 1024) ?? '', 'tcp6'),
      ...parseNetUnix(readTextOr(fs, `/proc/${pid}/net/unix`, 16 * 1024 * 1024) ?? ''),
    ];
    for (const so of sockets) {
      if (!inodes.has(so.inode)) continue;
      if (so.listening && !listening.includes(so.address)) listening.push(so.address);
      if (so.established) connections++;
    }
  }
  out.listening = listening;
  out.connections = connections;
  return out;
}

function stdioKind(target: string | undefined): string {
  if (target === undefined) return 'closed';
  if (target === '/dev/null') return 'null';
  if (/^\/dev\/(pts\/\d+|tty\w*|console)$/.test(target)) return 'tty';
  if (target.startsWith('pipe:')) return 'pipe';
  if (target.startsWith('socket:')) return 'socket';
  if (target.startsWith('/') && !target.startsWith('/dev/')) return 'file';
  return 'other';
}

function tryStatOr(fs: FileSystem, p: string): FileStat | null {
  try {
    return fs.tryStat(p);
  } catch {
    return null;
  }
}

function mtimeOf(fs: FileSystem, p: string): number | null {
  try {
    const st = fs.stat(p);
    return st.type === 'file' ? Math.round(st.mtimeMs) : null;
  } catch {
    return null;
  }
}

/** The process whose PID is `sid` is alive and still leads that session. */
function sessionLeaderAlive(fs: FileSystem, sid: number): boolean {
  const st = readTextOr(fs, `/proc/${sid}/stat`);
  const parsed = st ? parseProcStat(st) : null;
  return parsed !== null && parsed.sid === sid && parsed.state !== 'zombie' && parsed.state !== 'dead';
}

/** From the parent up to (not including) PID 1, at most 32 steps; null when the process cannot be read. */
function ancestorsOf(fs: FileSystem, pid: number): { pid: number; name: string }[] | null {
  const out: { pid: number; name: string }[] = [];
  const first = readTextOr(fs, `/proc/${pid}/stat`);
  let cur = first ? (parseProcStat(first)?.ppid ?? 0) : -1;
  if (cur < 0) return null;
  while (cur > 1 && out.length < 32 && !out.some((a) => a.pid === cur)) {
    const st = readTextOr(fs, `/proc/${cur}/stat`);
    const parsed = st ? parseProcStat(st) : null;
    if (!parsed) break;
    out.push({ pid: cur, name: parsed.comm });
    cur = parsed.ppid;
  }
  return out;
}

function commOf(fs: FileSystem, pid: number): string | null {
  const st = readTextOr(fs, `/proc/${pid}/stat`);
  return st ? (parseProcStat(st)?.comm ?? null) : null;
}

/** `pid` is `ancestor` or one of its descendants. */
function descendsFrom(fs: FileSystem, pid: number, ancestor: number): boolean {
  let cur = pid;
  for (let i = 0; i < 64 && cur > 1; i++) {
    if (cur === ancestor) return true;
    const st = readTextOr(fs, `/proc/${cur}/stat`);
    const parsed = st ? parseProcStat(st) : null;
    if (!parsed) return false;
    cur = parsed.ppid;
  }
  return false;
}

/**
 * The uids that have at least one process with a controlling terminal (a login shell, an ssh session, a
 * tmux pane): their users are around. Read once, on first use; null when /proc cannot be listed.
 */
function lazyTerminalOwners(fs: FileSystem): () => Set<number> | null {
  let done = false;
  let owners: Set<number> | null = null;
  return () => {
    if (done) return owners;
    done = true;
    let entries;
    try {
      entries = fs.readdir('/proc');
    } catch {
      return null;
    }
    owners = new Set();
    for (const e of entries) {
      if (!/^\d+$/.test(e.name)) continue;
      const st = readTextOr(fs, `/proc/${e.name}/stat`);
      const parsed = st ? parseProcStat(st) : null;
      if (!parsed || parsed.ttyNr === 0) continue;
      const uidText = parseProcStatus(readTextOr(fs, `/proc/${e.name}/status`) ?? '')
        .get('Uid')
        ?.split(/\s+/)[0];
      if (uidText !== undefined && /^\d+$/.test(uidText)) owners.add(Number(uidText));
    }
    return owners;
  };
}

/** The framework a GPU process runs, from the files it mapped; its environment only for the policy variables. */
function frameworkOf(fs: FileSystem, pid: number): HolderProcess['framework'] {
  const maps = readTextOr(fs, `/proc/${pid}/maps`, 16 * 1024 * 1024);
  if (maps === undefined) return null;
  return frameworkFromMaps(parseMaps(maps), readTextOr(fs, `/proc/${pid}/environ`, 1024 * 1024) ?? null);
}

/**
 * NVML reports PIDs of the host's PID namespace. Inside a container those PIDs name nothing here, or worse,
 * an unrelated local process. When a listed PID is missing here or is not a GPU process, pair it with a
 * local process that has /dev/nvidia<N> open, is not listed, and has the same name — only when that pairing
 * is unambiguous (one candidate). Returns nvidia-smi PID → local PID.
 */
function pairHostPids(
  fs: FileSystem,
  byPid: Map<number, { name: string }>,
  holders: { pids: Set<number>; complete: boolean },
): Map<number, number> {
  const pairs = new Map<number, number>();
  if (!holders.complete) return pairs; // without every process's fds we cannot tell a collision from a match
  const unmatchedLocal = [...holders.pids].filter((p) => !byPid.has(p));
  // the same PID here with the GPU open is a true match
  const unmatchedSmi = [...byPid.keys()].filter((p) => !holders.pids.has(p));
  if (unmatchedLocal.length === 0 || unmatchedSmi.length === 0) return pairs;
  const names = new Map<number, string | null>();
  for (const l of unmatchedLocal) {
    const st = readTextOr(fs, `/proc/${l}/stat`);
    names.set(l, st ? (parseProcStat(st)?.comm ?? null) : null);
  }
  const taken = new Set<number>();
  for (const smiPid of unmatchedSmi) {
    const want = byPid.get(smiPid)?.name ?? '';
    const candidates = unmatchedLocal.filter((l) => !taken.has(l) && sameProgram(names.get(l) ?? null, want));
    if (candidates.length === 1) {
      pairs.set(smiPid, candidates[0]!);
      taken.add(candidates[0]!);
    }
  }
  return pairs;
}

/** nvidia-smi's process_name is the executable path or name; /proc's comm is its first 15 characters. */
function sameProgram(comm: string | null, smiName: string): boolean {
  if (comm === null || smiName === '') return false;
  const base = smiName.split('/').pop() ?? smiName;
  return base === comm || base.slice(0, 15) === comm;
}

/** PIDs with /dev/nvidia<N> (the GPUs, not nvidiactl or nvidia-uvm alone) open. */
/** When a process started, ms since the epoch: boot time + its starttime ticks. */
export function startedAtMs(bootTime: number | null, startTicks: number): number | null {
  return bootTime === null ? null : Math.round((bootTime + startTicks / CLOCK_TICKS) * 1000);
}

interface DeviceHolders {
  pids: Set<number>;
  unreadable: number;
  complete: boolean;
}

function scanDeviceHolders(fs: FileSystem): DeviceHolders {
  const pids = new Set<number>();
  let unreadable = 0;
  let entries;
  try {
    entries = fs.readdir('/proc');
  } catch {
    return { pids, unreadable, complete: false };
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e.name)) continue;
    let fds;
    try {
      fds = fs.readdir(`/proc/${e.name}/fd`);
    } catch (err) {
      // A process that exited during the scan holds nothing; only one we may not look into leaves a gap.
      if (!(err instanceof FsError && (err.code === 'ENOENT' || err.code === 'ENOTDIR'))) unreadable++;
      continue;
    }
    for (const fd of fds) {
      const target = safeReadlink(fs, `/proc/${e.name}/fd/${fd.name}`);
      if (target !== null && /^\/dev\/nvidia\d+$/.test(target)) {
        pids.add(Number(e.name));
        break;
      }
    }
  }
  // This tool's own nvidia-smi calls open the GPU while they run: nobody's GPU processes. (A job that `run`
  // started is a descendant too, and a GPU process: only nvidia-smi is left out here.)
  const self = Number(safeReadlink(fs, '/proc/self') ?? NaN);
  if (Number.isInteger(self) && self > 1) {
    for (const pid of [...pids])
      if (pid !== self && commOf(fs, pid) === 'nvidia-smi' && descendsFrom(fs, pid, self)) pids.delete(pid);
  }
  return { pids, unreadable, complete: unreadable === 0 };
}

/** The PIDs from `pid` up to (not including) PID 1: this tool and everything that started it. */
export function ancestry(fs: FileSystem, pid: number): Set<number> {
  const seen = new Set<number>();
  let cur = pid;
  while (cur > 1 && !seen.has(cur) && seen.size < 64) {
    seen.add(cur);
    const s = readTextOr(fs, `/proc/${cur}/stat`);
    const st = s ? parseProcStat(s) : null;
    if (!st) break;
    cur = st.ppid;
  }
  return seen;
}

function safeReadlink(fs: FileSystem, p: string): string | null {
  try {
    return fs.readlink(p);
  } catch {
    return null;
  }
}
