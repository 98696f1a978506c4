// Turns a stream of bytes (or strings) into numbered lines, in bounded memory, and hands on only the lines that
// hold one of the anchors (the literal prefilter of anchors.ts); the others are counted, never decoded.
// - Decodes each line it hands on as UTF-8, leniently (invalid bytes become U+FFFD). A UTF-16 byte-order mark,
//   or ASCII with a NUL after every byte (PowerShell's `>` writes UTF-16LE), switches to UTF-16 first; text that is
//   not UTF-8 but GBK/GB18030 (cmd on Chinese Windows redirects Python's output in code page 936) is converted
//   from GB18030. Either is turned into UTF-8 bytes before the scan.
// - `\r` not followed by `\n` starts the line over (a progress bar redraws itself): the last non-blank segment
//   is what the terminal showed last, so that is the line's text.
// - A line longer than `maxLineChars` is cut there (and counted in `truncatedLines`). A line longer than
//   MAX_CARRY bytes without a newline keeps its last `\r` segment, or its first MAX_CARRY bytes: a multi-gigabyte
//   single line must not grow memory.
// With `anchors` null every line is handed on: the tests compare both ways to prove the prefilter drops nothing
// the readers would have used.
import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { AnchorSet } from './anchors.js';

export interface Line {
  /** 1-based physical line number (counting `\n`) */
  no: number;
  text: string;
  truncated: boolean;
}

export const DEFAULT_MAX_LINE_CHARS = 16 * 1024;
/** the first part of an input, read with the head stems too (environment lines, what users write): 1 MiB, up to
 *  the end of the line it ends in */
export const HEAD_BYTES = 1024 * 1024;
export const MAX_CARRY = 1024 * 1024;
const NL = 10;
const CR = 13;

export class LineScanner {
  private carry: Buffer = Buffer.alloc(0);
  /** the current line passed MAX_CARRY: drop its bytes until the next newline */
  private skipping = false;
  private carryTruncated = false;
  private first = true;
  private decoder: TextDecoder | undefined;
  /** UTF-8 or GBK is not decided yet: ASCII reads the same in both, so the choice waits for non-ASCII bytes */
  private undecided = true;
  /** copies of the chunks held back until it is (the caller may reuse its buffer) */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private lineNo = 0;
  /** bytes of the complete lines already processed (where the next block starts in the input) */
  private done = 0;
  bytes = 0;
  truncatedLines = 0;
  /** a line longer than MAX_CARRY bytes was seen: where it is cut depends on the chunks (see addCarry) */
  overlong = false;

  /**
   * `at`: the input's byte offset of the first byte pushed, for a part of a UTF-8 input that starts a line (a
   * range read apart): no encoding is sniffed, and the head is where it is in the whole input.
   */
  constructor(
    private readonly anchors: AnchorSet | null,
    private readonly emit: (line: Line) => void,
    private readonly maxLineChars = DEFAULT_MAX_LINE_CHARS,
    at?: number,
  ) {
    if (at !== undefined) {
      this.first = false;
      this.undecided = false;
      this.done = at;
    }
  }

  get lines(): number {
    return this.lineNo;
  }

