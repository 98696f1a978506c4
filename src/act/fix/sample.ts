// Watches the candidates over a window before anything is ended: a process whose parent died may still be a
// job started with nohup that works (CPU), waits on the GPU (little CPU, the GPU busy) or logs its progress.
// Reads go through the filesystem port; the wait, the clock and the GPU reading are injected.
import type { FileSystem } from '../../ports/fs.js';
import type { GpuActivity } from '../../gather/nvidia/gpu-activity.js';
import { readIdentity } from '../../gather/procfs/identity.js';
import type { LiveSample } from '../../judge/fix/plan.js';

/** How long fix watches each candidate, stated in its plan. */
export const SAMPLE_WINDOW_MS = 2000;

export interface SampleDeps {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** read during the window (nvidia-smi pmon takes about a second); absent: GPU activity is not read */
  gpuActivity?: () => Promise<GpuActivity>;
}

export interface WindowSample {
  live: Map<number, LiveSample>;
  windowMs: number;
  gpu: GpuActivity | null;
}

export async function sampleProcesses(
  fs: FileSystem,
  pids: readonly number[],
  deps: SampleDeps,
  windowMs = SAMPLE_WINDOW_MS,
): Promise<Map<number, LiveSample>> {
  return (await sampleWindow(fs, pids, deps, windowMs)).live;
}

export async function sampleWindow(
  fs: FileSystem,
  pids: readonly number[],
  deps: SampleDeps,
  windowMs = SAMPLE_WINDOW_MS,
): Promise<WindowSample> {
  const out = new Map<number, LiveSample>();
  if (pids.length === 0) return { live: out, windowMs: 0, gpu: null };
  const t0 = deps.now();
  const first = new Map(pids.map((pid) => [pid, readIdentity(fs, pid)]));
  const written0 = new Map(pids.map((pid) => [pid, outputMtime(fs, pid)]));
  const [gpu] = await Promise.all([
    deps.gpuActivity ? deps.gpuActivity().catch(() => null) : Promise.resolve(null),
    deps.sleep(windowMs),
  ]);
  const elapsedS = Math.max(0.001, (deps.now() - t0) / 1000);
  for (const pid of pids) {
    const a = first.get(pid) ?? null;
    const b = readIdentity(fs, pid);
    const same = a !== null && b !== null && a.startedAt === b.startedAt;
    const w0 = written0.get(pid) ?? null;
    const w1 = same ? outputMtime(fs, pid) : null;
    out.set(pid, {
      identity: b,
      cpuShare: same ? Math.max(0, (b.cpuSeconds - a.cpuSeconds) / elapsedS) : null,
      // Its log file changed while we watched: it is still writing.
      outputWritten: w1 === null ? null : w0 !== null && w1 > w0,
    });
  }
  return { live: out, windowMs: Math.round(elapsedS * 1000), gpu };
}

/** The latest mtime of the regular files on fds 1 and 2 (ms since the epoch); null: neither is one. */
function outputMtime(fs: FileSystem, pid: number): number | null {
  let latest: number | null = null;
  for (const fd of [1, 2]) {
    let st;
    try {
      st = fs.tryStat(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (st?.type === 'file' && (latest === null || st.mtimeMs > latest)) latest = st.mtimeMs;
  }
  return latest;
}
