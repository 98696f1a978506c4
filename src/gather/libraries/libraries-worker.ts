// A worker-thread entry (bundled as dist/libraries-worker.js): the library inventory and the loader emulation of
// every framework found, posted back as the libraries section with no process compared. See ./libraries-job.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSystem } from '../../ports/fs.js';
import { realRunner } from '../../ports/runner.js';
import type { LibrariesJob } from './libraries-job.js';
import { runLibrariesJob } from './probe.js';

const job = workerData as LibrariesJob;
parentPort?.postMessage(await runLibrariesJob(job, createFileSystem(job.root), realRunner));
