// The first pass over one byte range of a UTF-8 file, read apart from the rest (in a worker thread): the range
// starts a line and ends one (or the file), so LineScanner, told where the range starts, hands on the same lines,
// with the same texts, as it does reading the whole file; only their numbers count from the range's start.
// The lines that passed go back in batches, at most AHEAD of them not yet read (memory stays flat whatever passes).
// What the whole file's scanner would read differently fails the range (the caller reads the file in order then):
// bytes that are not UTF-8 (its encoding is decided on the stream), a line over MAX_CARRY bytes (where it is cut
// depends on the chunks), fewer bytes than the range holds (the file changed).
import { isAscii, isUtf8 } from 'node:buffer';
import type { FileReader } from '../../../ports/fs.js';
import { AnchorSet, type AnchorSetState } from './anchors.js';
import { LineScanner, MAX_CARRY } from './scan.js';

export interface RangeJob {
  file: string;
  from: number;
  to: number;
  state: AnchorSetState;
  /** shared counters: [index] the batches the main thread has read of this range, [STOP] set to stop */
  credits: SharedArrayBuffer;
  index: number;
}

export type RangeMessage =
  /** the passed lines' numbers (from 1 at the range's start), texts, cut flags; `at`: the input's offset reached */
  | { kind: 'lines'; nos: number[]; texts: string[]; cut: boolean[]; at: number }
  | { kind: 'end'; lines: number; truncatedLines: number }
  | { kind: 'fail'; why: string };

/** batches a range may post before the main thread has read them */
export const AHEAD = 4;
/** the slot of the shared counters that says stop */
export const STOP = 0;
const READ = 1024 * 1024;
const NL = 10;

/** Reads [from, to) and posts what passed; `posted` waits until the batch may go (false: stop). */
export function scanRange(
  reader: FileReader,
  job: RangeJob,
  post: (m: RangeMessage) => void,
  mayPost: () => boolean,
): void {
  let nos: number[] = [];
  let texts: string[] = [];
  let cut: boolean[] = [];
  const scanner = new LineScanner(
    AnchorSet.fromState(job.state),
    (l) => {
      nos.push(l.no);
      texts.push(l.text);
      cut.push(l.truncated);
    },
    undefined,
    job.from,
  );
  const fail = (why: string): void => post({ kind: 'fail', why });
  const flush = (at: number): boolean => {
    if (nos.length === 0) return true;
    if (!mayPost()) return false;
    post({ kind: 'lines', nos, texts, cut, at });
    nos = [];
    texts = [];
    cut = [];
    return true;
  };
  const buf = Buffer.allocUnsafe(READ + MAX_CARRY + 1);
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
    if (!isAscii(block) && !isUtf8(block)) {
      fail('not UTF-8');
      return;
    }
    scanner.push(block);
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

/** For the worker: a batch may go when fewer than AHEAD are unread; false once the main thread says stop. */
export function creditWaiter(job: RangeJob): () => boolean {
  const counters = new Int32Array(job.credits);
  const slot = job.index + 1;
  let posted = 0;
  return () => {
    for (;;) {
      if (Atomics.load(counters, STOP) !== 0) return false;
      const read = Atomics.load(counters, slot);
      if (posted - read < AHEAD) break;
      Atomics.wait(counters, slot, read, 100);
    }
    posted++;
    return true;
  };
}
