// A worker-thread entry (bundled as dist/entries/fleet-worker.js): merges the slice of fleet's inputs it is given and
// posts the partial merge back. See mergeInSlices in ./parallel.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { setLang } from '../../base/i18n/index.js';
import { mergeSlice, type FleetJob } from './parallel.js';

const job = workerData as FleetJob;
setLang(job.lang);
parentPort?.postMessage(mergeSlice(job));
