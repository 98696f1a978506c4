// A worker-thread entry (bundled as dist/libraries-worker.js): the library inventory and the loader emulation of
// every framework, for a machine with no GPU process to compare them with, posted back as the libraries section.
// See scanLibrariesInWorker in ./probe.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSystem } from '../../ports/fs.js';
import { realRunner } from '../../ports/runner.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../probe-env.js';
import { addProcesses, scanLibraries, type LibrariesJob } from './probe.js';

const job = workerData as LibrariesJob;
const fs = createFileSystem(job.root);
const penv: ProbeEnv = {
  fs: fs.session?.() ?? fs,
  runner: realRunner,
  env: job.env,
  now: () => Date.now(),
  pid: process.pid,
  options: { ...DEFAULT_PROBE_OPTIONS, timeoutMs: job.timeoutMs, elfFiles: job.elfFiles },
};
parentPort?.postMessage(addProcesses(await scanLibraries(penv, job.environments), []));
