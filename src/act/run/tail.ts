// The bounded tail of a job's output: the last lines of stdout and stderr, interleaved as they arrived.
// A training job can print gigabytes; we keep at most `maxLines` lines and `maxBytes` characters, and cut
// single lines (a progress bar that never prints a newline) to `maxLineChars`. Pure apart from its state.
import { StringDecoder } from 'node:string_decoder';

export type StreamName = 'stdout' | 'stderr';

export interface TailLine {
  /** 1-based number of the line in the whole output (not only the part kept) */
  n: number;
  stream: StreamName;
  text: string;
}

export interface TailOptions {
  maxLines?: number;
  maxBytes?: number;
  maxLineChars?: number;
}

export class OutputTail {
  private readonly maxLines: number;
  private readonly maxBytes: number;
  private readonly maxLineChars: number;
  // A ring: `start` is the oldest slot, `count` the number kept.
  private readonly ring: (TailLine | undefined)[];
  private start = 0;
  private count = 0;
  private bytes = 0;
  private seen = 0;
  private readonly partial: Record<StreamName, string> = { stdout: '', stderr: '' };
  private readonly decoders: Record<StreamName, StringDecoder> = {
    stdout: new StringDecoder('utf8'),
    stderr: new StringDecoder('utf8'),
  };
  private readonly watchers: ((l: TailLine) => void)[] = [];

  constructor(o: TailOptions = {}) {
    this.maxLines = Math.max(1, o.maxLines ?? 500);
    this.maxBytes = Math.max(256, o.maxBytes ?? 256 * 1024);
    this.maxLineChars = Math.max(80, o.maxLineChars ?? 4000);
    this.ring = new Array<TailLine | undefined>(this.maxLines);
  }

  /** Called for every complete line, e.g. to notice "out of memory" the moment it is printed. */
  onLine(f: (l: TailLine) => void): void {
    this.watchers.push(f);
  }

  push(stream: StreamName, chunk: Buffer | string): void {
    const text = this.partial[stream] + (typeof chunk === 'string' ? chunk : this.decoders[stream].write(chunk));
    const parts = text.split('\n');
    // The unfinished last piece waits for its newline, bounded: keep its end (what a terminal would show).
    const rest = parts.pop() ?? '';
    this.partial[stream] = rest.length > this.maxLineChars * 2 ? rest.slice(-this.maxLineChars * 2) : rest;
    for (const p of parts) this.add(stream, p);
  }

  /** Flushes unfinished lines (call when the job has exited). */
  end(): void {
    for (const s of ['stdout', 'stderr'] as const) {
      const rest = this.partial[s] + this.decoders[s].end();
      this.partial[s] = '';
      if (rest !== '') this.add(s, rest);
    }
  }

  lines(): TailLine[] {
    const out: TailLine[] = [];
    for (let i = 0; i < this.count; i++) {
      const l = this.ring[(this.start + i) % this.maxLines];
      if (l) out.push(l);
    }
    return out;
  }

  /** The kept lines as one text, for the log classifier. */
  text(): string {
    return this.lines()
      .map((l) => l.text)
      .join('\n');
  }

  /** How many lines the job printed in all, and how many were dropped from the front. */
  get totalLines(): number {
    return this.seen;
  }
  get droppedLines(): number {
    return this.seen - this.count;
  }

  private add(stream: StreamName, raw: string): void {
    // A carriage return redraws the line on a terminal: keep what was finally shown.
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const cr = text.lastIndexOf('\r');
    if (cr !== -1) text = text.slice(cr + 1);
    if (text.length > this.maxLineChars)
      text = `${text.slice(0, this.maxLineChars)}… [${text.length - this.maxLineChars} more characters]`;
    const line: TailLine = { n: ++this.seen, stream, text };
    if (this.count === this.maxLines) this.dropOldest();
    this.ring[(this.start + this.count) % this.maxLines] = line;
    this.count++;
    this.bytes += text.length;
    while (this.bytes > this.maxBytes && this.count > 1) this.dropOldest();
    for (const w of this.watchers) w(line);
  }

  private dropOldest(): void {
    const old = this.ring[this.start];
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.maxLines;
    this.count--;
    this.bytes -= old?.text.length ?? 0;
  }
}
