// The worker-thread port: runs a bundled module in a worker thread with some data and resolves with the one
// message it posts back, or null on any failure (no worker file, a crash, the time limit). Used to read
// libtorch_cuda.so's fatbinary headers (tens of thousands of small reads) on another core while the main
// thread reads everything else.
import type * as WorkerThreads from 'node:worker_threads';
import { createRequire } from 'node:module';
import * as os from 'node:os';

const requireBuiltin = createRequire(import.meta.url);

export function runWorker<T>(url: URL, data: unknown, timeoutMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    let worker: WorkerThreads.Worker;
    try {
      const { Worker } = requireBuiltin('node:worker_threads') as typeof WorkerThreads;
      worker = new Worker(url, { workerData: data, stdout: true, stderr: true });
    } catch {
      resolve(null);
      return;
    }
    let done = false;
    const finish = (v: T | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    worker.once('message', (m: T) => finish(m));
    worker.once('error', () => finish(null));
    worker.once('exit', () => finish(null));
  });
}

/** The threads this process may run at once (cgroup and affinity limits included, where Node sees them). */
export function availableThreads(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/**
 * The cores no one else is using: those this process may use, less the last minute's load. A worker thread on a
 * busy core only adds its own start (its copy of the code) to a machine that has no time to give it.
 */
export function idleThreads(): number {
  return Math.max(1, Math.round(availableThreads() - os.loadavg()[0]!));
}
