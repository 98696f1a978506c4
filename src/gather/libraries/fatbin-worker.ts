// A worker-thread entry (bundled as dist/fatbin-worker.js): reads the fatbinary targets of the files it is
// given and posts them back (readFatbinTargetsInParallel in ./fatbin.ts); or, started with nvidia-smi before the
// command has found the Python environments, finds them itself and chooses the files as collect does
// (./fatbin-early.ts), turning on the compile cache first as the scan's worker does.
import * as nodeModule from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSystem } from '../../ports/fs.js';
import { readFatbinTargets } from './fatbin.js';
import type { LibrariesJob } from './libraries-job.js';

type Data = { root: string; paths: string[]; budgetMs: number } | { discover: LibrariesJob };
const data = workerData as Data;
if ('discover' in data) {
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
  try {
    if (typeof enable === 'function') enable();
  } catch {
    /* an unwritable cache folder only costs the speed-up */
  }
  const [{ realRunner }, { runFatbinJob }] = await Promise.all([
    import('../../ports/runner.js'),
    import('./fatbin-early.js'),
  ]);
  parentPort?.postMessage(runFatbinJob(data.discover, createFileSystem(data.discover.root), realRunner));
} else {
  const fs = createFileSystem(data.root);
  parentPort?.postMessage(data.paths.map((p) => [p, readFatbinTargets(fs, p, data.budgetMs)]));
}
