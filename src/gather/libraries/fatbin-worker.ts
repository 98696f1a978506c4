// A worker-thread entry (bundled as dist/fatbin-worker.cjs): reads the fatbinary targets of the files it is
// given and posts them back. See readFatbinTargetsInParallel in ./fatbin.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSystem } from '../../ports/fs.js';
import { readFatbinTargets } from './fatbin.js';

const { root, paths, budgetMs } = workerData as { root: string; paths: string[]; budgetMs: number };
const fs = createFileSystem(root);
parentPort?.postMessage(paths.map((p) => [p, readFatbinTargets(fs, p, budgetMs)]));
