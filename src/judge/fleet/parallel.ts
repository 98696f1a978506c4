// `fleet` over many files on several cores: the inputs are cut into contiguous slices, each slice is read,
// parsed and merged by its own FleetMerger (worker threads, and this thread for the first slice), and the
// slices are joined in input order (FleetMerger.absorb), which gives the result one merger would give, to the
// byte. A slice whose worker cannot run (no bundled worker file, a crash) is merged here instead.
import { getLang, type Lang } from '../../base/i18n/index.js';
import { readInput, type Walked } from '../../gather/fleet-inputs.js';
import { createFileSystem } from '../../ports/fs.js';
import { availableThreads, runWorker } from '../../ports/worker.js';
import { ALL_CHECKS } from '../checks/index.js';
import { FleetMerger, type FleetPartial } from './merge.js';

/** Defined (true) by scripts/build.mjs: the bundle has dist/entries/fleet-worker.js beside its chunks folder. */
declare const __GED_BUNDLE__: boolean | undefined;

/** Below this many files per thread, a thread's start (its own copy of the checks, ~30 ms) costs more than it saves. */
export const MIN_FILES_PER_THREAD = 250;
/** Past this, the threads mostly wait on one another's reads and on the final join. */
export const MAX_THREADS = 8;
/**
 * A worker's start (Node's thread, then its own copy of the code) takes about as long as merging this many
 * snapshots here: the first slice, merged in this thread while the workers start, is larger by that much shared
 * out, so that the threads end together instead of this one waiting. Measured: the worker ended ~75 ms after this
 * thread with equal slices of 5,000 bench snapshots (~0.2 ms each).
 */
export const WORKER_START_FILES = 350;
/** A worker that has not answered in this long is given up on; its slice is merged here. */
const WORKER_TIMEOUT_MS = 10 * 60_000;

/** One slice of the inputs, as plain data (posted to a worker). */
export interface FleetJob {
  cwd: string;
  files: string[];
  /** how the folder walk opens each of these files (fleet-inputs.ts) */
  walked: [string, Walked][];
  /** check ids left out (the config's ignore list) */
  ignored: string[];
  lang: Lang;
}

/**
 * How many threads share `files` inputs on `cores` cores. Every core this process may use, busy or not (as explain's
 * split of a big log): a merge of hundreds of files is batch work that gains from any share of a core, while the
 * one-minute load average, which would say which are idle, still counts processes that ended up to a minute ago
 * (the command a script ran just before). Pure.
 */
export function fleetThreads(files: number, cores: number): number {
  return Math.max(1, Math.min(cores, MAX_THREADS, Math.floor(files / MIN_FILES_PER_THREAD)));
}

/** Reads, parses and merges one slice in this thread. */
export function mergeSlice(job: FleetJob): FleetPartial {
  const fsys = createFileSystem('/');
  const walked = new Map(job.walked);
  const ignored = new Set(job.ignored);
  const merger = new FleetMerger({ checks: ALL_CHECKS.filter((c) => !ignored.has(c.id)) });
  for (const file of job.files) {
    const input = readInput(fsys, job.cwd, file, walked.get(file));
    if ('snapshot' in input) merger.add(input.snapshot, file);
    else merger.skip(file, input.problem);
  }
  return merger.partial();
}

/**
 * Where the slices of `files` inputs begin, and the end: [0, b1, ..., files]. The first (this thread's) is
 * larger by WORKER_START_FILES × (threads − 1) / threads, the others smaller by WORKER_START_FILES / threads,
 * each keeping at least one file (no more slices than files). Pure.
 */
export function sliceBounds(files: number, threads: number): number[] {
  const n = Math.max(1, Math.min(threads, files));
  if (n === 1) return [0, files];
  const first = Math.min(files - (n - 1), Math.round(files / n + (WORKER_START_FILES * (n - 1)) / n));
  const rest = (files - first) / (n - 1);
  const bounds = [0, first];
  for (let i = 1; i < n - 1; i++) bounds.push(first + Math.round(rest * i));
  bounds.push(files);
  return bounds;
}

/** The files merged in slices, in input order (absorb them in that order). */
export async function mergeInSlices(
  input: { cwd: string; files: readonly string[]; walked: ReadonlyMap<string, Walked>; ignored: readonly string[] },
  threads = typeof __GED_BUNDLE__ === 'undefined' ? 1 : fleetThreads(input.files.length, availableThreads()),
): Promise<FleetPartial[]> {
  const jobs: FleetJob[] = [];
  const bounds = sliceBounds(input.files.length, threads);
  for (let i = 0; i + 1 < bounds.length; i++) {
    const files = input.files.slice(bounds[i], bounds[i + 1]);
    jobs.push({
      cwd: input.cwd,
      files,
      walked: files.flatMap((f): [string, Walked][] => {
        const w = input.walked.get(f);
        return w ? [[f, w]] : [];
      }),
      ignored: [...input.ignored],
      lang: getLang(),
    });
  }
  // the workers start first, then this thread merges the first slice while they run
  const worker = new URL('../entries/fleet-worker.js', import.meta.url);
  const posted = jobs.slice(1).map((job) => runWorker<FleetPartial>(worker, job, WORKER_TIMEOUT_MS));
  const first = mergeSlice(jobs[0]!);
  const rest = await Promise.all(posted);
  return [first, ...rest.map((p, i) => p ?? mergeSlice(jobs[i + 1]!))];
}
