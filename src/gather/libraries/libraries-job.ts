// The library scan run in a worker thread (dist/libraries-worker.cjs), started with nvidia-smi, before the command
// has loaded the rest of its code: the scan's ~60-120 ms of CPU then run on another core while the main thread loads
// code, reads the other sections and judges. Where the last scan's answer is kept and nothing it read has changed
// (./scan-cache.ts), that answer is used and no worker starts. This module is what the command loads before that
// start: plain types, the cache's check and the start itself, nothing of the scan (its code is the worker's to load).
import type { ProbeOptions } from '../probe-env.js';
import type { LibrariesSection } from '../snapshot/schema-libraries.js';
import type { FileSystem } from '../../ports/fs.js';
import { codeIdentity, userCacheDir } from '../../ports/user-cache.js';
import { idleThreads, startWorker, type StartedWorker } from '../../ports/worker.js';
import { ScanCache } from './scan-cache.js';
import type { ScanFingerprint } from './scan-record.js';

/** Defined (true) by scripts/build.mjs: the bundle has dist/libraries-worker.cjs next to its chunks folder. */
declare const __GED_BUNDLE__: boolean | undefined;

/** What the worker needs: plain data (structured-cloned into it). */
export interface LibrariesJob {
  /** the filesystem root (--root) */
  root: string;
  env: Record<string, string | undefined>;
  options: ProbeOptions;
  /** note what the scan reads and post its fingerprint, for the cache */
  record?: boolean;
}

/** What it posts back: the section with no process compared, and the environments it was scanned for. */
export interface LibrariesPosted {
  /** JSON of the discovered Python environments: the main thread uses the section only where its own are the same */
  environments: string;
  section: LibrariesSection;
  /** when it was done, in ms since the epoch (performance.timeOrigin + now(): each thread has its own origin) */
  doneAt: number;
  /** with `record`: what the scan read (./scan-record.ts), or why it cannot be kept */
  fingerprint?: ScanFingerprint | { refused: string };
}

/** The kept answers and this scan's question in them. */
export interface LibrariesCache {
  store: ScanCache;
  key: string;
  /** on a hit: how many reads were checked unchanged */
  checked?: number;
}

export interface LibrariesEarly {
  /** performance.now() at the worker's start (the probe's timing counts from there) */
  startedAt: number;
  /** the worker, or (`fromCache`) the kept answer as a worker that has answered; none where the main thread scans */
  worker?: StartedWorker<LibrariesPosted>;
  fromCache: boolean;
  cache?: LibrariesCache;
}

/**
 * The answer kept in the cache, or the scan started in a worker thread; undefined where neither can help or run:
 * the sources (the tests: no bundled worker file), --pid (the named processes are compared with the emulation).
 * With no idle core beside this thread (the worker's own start, an isolate loading its code, would then be time this
 * thread waits for) no worker starts: the main thread scans, and keeps its answer in the cache. `timeoutMs`: past
 * it, the main thread scans itself. `fs`: the plain port.
 */
export function startLibrariesWorker(job: LibrariesJob, timeoutMs: number, fs: FileSystem): LibrariesEarly | undefined {
  if (typeof __GED_BUNDLE__ === 'undefined') return undefined;
  if (job.options.pids.length > 0) return undefined;
  const startedAt = performance.now();
  const cache = cacheFor(job);
  const hit = cache?.store.scan(cache.key, fs, job.env);
  if (cache && hit) {
    const posted: LibrariesPosted = {
      environments: hit.hit.environments,
      section: { ...hit.hit.section, durationMs: Math.round((performance.now() - startedAt) * 10) / 10 },
      doneAt: performance.timeOrigin + performance.now(),
    };
    const answered = Promise.resolve(posted);
    const worker = { result: () => answered, stop: () => {} };
    return { startedAt, fromCache: true, worker, cache: { ...cache, checked: hit.checked } };
  }
  if (idleThreads() < 2) return cache ? { startedAt, fromCache: false, cache } : undefined;
  return {
    startedAt,
    fromCache: false,
    // not holding the exit of a command that ends before it asks for the result (a refused option)
    worker: startWorker<LibrariesPosted>(
      new URL('../libraries-worker.cjs', import.meta.url),
      { ...job, record: cache !== undefined },
      timeoutMs,
      { unref: true },
    ),
    ...(cache ? { cache } : {}),
  };
}

/**
 * The cache for this job: only for the machine itself (not --root: a tree of files to look at, not a machine to
 * come back to), in the bundle (whose file identifies the build), where the user has a cache folder (and has not
 * turned it off).
 */
export function cacheFor(job: LibrariesJob): LibrariesCache | undefined {
  if (typeof __GED_BUNDLE__ === 'undefined' || job.root !== '/' || userCacheDir(job.env) === null) return undefined;
  const build = codeIdentity(new URL('../libraries-worker.cjs', import.meta.url));
  if (build === null) return undefined;
  return {
    store: ScanCache.open(job.env, build),
    // what the scan reads depends on: not --deep, nor --timeout (which only bounds `ldconfig -p`: never kept)
    key: JSON.stringify({
      root: job.root,
      arch: process.arch,
      options: { ...job.options, deep: null, timeoutMs: null },
    }),
  };
}
