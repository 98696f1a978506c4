// Reads the candidates' identity twice, a second apart, to know whether each is working right now: a
// process whose parent died may still be a job started with nohup, busy on the GPU. Reads go through the
// filesystem port; the wait is injected.
import type { FileSystem } from '../ports/fs.js';
import { readIdentity } from './identity.js';
import type { LiveSample } from './plan.js';

export const SAMPLE_WINDOW_MS = 1000;

export async function sampleProcesses(
  fs: FileSystem,
  pids: readonly number[],
  deps: { now(): number; sleep(ms: number): Promise<void> },
  windowMs = SAMPLE_WINDOW_MS,
): Promise<Map<number, LiveSample>> {
  const out = new Map<number, LiveSample>();
  if (pids.length === 0) return out;
  const t0 = deps.now();
  const first = new Map(pids.map((pid) => [pid, readIdentity(fs, pid)]));
  await deps.sleep(windowMs);
  const elapsedS = Math.max(0.001, (deps.now() - t0) / 1000);
  for (const pid of pids) {
    const a = first.get(pid) ?? null;
    const b = readIdentity(fs, pid);
    const same = a !== null && b !== null && a.startedAt === b.startedAt;
    out.set(pid, { identity: b, cpuShare: same ? Math.max(0, (b.cpuSeconds - a.cpuSeconds) / elapsedS) : null });
  }
  return out;
}
