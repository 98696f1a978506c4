// `fleet` over many files on several cores: the inputs are cut into chunks of consecutive files, and every thread
// (worker threads, and this one) takes the next chunk not yet taken until none is left, so that threads which start
// late or run slower simply take fewer. Each thread merges its chunks with one FleetMerger and hands each chunk's
// partial over; the partials are joined in input order (FleetMerger.absorb), which gives the result one merger
// would give, to the byte. A chunk whose worker fails (a crash, the time limit) is merged here instead.
import { getLang, setLang, type Lang } from '../../base/i18n/index.js';
import { readInput, type Walked } from '../../gather/fleet-inputs.js';
import { createFileSystem } from '../../ports/fs.js';
import { availableThreads, streamWorker, type StreamingWorker } from '../../ports/worker.js';
import { ALL_CHECKS } from '../checks/index.js';
import { FleetMerger, type FleetPartial } from './merge.js';

/** Defined (true) by scripts/build.mjs: the bundle has dist/entries/fleet-worker.js beside its chunks folder. */
declare const __GED_BUNDLE__: boolean | undefined;

/** Below this many files per thread, a thread's start (its own copy of the checks, ~30 ms) costs more than it saves. */
export const MIN_FILES_PER_THREAD = 250;
/** Past this, the threads mostly wait on one another's reads and on the final join. */
export const MAX_THREADS = 8;
/**
 * Chunks per thread: enough that the threads end within a chunk of one another (a chunk of the bench's 10,000 on
 * two threads, ~160 files, is ~30 ms), few enough that handing chunks over costs little.
 */
const CHUNKS_PER_THREAD = 32;
const MIN_CHUNK = 16;
const MAX_CHUNK = 256;
/** A worker that has not answered in this long is given up on; its chunks are merged here. */
const WORKER_TIMEOUT_MS = 10 * 60_000;

/** The inputs as the folder walk gave them. */
export interface FleetInputs {
  cwd: string;
  files: readonly string[];
  walked: ReadonlyMap<string, Walked>;
  /** check ids left out (the config's ignore list) */
  ignored: readonly string[];
}

/**
 * The inputs as posted to a worker: strings joined and numbers in typed arrays, which a message copies ten times
 * faster than 10,000 small objects (~2.5 ms instead of ~25 on this thread, measured).
 */
export interface FleetJob {
  cwd: string;
  /** every input, joined by NUL (no path holds one) */
  files: string;
  /** per file: the path the walk opens ('' for a file named by the user), joined by NUL */
  opens: string;
  /** the folders the walked files must stay in; per file, its folder's index (-1: named by the user) */
  insides: string[];
  inside: Int32Array;
  /** per file: the walk's (dev, ino, birth time) */
  found: Float64Array;
  ignored: string[];
  lang: Lang;
  /** files per chunk */
  chunk: number;
  /** [0]: the next chunk to take, shared by every thread (a SharedArrayBuffer) */
  next: Int32Array;
  /** the number the worker's partials carry */
  source: number;
}

/** What a worker posts: a chunk's partial, then `done` when no chunk is left. */
export type FleetMessage = { chunk: number; partial: FleetPartial } | { done: true };

/**
 * How many threads share `files` inputs on `cores` cores. Every core this process may use, busy or not (as explain's
 * split of a big log): a merge of hundreds of files is batch work that gains from any share of a core, while the
 * one-minute load average, which would say which are idle, still counts processes that ended up to a minute ago
 * (the command a script ran just before). Pure.
 */
export function fleetThreads(files: number, cores: number): number {
  return Math.max(1, Math.min(cores, MAX_THREADS, Math.floor(files / MIN_FILES_PER_THREAD)));
}

/** Files per chunk for `files` inputs on `threads` threads. Pure. */
export function chunkSize(files: number, threads: number): number {
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.ceil(files / (threads * CHUNKS_PER_THREAD))));
}

/** Adds files [from, to) of the inputs to `merger`, read and parsed here (an unreadable one is skipped). */
function mergeRange(
  merger: FleetMerger,
  cwd: string,
  from: number,
  to: number,
  file: (i: number) => string,
  walked: (i: number) => Walked | undefined,
): void {
  const fsys = createFileSystem('/');
  for (let i = from; i < to; i++) {
    const f = file(i);
    const input = readInput(fsys, cwd, f, walked(i));
    if ('snapshot' in input) merger.add(input.snapshot, f);
    else merger.skip(f, input.problem);
  }
}

/** The checks fleet runs: all but those the config's ignore list leaves out. */
export function checksLeft(ignored: readonly string[]) {
  const out = new Set(ignored);
  return ALL_CHECKS.filter((c) => !out.has(c.id));
}

/** Every file merged in this thread by `into` itself: one merger given every file in order. */
function mergeAll(into: FleetMerger, input: FleetInputs): void {
  mergeRange(
    into,
    input.cwd,
    0,
    input.files.length,
    (i) => input.files[i]!,
    (i) => input.walked.get(input.files[i]!),
  );
}

