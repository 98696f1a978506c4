// A worker-thread entry (bundled as dist/entries/fleet-worker.js): waits for the inputs, then takes chunks of them
// until none is left, posting each chunk's partial merge back. See mergeInChunks in ./parallel.ts.
import { parentPort } from 'node:worker_threads';
import { mergeChunks, type FleetJob } from './parallel.js';

parentPort?.once('message', (job: FleetJob) => mergeChunks(job, (m) => parentPort!.postMessage(m)));
