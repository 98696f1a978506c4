// Helpers for the fix and procs tests: real processes standing in for leftovers, a fake nvidia-smi that
// replays the real H200 capture with their PIDs in the process list, and snapshots built from real captures.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { orphanArgv } from '../helpers/orphan.js';
import { parseSmiXml } from '../../src/gather/nvidia/parse-xml.js';
import type { FileSystem } from '../../src/ports/fs.js';
import type { HolderProcess, Snapshot } from '../../src/gather/snapshot/schema.js';

const XML = fs.readFileSync(path.join(FIXTURES, 'h200/hog/smi-one-proc.xml'), 'utf8');
const QUERY_CSV = path.join(FIXTURES, 'h200/idle/query-gpu.csv');

/**
 * Starts `argv` from a shell in its own session that exits at once, so the process is orphaned (adopted by
 * PID 1) with the evidence a leftover of a job that ended carries (helpers/orphan.ts). Returns its PID. `uid`: run it as that user (tests run as root here).
 */
export function spawnOrphan(argv: string[], opts: { uid?: number } = {}): number {
  const [cmd, ...args] = orphanArgv(argv);
  const out = execFileSync(cmd!, args, {
    encoding: 'utf8',
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  const pid = Number(out.trim());
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`could not start ${argv.join(' ')}: ${out}`);
  waitFor(() => readState(pid) !== null);
  return pid;
}

export function readState(pid: number): string | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Alive and not a zombie (a killed orphan stays a zombie here: this VM's PID 1 does not reap). */
export function isRunning(pid: number): boolean {
  const s = readState(pid);
  return s !== null && s !== 'Z' && s !== 'X';
}

export function waitFor(cond: () => boolean, ms = 5000): void {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    spawnSync('sleep', ['0.02']);
  }
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** The real H200 `nvidia-smi -q -x` capture with its one process entry replaced by `procs`. */
export function smiXmlWith(procs: { pid: number; usedMiB: number }[]): string {
  const entries = procs
    .map(
      (p) => `\t\t\t<process_info>
\t\t\t\t<gpu_instance_id>N/A</gpu_instance_id>
\t\t\t\t<compute_instance_id>N/A</compute_instance_id>
\t\t\t\t<pid>${p.pid}</pid>
\t\t\t\t<type>C</type>
\t\t\t\t<process_name>python3</process_name>
\t\t\t\t<used_memory>${p.usedMiB} MiB</used_memory>
\t\t\t</process_info>`,
    )
    .join('\n');
  const out = XML.replace(/<processes>[\s\S]*?<\/processes>/, `<processes>\n${entries}\n\t\t</processes>`);
  if (out === XML && procs.length > 0) throw new Error('process list not found in the capture');
  return out;
}

/** A directory (readable by every user) with a fake nvidia-smi listing `procs` as GPU processes. */
export function fakeSmiDir(procs: { pid: number; usedMiB: number }[]): string {
  const dir = tempDir('ged-fix-');
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, 'smi.xml'), smiXmlWith(procs));
  fakeBin(
    dir,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${dir}/smi.xml' ;;
  --query-gpu=*) cat '${QUERY_CSV}' ;;
  *) echo "unsupported" >&2; exit 2 ;;
esac`,
  );
  return dir;
}

/** A snapshot around the real H200 capture (GPU facts parsed from it), with the given processes. */
export function snapshotWith(list: HolderProcess[], self: Partial<Snapshot['self']> = {}): Snapshot {
  const parsed = parseSmiXml(
    smiXmlWith(list.filter((p) => p.listedByNvidiaSmi).map((p) => ({ pid: p.pid, usedMiB: p.usedMiB ?? 0 }))),
  );
  return {
    schemaVersion: 1,
    tool: { name: 'gpu-env-doctor', version: 'test' },
    collectedAt: '2026-12-02T10:00:00.000Z',
    host: { name: 'h200' },
    self: { pid: 4242, uid: 0, user: 'root', pidNamespace: 'pid:[4026531836]', ...self },
    system: {
      os: 'Ubuntu 24.04',
      kernel: '6.18.44',
      arch: 'x64',
      container: { kind: 'none', evidence: [] },
      wsl: false,
      kernelModule: null,
      nvidiaDevices: ['/dev/nvidia0'],
      uptimeSeconds: 10000,
      clockTicks: 100,
    },
    nvidia: {
      ok: true,
      driverVersion: parsed.driverVersion,
      cudaVersion: parsed.cudaVersion,
      gpus: parsed.gpus.map((g) => ({ ...g, computeCapability: '9.0' })),
    },
    processes: { ok: true, list },
    env: {},
    probes: [],
  };
}

/**
 * A GPU holder as the probe describes one; by default the hog of the H200 capture, orphaned: its session (417,
 * the job's shell's, as in the real /proc/637/stat) is not its parent's (PID 1's, 0), so PID 1 adopted it.
 */
export function holder(over: Partial<HolderProcess> = {}): HolderProcess {
  const h: HolderProcess = {
    pid: 694,
    gpus: [0],
    usedMiB: 142848,
    listedByNvidiaSmi: true,
    visible: true,
    name: 'python3',
    cmdline: ['python3', 'hog.py', '1200', '120'],
    uid: 0,
    user: 'root',
    state: 'sleeping',
    ppid: 1,
    orphaned: true,
    parentName: 'init',
    pgid: 417,
    sid: 417,
    ttyNr: 0,
    startTicks: 7986,
    parentStartTicks: 3,
    parentSid: 0,
    startedAt: 1764669000000,
    ageSeconds: 300,
    cpuSeconds: 5.5,
    otherPidNamespace: false,
    holdsDeviceFiles: true,
    isSelfOrAncestor: false,
    ...over,
  };
  // Another parent given: by default the one that forked it, so in the same session.
  if (over.ppid !== undefined && over.ppid !== 1 && over.parentSid === undefined) h.parentSid = h.sid ?? null;
  return h;
}

/**
 * The real filesystem port, except that each of `pids` also shows /dev/nvidia0 among its open files (fd 990):
 * for in-process tests whose leftovers are real processes on a machine without a GPU.
 */
export function fsWithGpuFds(base: FileSystem, pids: readonly number[]): FileSystem {
  const fdDir = (p: string) => pids.find((pid) => p === `/proc/${pid}/fd`);
  return {
    ...base,
    readdir(p) {
      const entries = base.readdir(p);
      return fdDir(p) !== undefined ? [...entries, { name: '990', type: 'symlink' as const }] : entries;
    },
    readlink(p) {
      return pids.some((pid) => p === `/proc/${pid}/fd/990`) ? '/dev/nvidia0' : base.readlink(p);
    },
  };
}

/** The fix plan as one line per entry: the terminal layout wraps long ones with a hanging indent. */
export const flat = (text: string) => text.replace(/\n {5,}/g, ' ');