  /** `ascii`: the caller has tested the chunk already (true: all ASCII; false: not all), for the prefilter */
  push(chunk: Uint8Array | string, ascii?: boolean): void {
    let b: Buffer;
    if (typeof chunk === 'string') {
      this.bytes += chunk.length;
      if (this.first && chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      this.first = false;
      this.undecided = false;
      this.pushBytes(Buffer.from(chunk, 'utf8'));
      return;
    }
    this.bytes += chunk.byteLength;
    b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.first) {
      this.first = false;
      const enc = sniffEncoding(b);
      if (enc !== 'utf-8') {
        this.decoder = new TextDecoder(enc, { fatal: false, ignoreBOM: false });
        this.undecided = false;
      } else if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
        b = b.subarray(3);
        this.undecided = false;
      }
    }
    if (this.undecided) {
      if (this.held.length === 0 && isAscii(b)) {
        this.pushBytes(b);
        return;
      }
      this.held.push(Buffer.from(b));
      this.heldBytes += b.length;
      if (this.heldBytes >= 4096) this.decide();
      return;
    }
    if (this.decoder) {
      b = Buffer.from(this.decoder.decode(b, { stream: true }), 'utf8');
      ascii = undefined;
    }
    this.pushBytes(b, ascii);
  }

  /** UTF-8 or GB18030, from the bytes held back; then read them */
  private decide(): void {
    const held = Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    this.undecided = false;
    if (utf8OrGb18030(held) === 'gb18030') {
      this.decoder = new TextDecoder('gb18030', { fatal: false });
      this.pushBytes(Buffer.from(this.decoder.decode(held, { stream: true }), 'utf8'));
    } else this.pushBytes(held);
  }

  end(): void {
    if (this.undecided && this.held.length > 0) this.decide();
    if (this.decoder) this.pushBytes(Buffer.from(this.decoder.decode(), 'utf8'));
    if (this.carry.length > 0 || this.skipping) {
      // the last line has no newline: read it as if it had one
      this.pushBytes(Buffer.from([NL]));
    }
  }

  private pushBytes(b: Buffer, ascii?: boolean): void {
    if (b.length === 0) return;
    let from = 0;
    if (this.skipping) {
      const nl = b.indexOf(NL);
      if (nl === -1) return;
      this.skipping = false;
      from = nl; // the newline ends the carried (cut) line
    }
    const lastNL = b.lastIndexOf(NL);
    if (lastNL === -1 || lastNL < from) {
      this.addCarry(b.subarray(from));
      return;
    }
    if (this.carry.length > 0) {
      // the carried start of a line and its end in this chunk: only that line is copied, not the chunk
      const firstNL = b.indexOf(NL, from);
      const line = Buffer.concat([this.carry, b.subarray(from, firstNL + 1)]);
      this.carry = Buffer.alloc(0);
      this.block(line);
      from = firstNL + 1;
    }
    this.carryTruncated = false;
    if (from <= lastNL) this.block(b.subarray(from, lastNL + 1), ascii);
    this.addCarry(b.subarray(lastNL + 1));
  }

  private addCarry(rest: Buffer): void {
    if (rest.length === 0) return;
    let c = this.carry.length > 0 ? Buffer.concat([this.carry, rest]) : Buffer.from(rest);
    if (c.length > MAX_CARRY) {
      this.overlong = true;
      // keep what the terminal would still show: the part after the last redraw, or the beginning of the line
      const cr = c.lastIndexOf(CR, c.length - 2);
      if (cr > 0 && c.length - cr <= MAX_CARRY) c = Buffer.from(c.subarray(cr));
      else {
        c = Buffer.from(c.subarray(0, MAX_CARRY));
        this.skipping = true;
        this.carryTruncated = true;
      }
    }
    this.carry = c;
  }

  /** `data` holds complete lines: it ends with a newline; `ascii`: as push's, of the chunk `data` is part of (so
   *  false may be said of an ASCII part: the prefilter then reads it masked, finding the same) */
  private block(data: Buffer, ascii?: boolean): void {
    const at = this.done;
    this.done += data.length;
    if (this.anchors !== null && at < HEAD_BYTES) {
      // the head: to the end of the line that holds byte HEAD_BYTES - 1
      const nl = data.indexOf(NL, Math.max(0, HEAD_BYTES - 1 - at));
      const cut = nl === -1 ? data.length : nl + 1;
      this.lines_(data.subarray(0, cut), true, ascii);
      if (cut < data.length) {
        this.carryTruncated = false; // the carried (cut) line was the first of the head
        this.lines_(data.subarray(cut), false, ascii);
      }
      return;
    }
    this.lines_(data, false, ascii);
  }

  private lines_(data: Buffer, head: boolean, ascii?: boolean): void {
    const end = data.length;
    let pos = 0; // start of the first line not yet counted
    const countUpTo = (target: number): void => {
      for (;;) {
        const nl = data.indexOf(NL, pos);
        if (nl === -1 || nl >= target) return;
        if (nl - pos > this.maxLineChars) this.countIfLong(data, pos, nl);
        this.lineNo++;
        pos = nl + 1;
      }
    };
    if (this.anchors === null) {
      for (;;) {
        const nl = data.indexOf(NL, pos);
        if (nl === -1) break;
        this.lineNo++;
        this.emitLine(data, pos, nl);
        pos = nl + 1;
      }
      return;
    }
    const anchors = this.anchors;
    anchors.scan(
      data,
      0,
      end,
      (start) => {
        countUpTo(start);
        const nl = data.indexOf(NL, start);
        this.lineNo++;
        this.emitLine(data, pos, nl);
        pos = nl + 1;
        return pos;
      },
      head,
      ascii,
    );
    countUpTo(end);
  }

  private lineText(data: Buffer, start: number, end: number): { text: string; truncated: boolean } {
    let text = data.toString('utf8', start, end);
    if (text.charCodeAt(text.length - 1) === CR) text = text.slice(0, -1);
    if (text.includes('\r')) {
      const segs = text.split('\r');
      let pick = '';
      for (let i = segs.length - 1; i >= 0; i--) {
        if (segs[i]!.trim().length > 0) {
          pick = segs[i]!;
          break;
        }
      }
      text = pick;
    }
    let truncated = false;
    if (text.length > this.maxLineChars) {
      text = text.slice(0, this.maxLineChars);
      truncated = true;
    }
    return { text, truncated };
  }

  private emitLine(data: Buffer, start: number, end: number): void {
    if (end - start > MAX_CARRY) this.overlong = true;
    const { text, truncated } = this.lineText(data, start, end);
    const cut = truncated || (this.carryTruncated && start === 0);
    if (cut) this.truncatedLines++;
    this.emit({ no: this.lineNo, text, truncated: cut });
  }

  /** a line the prefilter passed over: only its length matters */
  private countIfLong(data: Buffer, start: number, end: number): void {
    if (end - start > MAX_CARRY) this.overlong = true;
    if ((this.carryTruncated && start === 0) || this.lineText(data, start, end).truncated) this.truncatedLines++;
  }
}