/** A worker's loop (src/judge/fleet/worker.ts): takes chunks until none is left, posting each chunk's partial. */
export function mergeChunks(job: FleetJob, post: (m: FleetMessage) => void): void {
  const before = getLang();
  setLang(job.lang);
  try {
    const files = job.files.split('\0');
    const opens = job.opens.split('\0');
    const walked = (i: number): Walked | undefined => {
      const k = job.inside[i]!;
      if (k < 0) return undefined;
      const f = job.found;
      return {
        open: opens[i]!,
        inside: job.insides[k]!,
        found: { dev: f[3 * i]!, ino: f[3 * i + 1]!, birthtimeMs: f[3 * i + 2]! },
      };
    };
    const merger = new FleetMerger({ checks: checksLeft(job.ignored), source: job.source });
    const chunks = Math.ceil(files.length / job.chunk);
    for (let c = Atomics.add(job.next, 0, 1); c < chunks; c = Atomics.add(job.next, 0, 1)) {
      mergeRange(merger, job.cwd, c * job.chunk, Math.min(files.length, (c + 1) * job.chunk), (i) => files[i]!, walked);
      post({ chunk: c, partial: merger.partial() });
    }
  } finally {
    setLang(before);
  }
  post({ done: true });
}

/** The inputs packed for the workers (each gets its own `source`). */
function pack(input: FleetInputs, chunk: number, next: Int32Array): Omit<FleetJob, 'source'> {
  const n = input.files.length;
  const insides: string[] = [];
  const inside = new Int32Array(n);
  const found = new Float64Array(3 * n);
  const opens: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = input.walked.get(input.files[i]!);
    if (!w) {
      inside[i] = -1;
      opens.push('');
      continue;
    }
    let k = insides.lastIndexOf(w.inside);
    if (k < 0) k = insides.push(w.inside) - 1;
    inside[i] = k;
    opens.push(w.open);
    found[3 * i] = w.found.dev;
    found[3 * i + 1] = w.found.ino;
    found[3 * i + 2] = w.found.birthtimeMs;
  }
  return {
    cwd: input.cwd,
    files: input.files.join('\0'),
    opens: opens.join('\0'),
    insides,
    inside,
    found,
    ignored: [...input.ignored],
    lang: getLang(),
    chunk,
    next,
  };
}

/** Lets the workers' messages in (they are delivered between macrotasks). */
const messagesIn = () => new Promise<void>((resolve) => setImmediate(resolve));

const WORKER_URL = () => new URL('../entries/fleet-worker.js', import.meta.url);

/**
 * Worker threads started before the inputs are known, so that their start (~75–110 ms: Node's thread, then the
 * code) overlaps the folder walk: one, where this process may use more than one core and the inputs look like a
 * fleet (a folder, or enough files named). They wait for a job and do not hold the process until given one.
 */
export function startFleetWorkers(args: { folder: boolean; named: number }): StreamingWorker<FleetMessage>[] {
  if (typeof __GED_BUNDLE__ === 'undefined' || availableThreads() < 2) return [];
  if (!args.folder && args.named < 2 * MIN_FILES_PER_THREAD) return [];
  return [streamWorker<FleetMessage>(WORKER_URL(), null, { unref: true })];
}

/**
 * Merges every input into `into` (which has seen nothing but skips), on as many threads as the inputs and the
 * cores allow; `started`: workers already started (startFleetWorkers), used first, the extra ones stopped.
 */
export async function mergeInChunks(
  into: FleetMerger,
  input: FleetInputs,
  started: StreamingWorker<FleetMessage>[] = [],
  threads = typeof __GED_BUNDLE__ === 'undefined' ? 1 : fleetThreads(input.files.length, availableThreads()),
): Promise<void> {
  const n = input.files.length;
  const workers = started.slice(0, Math.max(0, threads - 1));
  for (const w of started.slice(workers.length)) w.stop();
  if (threads <= 1) {
    mergeAll(into, input);
    return;
  }
  while (workers.length < threads - 1) workers.push(streamWorker<FleetMessage>(WORKER_URL(), null));
  const chunk = chunkSize(n, threads);
  const chunks = Math.ceil(n / chunk);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const job = pack(input, chunk, next);
  workers.forEach((w, k) => w.post({ ...job, source: k + 1 } satisfies FleetJob));

  // The workers' chunks are collected as they come; this thread takes chunks too, and after each one joins every
  // chunk ready in order (the join then costs nothing at the end, and its code is warm), then the rest.
  const parts: (FleetPartial | undefined)[] = new Array(chunks);
  const collected = Promise.all(
    workers.map(async (w) => {
      for (let m = await w.next(WORKER_TIMEOUT_MS); m !== null; m = await w.next(WORKER_TIMEOUT_MS)) {
        if ('done' in m) break;
        parts[m.chunk] = m.partial;
      }
      w.stop();
    }),
  );
  let joined = 0;
  const joinReady = () => {
    for (let p = parts[joined]; p !== undefined && joined < chunks; p = parts[joined]) {
      into.absorb(p);
      parts[joined++] = undefined;
    }
  };
  const here = new FleetMerger({ checks: checksLeft(input.ignored), source: 0 });
  const file = (i: number) => input.files[i]!;
  const walked = (i: number) => input.walked.get(input.files[i]!);
  for (let c = Atomics.add(next, 0, 1); c < chunks; c = Atomics.add(next, 0, 1)) {
    mergeRange(here, input.cwd, c * chunk, Math.min(n, (c + 1) * chunk), file, walked);
    parts[c] = here.partial();
    await messagesIn();
    joinReady();
  }
  await collected;
  // A chunk a failed worker took and never posted: merged here by a merger of its own, whose numbering starts
  // there (this thread's merger has numbered the chunks after it already).
  for (; joined < chunks; joined++) {
    let p = parts[joined];
    if (!p) {
      const alone = new FleetMerger({ checks: checksLeft(input.ignored), source: threads + joined });
      mergeRange(alone, input.cwd, joined * chunk, Math.min(n, (joined + 1) * chunk), file, walked);
      p = alone.partial();
    }
    into.absorb(p);
    parts[joined] = undefined;
  }
}
