// What every probe receives: the two ports and a few settings. Probes are the only code that reads
// the machine, and they never throw through: they return facts or a ProbeFailure.
import type { FileSystem } from '../ports/fs.js';
import type { ProcessRunner } from '../ports/runner.js';

export interface ProbeOptions {
  /** per-program time limit */
  timeoutMs: number;
  /** run the expensive probes (framework imports, a convolution on the GPU) */
  deep: boolean;
  /** interpreters named with --python */
  pythons: string[];
  /** every Python environment found, not only the active one */
  allEnvs: boolean;
  /** extra ELF files to resolve (libs --elf) */
  elfFiles: string[];
  /** PIDs whose /proc/PID/maps to read besides the GPU processes (libs --pid) */
  pids: number[];
}

export interface ProbeEnv {
  fs: FileSystem;
  runner: ProcessRunner;
  env: Record<string, string | undefined>;
  now(): number;
  /** our own PID, to recognise ourselves and our ancestors among GPU processes */
  pid: number;
  options: ProbeOptions;
}

export const DEFAULT_PROBE_OPTIONS: ProbeOptions = {
  timeoutMs: 5000,
  deep: false,
  pythons: [],
  allEnvs: false,
  elfFiles: [],
  pids: [],
};

export interface Timing {
  id: string;
  ok: boolean;
  durationMs: number;
  message?: string;
}

/** Runs one probe, records how long it took, and turns an unexpected throw into a failed timing. */
export async function timed<T>(timings: Timing[], id: string, fn: () => T | Promise<T>, ok: (v: T) => boolean | string = () => true): Promise<T | undefined> {
  const t0 = performance.now();
  try {
    const v = await fn();
    const verdict = ok(v);
    timings.push({ id, ok: verdict === true, durationMs: round(performance.now() - t0), ...(typeof verdict === 'string' ? { message: verdict } : {}) });
    return v;
  } catch (err) {
    timings.push({ id, ok: false, durationMs: round(performance.now() - t0), message: `probe failed: ${err instanceof Error ? err.message : String(err)}` });
    return undefined;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