/**
 * UTF-8 unless the bytes are not UTF-8 but are GB18030 (a superset of GBK) holding Chinese text. Decoded in
 * stream mode, so a character cut at the end of the chunk is no error; two or more CJK characters are asked for,
 * so a few stray bytes in a UTF-8 log do not switch it.
 */
export function utf8OrGb18030(b: Uint8Array): 'utf-8' | 'gb18030' {
  const sample = b.subarray(0, Math.min(b.length, 64 * 1024));
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return 'utf-8';
  } catch {
    // not UTF-8: is it GBK/GB18030?
  }
  try {
    const text = new TextDecoder('gb18030', { fatal: true }).decode(sample, { stream: true });
    return (text.match(/[\u4e00-\u9fff]/g)?.length ?? 0) >= 2 ? 'gb18030' : 'utf-8';
  } catch {
    return 'utf-8';
  }
}

/** the encoding the first bytes of an input say (a BOM, UTF-16 without one), else UTF-8 */
export function sniffEncoding(b: Uint8Array): string {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  // UTF-16LE without a BOM: ASCII text with a NUL after every character
  if (b.length >= 8) {
    let oddNul = 0;
    let evenNul = 0;
    const m = Math.min(b.length, 512) & ~1;
    for (let i = 0; i < m; i += 2) {
      if (b[i] === 0) evenNul++;
      if (b[i + 1] === 0) oddNul++;
    }
    if (oddNul > (m / 2) * 0.9 && evenNul < (m / 2) * 0.1) return 'utf-16le';
  }
  return 'utf-8';
}
