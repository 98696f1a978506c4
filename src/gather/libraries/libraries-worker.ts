// A worker-thread entry (bundled as dist/libraries-worker.cjs, scripts/build.mjs buildWorkers): the library
// inventory and the loader emulation of every framework found, posted back as the libraries section with no
// process compared. See ./libraries-job.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSystem } from '../../ports/fs.js';
import type { ProcessRunner } from '../../ports/runner.js';
import type { LibrariesJob } from './libraries-job.js';
import { runLibrariesJob } from './probe.js';

// The scan runs a program only where there is no ld.so.cache to read (ldconfig -p): the runner's code loads then.
const runner: ProcessRunner = {
  run: async (command, args, options) => (await import('../../ports/runner.js')).realRunner.run(command, args, options),
};
const job = workerData as LibrariesJob;
runLibrariesJob(job, createFileSystem(job.root), runner).then((posted) => parentPort?.postMessage(posted));
