import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
// Turns a stream of bytes (or strings) into numbered text lines, in bounded memory.
// - Decodes leniently: invalid UTF-8 becomes U+FFFD instead of an error; a UTF-16 byte-order mark
//   (PowerShell's `>` writes UTF-16LE) switches the decoder, so Windows logs read as text; so does text that is
//   not UTF-8 but GBK/GB18030 (cmd on Chinese Windows redirects Python's output in code page 936).
// - `\r` not followed by `\n` starts the line over (a progress bar redraws itself): the last non-blank
//   segment is what the terminal showed last, so that is the line we keep.
// - A line longer than `maxLineChars` is cut there; the rest of it is skipped until the next `\n`
//   (a multi-megabyte single line must not grow memory).

export interface Line {
  /** 1-based physical line number (counting `\n`) */
  no: number;
  text: string;
  truncated: boolean;
}

export const DEFAULT_MAX_LINE_CHARS = 16 * 1024;

export class LineSplitter {
  private decoder: TextDecoder | undefined;
  /** chunks held back until UTF-8 or GBK can be told apart */
  private undecided: Uint8Array[] = [];
  private undecidedBytes = 0;
  private first = true;
  /** the current line's text so far (its last \r segment) */
  private cur = '';
  /** the last non-blank \r segment of the current line, used when the final segment is blank */
  private lastSegment = '';
  private pendingCR = false;
  private curTruncated = false;
  private lineNo = 0;
  bytes = 0;
  truncatedLines = 0;

  constructor(
    private readonly emit: (line: Line) => void,
    private readonly maxLineChars = DEFAULT_MAX_LINE_CHARS,
  ) {}

  get lines(): number {
    return this.lineNo;
  }

  push(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      this.bytes += chunk.length;
      this.pushText(chunk);
      return;
    }
    this.bytes += chunk.byteLength;
    if (this.first) {
      this.first = false;
      const enc = sniffEncoding(chunk);
      if (enc !== 'utf-8') this.decoder = new TextDecoder(enc, { fatal: false, ignoreBOM: false });
    }
    if (!this.decoder) {
      // UTF-8 or GBK (Chinese Windows consoles redirect in code page 936): ASCII reads the same in both, so the
      // choice waits for non-ASCII bytes, and for enough of them (4 KiB) to judge
      if (this.undecided.length === 0 && isAscii(chunk)) {
        this.pushText(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1'));
        return;
      }
      this.undecided.push(chunk);
      this.undecidedBytes += chunk.byteLength;
      if (this.undecidedBytes < 4096) return;
      this.decide();
      return;
    }
    this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  /** choose UTF-8 or GB18030 from the held-back bytes, then decode them */
  private decide(): void {
    const held = Buffer.concat(this.undecided);
    this.undecided = [];
    this.undecidedBytes = 0;
    this.decoder = new TextDecoder(utf8OrGb18030(held), { fatal: false, ignoreBOM: false });
    this.pushText(this.decoder.decode(held, { stream: true }));
  }

  end(): void {
    if (!this.decoder && this.undecided.length > 0) this.decide();
    if (this.decoder) this.pushText(this.decoder.decode());
    if (this.cur.length > 0 || this.lastSegment.length > 0 || this.pendingCR) this.flushLine();
  }

  private pushText(s: string): void {
    let start = 0;
    const n = s.length;
    // the next \r in this chunk, found once and reused: searching from every line start would rescan the
    // whole chunk for each line (quadratic on chunks without \r)
    this.nextCR = s.indexOf('\r');
    while (start < n) {
      const nl = s.indexOf('\n', start);
      const end = nl === -1 ? n : nl;
      this.appendSegment(s, start, end);
      if (nl === -1) break;
      this.pendingCR = false; // "\r\n" is a line end, not a redraw
      this.flushLine();
      start = nl + 1;
    }
  }

  private nextCR = -1;

  /** add s[start, end) (no `\n` inside) to the current line, handling `\r` redraws */
  private appendSegment(s: string, start: number, end: number): void {
    let i = start;
    while (i < end) {
      if (this.nextCR !== -1 && this.nextCR < i) this.nextCR = s.indexOf('\r', i);
      const cr = this.nextCR;
      if (cr === -1 || cr >= end) {
        this.resolvePendingCR(true);
        this.append(s, i, end);
        return;
      }
      if (cr > i) {
        this.resolvePendingCR(true);
        this.append(s, i, cr);
      }
      // a \r: decide when we see what follows (it may be the \r of a \r\n split across chunks)
      this.resolvePendingCR(false);
      this.pendingCR = true;
      i = cr + 1;
    }
  }

  /** a pending \r followed by more text on the same line: a redraw, so start the line over */
  private resolvePendingCR(moreText: boolean): void {
    if (!this.pendingCR) return;
    this.pendingCR = false;
    if (!moreText && this.cur.length === 0) return;
    if (this.cur.trim().length > 0) this.lastSegment = this.cur;
    this.cur = '';
    this.curTruncated = false;
  }

  private append(s: string, start: number, end: number): void {
    if (this.curTruncated) return;
    const room = this.maxLineChars - this.cur.length;
    if (end - start > room) {
      this.cur += s.slice(start, start + Math.max(0, room));
      this.curTruncated = true;
      return;
    }
    this.cur += start === 0 && end === s.length ? s : s.slice(start, end);
  }

  private flushLine(): void {
    this.lineNo++;
    let text = this.cur;
    if (text.trim().length === 0 && this.lastSegment.length > 0) text = this.lastSegment;
    if (this.curTruncated) this.truncatedLines++;
    const truncated = this.curTruncated;
    this.cur = '';
    this.lastSegment = '';
    this.curTruncated = false;
    this.pendingCR = false;
    this.emit({ no: this.lineNo, text, truncated });
  }
}

/**
 * UTF-8 unless the bytes are not UTF-8 but are GB18030 (a superset of GBK) holding Chinese text. Decoded in
 * stream mode, so a character cut at the end of the chunk is no error; two or more CJK characters are asked
 * for, so a few stray bytes in a UTF-8 log do not switch it.
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

function sniffEncoding(b: Uint8Array): string {
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
    if (oddNul > m / 2 * 0.9 && evenNul < m / 2 * 0.1) return 'utf-16le';
  }
  return 'utf-8';
}
