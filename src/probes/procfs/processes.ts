// Who holds GPU memory: nvidia-smi's process list joined with /proc, plus processes that hold
// /dev/nvidia* open without being listed (another tool's context, a process in the middle of start-up).
import type { FileSystem } from '../../ports/fs.js';
import { readTextOr } from '../../ports/fs.js';
import type { HolderProcess, Nvidia } from '../../snapshot/schema.js';
import { parseBootTime, parseCmdline, parsePasswd, parseProcStat, parseProcStatus } from './parse.js';
import { parseMaps } from '../../libs/maps.js';
import { frameworkFromMaps } from '../../procs/framework.js';

/** Linux's USER_HZ: 100 on every architecture that GPU servers run (x86_64, aarch64, ppc64le). */
export const CLOCK_TICKS = 100;

/** Parents that adopt orphans: when a GPU process's parent is one of these, its real parent has died. */
const ADOPTERS = /^(init|systemd|tini|dumb-init|docker-init|catatonit|s6-svscan|containerd-shim.*|conmon|runsv|supervisord)$/;

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
  list: HolderProcess[];
}

export function probeProcesses(fs: FileSystem, nvidia: Nvidia, selfPid: number, nowMs: number, before?: CpuSample, sampleEndMs?: number): ProcessesProbe {
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
  // The scan of the CPU sample, taken a moment ago, when there is one: reading every /proc/PID/fd is the costly part of this probe
  // on a machine with many processes, and a GPU process that started since then holds no memory worth naming yet.
  const deviceHolders = before?.holders ?? scanDeviceHolders(fs);
  const smiToLocal = pairHostPids(fs, byPid, deviceHolders);
  const pids = new Set<number>([...deviceHolders.pids]);
  for (const smiPid of byPid.keys()) pids.add(smiToLocal.get(smiPid) ?? smiPid);
  const localToSmi = new Map([...smiToLocal].map(([h, l]) => [l, h]));
  const list: HolderProcess[] = [];
  for (const pid of [...pids].sort((a, b) => a - b)) {
    const smiPid = localToSmi.get(pid) ?? pid;
    const smi = byPid.get(smiPid);
    const described = describe(fs, pid, {
      gpus: smi?.gpus ?? [],
      usedMiB: smi?.usedMiB ?? null,
      listed: smi !== undefined,
      holdsDevice: deviceHolders.pids.has(pid),
      bootTime,
      users,
      ourNs,
      ancestors,
      nowMs,
      before,
      sampleEndMs,
    });
    list.push(smiPid === pid ? described : { ...described, nvidiaSmiPid: smiPid });
  }
  const message = deviceHolders.unreadable > 0 ? `${deviceHolders.unreadable} processes' open files could not be read (run as root to see every holder of /dev/nvidia*)` : undefined;
  return { ok: true, ...(message ? { message } : {}), list };
}

interface DescribeCtx {
  gpus: number[];
  usedMiB: number | null;
  listed: boolean;
  holdsDevice: boolean;
  bootTime: number | null;
  users: Map<number, string>;
  ourNs: string | null;
  ancestors: Set<number>;
  nowMs: number;
  before: CpuSample | undefined;
  sampleEndMs: number | undefined;
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
  if (!stat) return base;
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
    ticks0 !== undefined && windowMs >= MIN_SAMPLE_MS ? Math.round((((stat.utime + stat.stime - ticks0) * 1000) / CLOCK_TICKS / windowMs) * 100) : null;
  const ns = safeReadlink(fs, `/proc/${pid}/ns/pid`);
  return {
    ...base,
    name: stat.comm,
    cmdline: rawCmd === undefined ? null : parseCmdline(rawCmd),
    uid,
    user: uid === null ? null : (c.users.get(uid) ?? String(uid)),
    state: stat.state,
    ppid: stat.ppid,
    orphaned: stat.ppid <= 1 || parent === null || ADOPTERS.test(parent.comm),
    parentName: parent?.comm ?? null,
    startedAt,
    ageSeconds: startedAt === null ? null : Math.max(0, Math.round((c.nowMs - startedAt) / 1000)),
    cpuSeconds: (stat.utime + stat.stime) / CLOCK_TICKS,
    startTicks: stat.starttime,
    recentCpuPercent,
    otherPidNamespace: ns === null || c.ourNs === null ? null : ns !== c.ourNs,
    framework: frameworkOf(fs, pid),
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
function pairHostPids(fs: FileSystem, byPid: Map<number, { name: string }>, holders: { pids: Set<number>; complete: boolean }): Map<number, number> {
  const pairs = new Map<number, number>();
  if (!holders.complete) return pairs; // without every process's fds we cannot tell a collision from a match
  const unmatchedLocal = [...holders.pids].filter((p) => !byPid.has(p));
  const nameOf = (pid: number) => {
    const st = readTextOr(fs, `/proc/${pid}/stat`);
    return st ? (parseProcStat(st)?.comm ?? null) : null;
  };
  for (const smiPid of byPid.keys()) {
    if (holders.pids.has(smiPid)) continue; // the same PID here, and it has the GPU open: a true match
    const want = byPid.get(smiPid)?.name ?? '';
    const candidates = unmatchedLocal.filter((l) => ![...pairs.values()].includes(l) && sameProgram(nameOf(l), want));
    if (candidates.length === 1) pairs.set(smiPid, candidates[0]!);
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
    } catch {
      unreadable++;
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
  return { pids, unreadable, complete: unreadable === 0 };
}

function ancestry(fs: FileSystem, pid: number): Set<number> {
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
