// Is a candidate working on the GPU? A job that waits on the GPU with a blocking event uses almost no CPU while
// the GPU runs at full speed, so CPU alone cannot tell it from a leftover. Read during fix's sampling window:
// per-process SM activity (`nvidia-smi pmon`) where the driver gives it, else the GPU's utilization, which
// belongs to a process only when it is the one holder on that GPU. Parsers and the judgement are pure.
import type { ProcessRunner } from '../../ports/runner.js';
import type { HolderProcess, Snapshot } from '../snapshot/schema.js';

/** three one-second samples, the busiest kept: one sample misses a job whose kernels alternate with another's (seen on
 *  a real GPU: a loop on a blocking event showed "-" in one sample, 74% in the next) */
export const PMON_ARGS = ['pmon', '-c', '3', '-s', 'u'] as const;
export const UTIL_ARGS = ['--query-gpu=index,utilization.gpu', '--format=csv,noheader,nounits'] as const;

export interface GpuActivity {
  /** nvidia-smi's PID → SM % during the sample ("-": none, read as 0); null when pmon gave nothing */
  perProcess: Map<number, number> | null;
  /** GPU index → utilization %; null when not read */
  perGpu: Map<number, number> | null;
}

/** `nvidia-smi pmon -s u`: "# gpu pid type sm mem …" then one row per process; columns found by the header. */
export function parsePmon(text: string): Map<number, number> | null {
  let pidCol = -1;
  let smCol = -1;
  const out = new Map<number, number>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === '#') {
      const head = f.slice(1);
      if (pidCol < 0 && head.includes('pid') && head.includes('sm')) {
        pidCol = head.indexOf('pid');
        smCol = head.indexOf('sm');
      }
      continue;
    }
    if (pidCol < 0 || f.length <= Math.max(pidCol, smCol)) continue;
    const pid = Number(f[pidCol]);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const sm = /^\d+$/.test(f[smCol] ?? '') ? Number(f[smCol]) : 0;
    out.set(pid, Math.max(out.get(pid) ?? 0, sm));
  }
  return pidCol < 0 ? null : out;
}

/** "0, 97" lines of --query-gpu=index,utilization.gpu. */
export function parseUtilization(text: string): Map<number, number> | null {
  const out = new Map<number, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(line);
    if (m) out.set(Number(m[1]), Number(m[2]));
  }
  return out.size > 0 ? out : null;
}

/** Runs both readings at once (pmon takes about three seconds); a failure of either leaves its part null. */
export async function readGpuActivity(runner: ProcessRunner, timeoutMs = 8000): Promise<GpuActivity> {
  const [pmon, util] = await Promise.all([
    runner.run('nvidia-smi', [...PMON_ARGS], { timeoutMs, maxBytes: 1024 * 1024 }),
    runner.run('nvidia-smi', [...UTIL_ARGS], { timeoutMs, maxBytes: 1024 * 1024 }),
  ]);
  return {
    perProcess: pmon.kind === 'ok' ? parsePmon(pmon.stdout) : null,
    perGpu: util.kind === 'ok' ? parseUtilization(util.stdout) : null,
  };
}

export type GpuWork =
  | { kind: 'busy'; pct: number; how: 'process' | 'gpu' }
  | { kind: 'idle'; how: 'process' | 'gpu' }
  /** its GPU was busy, but other processes hold it too: whose work it is cannot be told */
  | { kind: 'shared'; pct: number }
  | { kind: 'unknown' };

export function gpuWorkOf(p: HolderProcess, s: Snapshot, a: GpuActivity): GpuWork {
  if (a.perProcess) {
    const sm = a.perProcess.get(p.nvidiaSmiPid ?? p.pid) ?? 0;
    return sm > 0 ? { kind: 'busy', pct: sm, how: 'process' } : { kind: 'idle', how: 'process' };
  }
  if (!a.perGpu || p.gpus.length === 0) return { kind: 'unknown' };
  let shared: number | null = null;
  for (const g of p.gpus) {
    const util = a.perGpu.get(g);
    if (util === undefined) return { kind: 'unknown' };
    if (util === 0) continue;
    const others = s.processes.list.filter((q) => q.pid !== p.pid && q.listedByNvidiaSmi && q.gpus.includes(g));
    if (others.length === 0) return { kind: 'busy', pct: util, how: 'gpu' };
    shared = Math.max(shared ?? 0, util);
  }
  return shared !== null ? { kind: 'shared', pct: shared } : { kind: 'idle', how: 'gpu' };
}
