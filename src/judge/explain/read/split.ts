// The first pass over a big log file split over worker threads: the file is cut into line-aligned ranges, each
// read by a thread of its own (./range.ts), and the lines that passed are handed on here in file order, numbered
// as the whole file's scanner numbers them. Null wherever the file is to be read in order instead (the caller's
// LineScanner): the bundle's worker file is not there (the sources), too few threads, a small file, an encoding
// that is not UTF-8 (a BOM, UTF-16), a line with no end within MAX_CARRY bytes of a cut, a range that failed, or
// a file whose size changed while it was read. Lines may have been handed on before a null: the caller starts over.
// Threads: this one (the first range) and up to three workers.
import type { FileReader } from '../../../ports/fs.js';
import { availableThreads, streamWorker } from '../../../ports/worker.js';
import type { AnchorSet } from './anchors.js';
import { creditRead, type RangeJob, type RangeMessage, STOP, scanRange } from './range.js';
import { type Line, MAX_CARRY, sniffEncoding } from './scan.js';

/** Defined (true) by scripts/build.mjs: the bundle has dist/explain-worker.cjs next to its chunks folder. */
declare const __GED_BUNDLE__: boolean | undefined;

/** below this a thread's start costs more than it saves */
export const SPLIT_MIN_BYTES = 32 * 1024 * 1024;
/** more threads than this give little: the main thread's reading of the passed lines is then the bound */
const MAX_THREADS = 4;
const NL = 10;
const PROGRESS_EVERY = 8 * 1024 * 1024;

/** A regular file, opened: its reader (sizes, the cuts' probes) and its size as it is now. */
export interface SplitFile {
  path: string;
  reader: FileReader;
  sizeNow(): number;
}

/** Where the ranges start, and the file's end; null where the file is to be read in order. */
export function planRanges(reader: FileReader, threads: number): number[] | null {
  const size = reader.size;
  const head = reader.read(0, 512);
  if (sniffEncoding(head) !== 'utf-8' || (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)) return null;
  const cuts = [0];
  for (let k = 1; k < threads; k++) {
    const at = Math.floor((size * k) / threads);
    // the cut goes after the first newline from there: a line longer than the scanner carries is read in order
    const nl = reader.read(at, MAX_CARRY + 1).indexOf(NL);
    if (nl === -1) return null;
    const cut = at + nl + 1;
    if (cut < size && cut > cuts[cuts.length - 1]!) cuts.push(cut);
  }
  cuts.push(size);
  return cuts;
}

/** How many threads a file of this size gets: 0 where it is read in order. */
export function splitThreads(size: number, threads = availableThreads()): number {
  const n = Math.min(MAX_THREADS, threads);
  return size >= SPLIT_MIN_BYTES && n >= 2 ? n : 0;
}

/**
 * The first pass over `file` in threads, each passed line handed to `onLine` in order; the file's line count and
 * cut lines, or null (see the head of this file). This thread reads the first range itself while the others start.
 */
export async function readSplit(
  file: SplitFile,
  anchors: AnchorSet,
  onLine: (line: Line) => void,
  onProgress?: (bytes: number) => void,
): Promise<{ lines: number; truncatedLines: number } | null> {
  if (typeof __GED_BUNDLE__ === 'undefined' || file.reader.size < SPLIT_MIN_BYTES) return null;
  const threads = splitThreads(file.reader.size);
  if (threads === 0) return null;
  const cuts = planRanges(file.reader, threads);
  if (cuts === null || cuts.length < 3) return null;
  const credits = new SharedArrayBuffer(4 * cuts.length);
  const counters = new Int32Array(credits);
  const state = anchors.state();
  const url = new URL('../explain-worker.cjs', import.meta.url);
  const jobOf = (index: number): RangeJob => ({
    file: file.path,
    from: cuts[index]!,
    to: cuts[index + 1]!,
    state,
    credits,
    index,
  });
  const workers = cuts.slice(2).map((_, k) => streamWorker<RangeMessage>(url, jobOf(k + 1)));
  let lines = 0;
  let truncatedLines = 0;
  let shown = 0;
  let read = 0;
  /** a range's message read: false when the range failed */
  const take = (m: RangeMessage | null, index: number): boolean | 'end' => {
    if (m === null || m.kind === 'fail') return false;
    if (m.kind === 'end') {
      lines += m.lines;
      truncatedLines += m.truncatedLines;
      read = 0;
      return 'end';
    }
    for (let i = 0; i < m.nos.length; i++) onLine({ no: lines + m.nos[i]!, text: m.texts[i]!, truncated: m.cut[i]! });
    read += m.chars;
    if (index > 0) creditRead(counters, index, read);
    if (onProgress && m.at - shown >= PROGRESS_EVERY) {
      onProgress(m.at);
      shown = m.at;
    }
    return true;
  };
  try {
    let ok = true;
    scanRange(
      file.reader,
      jobOf(0),
      anchors,
      (m) => (ok = ok && take(m, 0) !== false),
      () => ok,
    );
    if (!ok) return null;
    for (const [k, worker] of workers.entries()) {
      for (;;) {
        const got = take(await worker.next(), k + 1);
        if (got === false) return null;
        if (got === 'end') break;
      }
    }
  } finally {
    Atomics.store(counters, STOP, 1);
    for (const w of workers) w.stop();
  }
  return file.sizeNow() === file.reader.size ? { lines, truncatedLines } : null;
}
