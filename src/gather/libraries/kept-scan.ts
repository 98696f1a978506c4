// The library scan and torch's fatbinary walk with the cache between runs (./scan-cache.ts): what collect calls in
// their place when the cache is kept. The scan run here (no worker) notes what it reads, as the worker does.
import type { ProbeEnv } from '../probe-env.js';
import type { PythonEnvironment } from '../python/environments.js';
import { readFatbinTargetsInParallel, type FatbinResults } from './fatbin.js';
import type { LibrariesCache } from './libraries-job.js';
import { scanLibraries, type LibraryScan } from './probe.js';
import { record, type ScanFingerprint } from './scan-record.js';

/** The scan on this thread, with the fingerprint of what it read (or why there is none). */
export async function recordedScan(
  penv: ProbeEnv,
  environments: PythonEnvironment[],
): Promise<{ scan: LibraryScan; fingerprint: ScanFingerprint | { refused: string } }> {
  const startedAtMs = Date.now();
  const rec = record(penv.fs, penv.env, penv.runner);
  const scan = await scanLibraries({ ...penv, fs: rec.fs, env: rec.env, runner: rec.runner }, environments);
  // the scan's objects keep reading through the recording view (a process compared later): harmless, not kept
  return { scan, fingerprint: rec.fingerprint(startedAtMs) };
}

/** torch's architectures: each library whose identity is unchanged from the cache, the others read (and kept). */
export async function fatbinWithCache(
  fs: ProbeEnv['fs'],
  paths: readonly string[],
  cache: LibrariesCache | undefined,
): Promise<{ results: FatbinResults; thread: 'worker' | 'main' | 'cache' }> {
  if (!cache || paths.length === 0) return readFatbinTargetsInParallel(fs, paths);
  const results: FatbinResults = new Map();
  const missing: string[] = [];
  for (const p of paths) {
    const kept = cache.store.fatbin(p, fs);
    if (kept) results.set(p, kept);
    else missing.push(p);
  }
  if (missing.length === 0) return { results, thread: 'cache' };
  const startedAtMs = Date.now();
  const read = await readFatbinTargetsInParallel(fs, missing);
  for (const [p, targets] of read.results) {
    results.set(p, targets);
    // unknown (past the time limit, or no fatbinary) is not kept: the next run looks again
    if (targets) cache.store.rememberFatbin(p, fs, targets, startedAtMs);
  }
  // in the order asked
  return { results: new Map(paths.map((p) => [p, results.get(p) ?? null])), thread: read.thread };
}
