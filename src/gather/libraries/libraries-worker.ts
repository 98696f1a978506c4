// A worker-thread entry (bundled as dist/libraries-worker.js): the library inventory and the loader emulation of
// every framework found, posted back as the libraries section with no process compared. See ./libraries-job.ts.
// A worker does not share the compile cache the main thread turned on (src/cli.ts): it turns it on itself before
// it loads the scan's code, which is then read compiled from the cache rather than compiled again at every run.
import * as nodeModule from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { LibrariesJob } from './libraries-job.js';

const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
try {
  if (typeof enable === 'function') enable();
} catch {
  /* an unwritable cache folder only costs the speed-up */
}
const job = workerData as LibrariesJob;
const [{ createFileSystem }, { realRunner }, { runLibrariesJob }] = await Promise.all([
  import('../../ports/fs.js'),
  import('../../ports/runner.js'),
  import('./probe.js'),
]);
parentPort?.postMessage(await runLibrariesJob(job, createFileSystem(job.root), realRunner));
