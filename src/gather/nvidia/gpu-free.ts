// After fix has ended processes: how much memory each of their GPUs has free now, read from nvidia-smi again.
// The driver takes a moment to tear a context down, so the reading waits briefly for the free memory to settle.
import type { ProcessRunner } from '../../ports/runner.js';

export const FREE_ARGS = ['--query-gpu=index,memory.free,memory.total', '--format=csv,noheader,nounits'] as const;
/** Readings are taken this far apart until two agree (at most SETTLE_TRIES of them). */
const SETTLE_MS = 300;
const SETTLE_TRIES = 5;

export interface GpuFree {
  index: number;
  freeMiB: number;
  totalMiB: number;
}

/** "0, 143000, 143771" lines; unreadable lines are skipped. */
export function parseGpuFree(text: string): GpuFree[] {
  const out: GpuFree[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*$/.exec(line);
    if (m) out.push({ index: Number(m[1]), freeMiB: Number(m[2]), totalMiB: Number(m[3]) });
  }
  return out;
}

/** The GPUs asked for, as nvidia-smi reads them now; null when it cannot be read. */
export async function readGpuFree(
  runner: ProcessRunner,
  sleep: (ms: number) => Promise<void>,
  gpus: readonly number[],
): Promise<GpuFree[] | null> {
  let last: GpuFree[] | null = null;
  for (let i = 0; i < SETTLE_TRIES; i++) {
    const r = await runner.run('nvidia-smi', [...FREE_ARGS], { timeoutMs: 5000, maxBytes: 1024 * 1024 });
    if (r.kind !== 'ok') return last;
    const now = parseGpuFree(r.stdout).filter((g) => gpus.includes(g.index));
    if (now.length === 0) return last;
    if (last !== null && now.every((g) => last!.find((x) => x.index === g.index)?.freeMiB === g.freeMiB)) return now;
    last = now;
    await sleep(SETTLE_MS);
  }
  return last;
}
