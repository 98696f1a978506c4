// The worker-thread port: runs a bundled module in a worker thread with some data and resolves with the one
// message it posts back, or null on any failure (no worker file, a crash, the time limit). Used to read
// libtorch_cuda.so's fatbinary headers (tens of thousands of small reads) and to scan the libraries on another
// core while the main thread reads everything else.
import type * as WorkerThreads from 'node:worker_threads';
import { createRequire } from 'node:module';
import type * as Os from 'node:os';

// Built-ins required when first used: a worker thread's own code imports this module (through the code it
// shares with the main thread) and never starts a worker nor counts cores.
let requireBuiltin: NodeJS.Require | undefined;
const builtin = <T>(id: string): T => (requireBuiltin ??= createRequire(import.meta.url))(id) as T;

export function runWorker<T>(url: URL, data: unknown, timeoutMs: number): Promise<T | null> {
  return startWorker<T>(url, data, timeoutMs).result();
}

/** A worker started now: its one message (or null, as runWorker), and a way to end it when it is not needed. */
export interface StartedWorker<T> {
  /**
   * The message. A worker started with `unref` keeps the process alive from the first call on: one whose result
   * is never asked (the command refused an option) does not hold the exit.
   */
  result(): Promise<T | null>;
  /** ends the worker now; the result is then null (when it had not come) */
  stop(): void;
}

export function startWorker<T>(
  url: URL,
  data: unknown,
  timeoutMs: number,
  options: { unref?: boolean } = {},
): StartedWorker<T> {
  let stop = () => {};
  let ref = () => {};
  const result = new Promise<T | null>((resolve) => {
    let worker: WorkerThreads.Worker;
    try {
      const { Worker } = builtin<typeof WorkerThreads>('node:worker_threads');
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
    // the worker keeps the process alive while it runs (when it is referenced); the limit alone need not
    const timer = setTimeout(() => finish(null), timeoutMs);
    timer.unref();
    worker.once('message', (m: T) => finish(m));
    worker.once('error', () => finish(null));
    worker.once('exit', () => finish(null));
    if (options.unref) worker.unref();
    stop = () => finish(null);
    ref = () => worker.ref();
  });
  return {
    result: () => {
      ref();
      return result;
    },
    stop: () => stop(),
  };
}

/** The threads this process may run at once (cgroup and affinity limits included, where Node sees them). */
export function availableThreads(): number {
  const os = builtin<typeof Os>('node:os');
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/**
 * The cores no one else is using: those this process may use, less the last minute's load. A worker thread on a
 * busy core only adds its own start (its copy of the code) to a machine that has no time to give it.
 */
export function idleThreads(): number {
  return Math.max(1, Math.round(availableThreads() - builtin<typeof Os>('node:os').loadavg()[0]!));
}

/** A worker that posts a series of messages: read them in order, one at a time. */
export interface StreamingWorker<T> {
  /** the next message, or null when the worker failed, ended without one, was stopped, or the wait ran out */
  next(timeoutMs?: number): Promise<T | null>;
  /** sends the worker a message (a worker started with `unref` keeps the process alive from then on) */
  post(message: unknown): void;
  /** ends the worker now */
  stop(): void;
}

/**
 * Starts a worker whose messages are queued until asked for (the worker bounds how far it runs ahead). A failure
 * to start, an error or an exit are a null after the messages already posted. `unref`: the worker does not hold
 * the process until something is posted to it (one started ahead of a job that may never come).
 */
export function streamWorker<T>(url: URL, data: unknown, options: { unref?: boolean } = {}): StreamingWorker<T> {
  const queue: (T | null)[] = [];
  let waiting: ((m: T | null) => void) | undefined;
  let worker: WorkerThreads.Worker | undefined;
  let ended = false;
  const put = (m: T | null) => {
    if (ended) return;
    if (m === null) ended = true;
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(m);
    } else queue.push(m);
  };
  const stop = () => {
    put(null);
    void worker?.terminate();
  };
  try {
    const { Worker } = builtin<typeof WorkerThreads>('node:worker_threads');
    worker = new Worker(url, { workerData: data, stdout: true, stderr: true });
    worker.on('message', (m: T) => put(m));
    worker.once('error', () => put(null));
    worker.once('exit', () => put(null));
    if (options.unref) worker.unref();
  } catch {
    put(null);
  }
  return {
    next: (timeoutMs) => {
      if (queue.length > 0) return Promise.resolve(queue.shift() as T | null);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                waiting = undefined;
                stop();
                resolve(null);
              }, timeoutMs);
        timer?.unref();
        waiting = (m) => {
          clearTimeout(timer);
          resolve(m);
        };
      });
    },
    post: (message) => {
      if (ended || !worker) return;
      worker.ref();
      worker.postMessage(message);
    },
    stop,
  };
}
