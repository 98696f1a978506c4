// The first pass over one byte range of a UTF-8 file, read apart from the rest (in a worker thread): the range
// starts a line and ends one (or the file), so LineScanner, told where the range starts, hands on the same lines,
// with the same texts, as it does reading the whole file; only their numbers count from the range's start.
// The lines that passed go back in batches, at most AHEAD_KIB of their text not yet read (memory stays flat whatever
// passes; a usual log's passed lines are far less, so a range never waits).
// What the whole file's scanner would read differently fails the range (the caller reads the file in order then):
// bytes that are not UTF-8 (its encoding is decided on the stream), a line over MAX_CARRY bytes (where it is cut
// depends on the chunks), fewer bytes than the range holds (the file changed).
import { isAscii, isUtf8 } from 'node:buffer';
import type { FileReader } from '../../../ports/fs.js';
import type { AnchorSet, AnchorSetState } from './anchors.js';
import { LineScanner, MAX_CARRY } from './scan.js';

export interface RangeJob {
  file: string;
  from: number;
  to: number;
  state: AnchorSetState;
  /** shared counters: [STOP] set to stop, [index + 1] the KiB of text the main thread has read of this range */
  credits: SharedArrayBuffer;
  index: number;
}

export type RangeMessage =
  /** the passed lines' numbers (from 1 at the range's start), texts, cut flags; `at`: the input's offset reached */
  | { kind: 'lines'; nos: number[]; texts: string[]; cut: boolean[]; at: number; chars: number }
  | { kind: 'end'; lines: number; truncatedLines: number }
  | { kind: 'fail'; why: string };

/** the text a range may post before the main thread has read it */
export const AHEAD_KIB = 8 * 1024;
/** the slot of the shared counters that says stop */
export const STOP = 0;
const READ = 1024 * 1024;
const NL = 10;

/** Reads [from, to) and posts what passed; `mayPost` waits until a batch of that many characters may go (false:
 *  stop). */
export function scanRange(
  reader: FileReader,
  job: RangeJob,
  anchors: AnchorSet,
  post: (m: RangeMessage) => void,
  mayPost: (chars: number) => boolean,
): void {
  let nos: number[] = [];
  let texts: string[] = [];
  let cut: boolean[] = [];
  let chars = 0;
  const scanner = new LineScanner(
    anchors,
    (l) => {
      nos.push(l.no);
      texts.push(l.text);
      cut.push(l.truncated);
      chars += l.text.length;
    },
    undefined,
    job.from,
  );
  const fail = (why: string): void => post({ kind: 'fail', why });
  const flush = (at: number): boolean => {
    if (nos.length === 0) return true;
    if (!mayPost(chars)) return false;
    post({ kind: 'lines', nos, texts, cut, at, chars });
    nos = [];
    texts = [];
    cut = [];
    chars = 0;
    return true;
  };
  // inside the WebAssembly matcher's memory where it runs: its search then copies nothing
  const buf = anchors.ioBuffer(READ + MAX_CARRY + 1) ?? Buffer.allocUnsafe(READ + MAX_CARRY + 1);
  let at = job.from;
  let carry = 0;
  while (at < job.to) {
    const want = Math.min(READ, job.to - at);
    const n = reader.readInto(buf.subarray(carry, carry + want), at);
    if (n < want) {
      fail('the file changed while read');
      return;
    }
    at += n;
    const end = carry + n;
    // the complete lines of the window (all of it at the range's end: the file's last line may have no newline)
    const upTo = at >= job.to ? end : buf.lastIndexOf(NL, end - 1) + 1;
    const block = buf.subarray(0, upTo);
    // tested whole once: the prefilter then tests none of its windows
    const ascii = isAscii(block);
    if (!ascii && !isUtf8(block)) {
      fail('not UTF-8');
      return;
    }
    scanner.push(block, ascii);
    if (scanner.overlong) {
      fail('a line too long');
      return;
    }
    buf.copy(buf, 0, upTo, end);
    carry = end - upTo;
    if (carry > MAX_CARRY) {
      fail('a line too long');
      return;
    }
    if (!flush(at)) return;
  }
  scanner.end();
  if (scanner.overlong) {
    fail('a line too long');
    return;
  }
  if (!flush(at)) return;
  post({ kind: 'end', lines: scanner.lines, truncatedLines: scanner.truncatedLines });
}

/** For the worker: a batch may go while less than AHEAD_KIB of text is unread; false once the main thread says stop. */
export function creditWaiter(job: RangeJob): (chars: number) => boolean {
  const counters = new Int32Array(job.credits);
  const slot = job.index + 1;
  let posted = 0;
  return (chars) => {
    for (;;) {
      if (Atomics.load(counters, STOP) !== 0) return false;
      const read = Atomics.load(counters, slot);
      if (posted / 1024 - read < AHEAD_KIB) break;
      Atomics.wait(counters, slot, read, 100);
    }
    posted += chars;
    return true;
  };
}

/** For the main thread: `chars` more of range `index` read (the total in KiB is what its worker waits on). */
export function creditRead(credits: Int32Array, index: number, readChars: number): void {
  const kib = Math.floor(readChars / 1024);
  if (Atomics.load(credits, index + 1) === kib) return;
  Atomics.store(credits, index + 1, kib);
  Atomics.notify(credits, index + 1);
}
