// A worker-thread entry (bundled as dist/explain-worker.cjs, scripts/build.mjs buildWorkers): explain's first pass
// over one range of a big log file. See ./range.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSystem } from '../../../ports/fs.js';
import { AnchorSet } from './anchors.js';
import { creditWaiter, type RangeJob, type RangeMessage, scanRange } from './range.js';

const job = workerData as RangeJob;
const post = (m: RangeMessage) => parentPort?.postMessage(m);
try {
  const reader = createFileSystem('/').openReader(job.file);
  try {
    scanRange(reader, job, AnchorSet.fromState(job.state), post, creditWaiter(job));
  } finally {
    reader.close();
  }
} catch (err) {
  post({ kind: 'fail', why: (err as Error).message });
}
