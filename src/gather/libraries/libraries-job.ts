// The library scan run in a worker thread (dist/libraries-worker.js), started with nvidia-smi, before the command
// has loaded the rest of its code: the scan's ~60-120 ms of CPU then run on another core while the main thread loads
// code, reads the other sections and judges. This module is what the command loads before that start: plain types
// and the start itself, nothing of the scan (its code is the worker's to load).
import type { ProbeOptions } from '../probe-env.js';
import type { LibrariesSection } from '../snapshot/schema-libraries.js';
import { idleThreads, startWorker, type StartedWorker } from '../../ports/worker.js';

/** Defined (true) by scripts/build.mjs: the bundle has dist/libraries-worker.js next to its chunks folder. */
declare const __GED_BUNDLE__: boolean | undefined;

/** What the worker needs: plain data (structured-cloned into it). */
export interface LibrariesJob {
  /** the filesystem root (--root) */
  root: string;
  env: Record<string, string | undefined>;
  options: ProbeOptions;
}

/** What it posts back: the section with no process compared, and the environments it was scanned for. */
export interface LibrariesPosted {
  /** JSON of the discovered Python environments: the main thread uses the section only where its own are the same */
  environments: string;
  section: LibrariesSection;
  /** when it was done, in ms since the epoch (performance.timeOrigin + now(): each thread has its own origin) */
  doneAt: number;
}

export interface LibrariesEarly {
  /** performance.now() at the worker's start (the probe's timing counts from there) */
  startedAt: number;
  worker: StartedWorker<LibrariesPosted>;
}

/**
 * Starts the scan in a worker thread, or returns undefined where it cannot help or cannot run: the sources (the
 * tests: no bundled worker file), no idle core beside this thread (the worker's own start, an isolate loading its
 * code, would then be time this thread waits for), --deep (its smoke test is planned from the scan's own objects),
 * --pid (the named processes are compared with the emulation). `timeoutMs`: past it, the main thread scans itself.
 */
export function startLibrariesWorker(job: LibrariesJob, timeoutMs: number): LibrariesEarly | undefined {
  if (typeof __GED_BUNDLE__ === 'undefined') return undefined;
  if (job.options.deep !== 'off' || job.options.pids.length > 0 || idleThreads() < 2) return undefined;
  const startedAt = performance.now();
  return {
    startedAt,
    // not holding the exit of a command that ends before it asks for the result (a refused option)
    worker: startWorker<LibrariesPosted>(new URL('../libraries-worker.js', import.meta.url), job, timeoutMs, {
      unref: true,
    }),
  };
}
