// What every probe receives: the two ports and a few settings. Probes are the only code that reads
// the machine, and they never throw through: they return facts or a ProbeFailure.
import type { FileSystem } from '../ports/fs.js';
import type { ProcessRunner } from '../ports/runner.js';

export interface ProbeOptions {
  /** per-program time limit */
  timeoutMs: number;
  /** the expensive probes: 'native' runs the native cuDNN smoke test on each GPU (`--deep`), 'frameworks'
   *  also imports each framework and runs its convolution (`--deep=frameworks`) */
  deep: DeepMode;
  /** interpreters named with --python */
  pythons: string[];
  /** every Python environment found, not only the active one */
  allEnvs: boolean;
  /** extra ELF files to resolve (libs --elf) */
  elfFiles: string[];
  /** PIDs whose /proc/PID/maps to read besides the GPU processes (libs --pid) */
  pids: number[];
}

export type DeepMode = 'off' | 'native' | 'frameworks';

export interface ProbeEnv {
  fs: FileSystem;
  runner: ProcessRunner;
  env: Record<string, string | undefined>;
  now(): number;
  /** our own PID, to recognise ourselves and our ancestors among GPU processes */
  pid: number;
  options: ProbeOptions;
  /** a line for the user before something is run on their behalf (stderr of the command); absent in tests */
  announce?: (line: string) => void;
}

export const DEFAULT_PROBE_OPTIONS: ProbeOptions = {
  timeoutMs: 5000,
  deep: 'off',
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

/**
 * Runs one probe, records how long it took, and turns an unexpected throw into a failed timing. `ok` judges the
 * result: true, a string (it failed: why), or { note } (it worked: a remark shown with the timing).
 */
export async function timed<T>(
  timings: Timing[],
  id: string,
  fn: () => T | Promise<T>,
  ok: (v: T) => boolean | string | { note: string } = () => true,
  /** when the work started, if before this call (performance.now()) */
  since?: number,
): Promise<T | undefined> {
  const t0 = since ?? performance.now();
  try {
    const v = await fn();
    const verdict = ok(v);
    const passed = verdict === true || typeof verdict === 'object';
    const message = typeof verdict === 'string' ? verdict : typeof verdict === 'object' ? verdict.note : undefined;
    timings.push({
      id,
      ok: passed,
      durationMs: round(performance.now() - t0),
      ...(message !== undefined ? { message } : {}),
    });
    return v;
  } catch (err) {
    timings.push({
      id,
      ok: false,
      durationMs: round(performance.now() - t0),
      message: `probe failed: ${err instanceof Error ? err.message : String(err)}`,
    });
    return undefined;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
