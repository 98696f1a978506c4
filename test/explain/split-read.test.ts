// A big log file's first pass over line-aligned ranges read apart (src/judge/explain/read/range.ts, split.ts) hands
// on the lines the whole file's scanner hands on, numbered the same, with the same texts and cut flags and counts:
// ranges cut at every kind of line (a passed one, CRLF, a progress bar, a line cut at 16 KiB, Chinese text), the
// head's stems read in the first MiB only wherever a range ends. What the whole file would read otherwise fails the
// range (not UTF-8, a line over 1 MiB, a file that shrank) or the plan (a BOM, UTF-16). The built CLI on a 33 MB
// file (threads) and the same bytes on standard input (in order) print the same --json; with a 2 MiB line too.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import {
  AHEAD_KIB,
  creditRead,
  creditWaiter,
  type RangeJob,
  type RangeMessage,
  STOP,
  scanRange,
} from '../../src/judge/explain/read/range.js';
import { type Line, LineScanner } from '../../src/judge/explain/read/scan.js';
import { planRanges, splitThreads, SPLIT_MIN_BYTES } from '../../src/judge/explain/read/split.js';
import { registry } from '../../src/judge/explain/signatures/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const dir = tempDir('ged-split-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const anchors = registry().anchors;

/** a training log of about `bytes`, every kind of line in every stretch of it (the head's stems included) */
function logText(bytes: number, { crlf = false } = {}): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const eol = crlf && i % 3 === 0 ? '\r\n' : '\n';
    let line = `[rank${i % 4}] step ${i} loss=${(1 / (1 + i)).toFixed(5)} lr=3e-4`;
    if (i % 97 === 0) line = `conda activate train ${i}`; // the head's stems only
    if (i % 211 === 0) line = `RuntimeError: CUDA error: out of memory (step ${i})`;
    if (i % 307 === 0) line = `progress 10%\rprogress 50%\rprogress 100% step ${i}`;
    if (i % 401 === 0) line = `警告：显存不足 step ${i} CUDA out of memory`;
    if (i % 5003 === 0) line = `CUDA error ${'x'.repeat(20_000)}`; // cut at 16 KiB
    if (i % 5009 === 0) line = `plain ${'y'.repeat(20_000)}`; // cut, not passed: counted all the same
    const s = line + eol;
    parts.push(s);
    n += Buffer.byteLength(s);
  }
  parts.push(`torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n`);
  return Buffer.from(parts.join(''));
}

function write(name: string, data: Buffer): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, data);
  return f;
}

/** the whole file through one scanner, in 1 MiB chunks (as explain reads a file) */
function inOrder(data: Buffer): { lines: Line[]; count: number; truncated: number } {
  const lines: Line[] = [];
  const s = new LineScanner(anchors, (l) => lines.push(l));
  for (let at = 0; at < data.length; at += 1 << 20) s.push(data.subarray(at, at + (1 << 20)));
  s.end();
  return { lines, count: s.lines, truncated: s.truncatedLines };
}

/** the file read as ranges [cuts[k], cuts[k+1]), each apart, joined as split.ts joins them */
function inRanges(file: string, cuts: number[]): { lines: Line[]; count: number; truncated: number } | string {
  const lines: Line[] = [];
  let count = 0;
  let truncated = 0;
  const state = anchors.state();
  for (let k = 0; k + 1 < cuts.length; k++) {
    const msgs: RangeMessage[] = [];
    const job: RangeJob = {
      file,
      from: cuts[k]!,
      to: cuts[k + 1]!,
      state,
      credits: new SharedArrayBuffer(8),
      index: 0,
    };
    const reader = createFileSystem('/').openReader(file);
    scanRange(
      reader,
      job,
      anchors,
      (m) => msgs.push(m),
      () => true,
    );
    reader.close();
    for (const m of msgs) {
      if (m.kind === 'fail') return m.why;
      if (m.kind === 'end') {
        count += m.lines;
        truncated += m.truncatedLines;
      } else m.nos.forEach((no, i) => lines.push({ no: count + no, text: m.texts[i]!, truncated: m.cut[i]! }));
    }
  }
  return { lines, count, truncated };
}

/** the offsets just after each newline */
function lineStarts(data: Buffer): number[] {
  const starts: number[] = [];
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) starts.push(at + 1);
  return starts;
}

describe('the first pass over ranges read apart', () => {
  it('hands on what the whole file hands on, wherever the ranges are cut', () => {
    for (const crlf of [false, true]) {
      const data = logText(5 * 1024 * 1024, { crlf });
      const file = write(`log-${crlf}.txt`, data);
      const whole = inOrder(data);
      expect(whole.lines.length).toBeGreaterThan(1000);
      expect(whole.truncated).toBeGreaterThan(0);
      // the head's stems pass in the first MiB only (the head ends with the line that holds its last byte)
      const starts = lineStarts(data);
      const headLines = starts.findIndex((at) => at >= 1024 * 1024) + 1;
      const conda = whole.lines.filter((l) => l.text.startsWith('conda'));
      expect(conda.length).toBeGreaterThan(10);
      expect(conda.every((l) => l.no <= headLines)).toBe(true);
      expect(conda.at(-1)!.no).toBeGreaterThan(headLines - 97);
      const passedAt = new Set(whole.lines.map((l) => l.no));
      // cuts: the planner's (2, 3, 4 ranges), and cuts just before and after passed lines, in and after the head
      const plans = [2, 3, 4].map((n) => planRanges(createFileSystem('/').openReader(file), n)!);
      const around = [...passedAt].filter((_no, i) => i % 50 === 7).flatMap((no) => [starts[no - 2]!, starts[no - 1]!]);
      const near = (at: number) => starts.find((s) => s >= at)!;
      plans.push([0, ...new Set(around)].concat(data.length));
      plans.push([0, near(1024 * 1024 - 200), near(1024 * 1024 + 10), near(3e6), data.length]);
      for (const cuts of plans) {
        expect(cuts.length).toBeGreaterThan(2);
        expect(inRanges(file, cuts)).toEqual(whole);
      }
    }
  });

  it('fails a range the whole file would read otherwise, and plans no ranges for another encoding', () => {
    const data = logText(3 * 1024 * 1024);
    const line = lineStarts(data).find((at) => at >= 2e6)!;
    const bad = Buffer.concat([
      data.subarray(0, 2e6),
      Buffer.from('CUDA \xff\xfe error\n', 'latin1'),
      data.subarray(2e6),
    ]);
    expect(inRanges(write('latin1.txt', bad), [0, bad.length])).toBe('not UTF-8');
    // a line of MAX_CARRY bytes is read; one byte more and where the scanner cuts it depends on its chunks
    const lineOf = (n: number) => Buffer.concat([Buffer.alloc(n, 0x61), Buffer.from('\n')]);
    const long = Buffer.concat([data.subarray(0, line), lineOf(1024 * 1024 + 1), data.subarray(line)]);
    expect(inRanges(write('long.txt', long), [0, long.length])).toBe('a line too long');
    const fits = Buffer.concat([data.subarray(0, line), lineOf(1024 * 1024), data.subarray(line)]);
    expect(inRanges(write('fits.txt', fits), [0, fits.length])).toEqual(inOrder(fits));
    // a range past the end: the file shrank since it was planned
    expect(inRanges(write('short.txt', data), [0, data.length + 100])).toBe('the file changed while read');
    const planOf = (name: string, b: Buffer) => planRanges(createFileSystem('/').openReader(write(name, b)), 2);
    expect(planOf('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), data]))).toBeNull();
    expect(planOf('utf16.txt', Buffer.from(data.subarray(0, 1e5).toString('latin1'), 'utf16le'))).toBeNull();
    expect(planOf('plain.txt', data)).toHaveLength(3);
    // no newline within 1 MiB of a cut
    expect(planOf('nocut.txt', Buffer.concat([data.subarray(0, 1e6), Buffer.alloc(2 * 1024 * 1024, 0x61)]))).toBeNull();
    expect(splitThreads(SPLIT_MIN_BYTES, 8)).toBe(4);
    expect(splitThreads(SPLIT_MIN_BYTES, 1)).toBe(0);
    expect(splitThreads(SPLIT_MIN_BYTES - 1, 8)).toBe(0);
  });
});

describe('the text a range posts ahead of the main thread', () => {
  it('is bounded: past AHEAD_KIB unread the range waits, and stops when told', () => {
    const credits = new SharedArrayBuffer(12);
    const counters = new Int32Array(credits);
    const job = { file: '', from: 0, to: 0, state: anchors.state(), credits, index: 1 };
    const mayPost = creditWaiter(job);
    const over = AHEAD_KIB * 1024 + 1;
    expect(mayPost(over)).toBe(true);
    // the first batch unread: the next waits (100 ms at a time) until it is read, or the main thread says stop
    Atomics.store(counters, STOP, 1);
    const t0 = performance.now();
    expect(mayPost(10)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(50);
    Atomics.store(counters, STOP, 0);
    creditRead(counters, 1, over);
    expect(counters[2]).toBe(AHEAD_KIB);
    expect(mayPost(10)).toBe(true);
  });
});

describe('explain of a big log file', () => {
  // counts the worker threads the CLI starts and what each said last
  const hook = path.join(dir, 'hook.cjs');
  fs.writeFileSync(
    hook,
    `const wt = require('node:worker_threads'); const W = wt.Worker; const said = [];
wt.Worker = class extends W { constructor(u, o) { super(u, o); const k = said.push('none') - 1;
  this.on('message', (m) => { said[k] = m.kind; }); } };
process.on('exit', () => process.stderr.write('WORKERS ' + JSON.stringify(said) + '\\n'));`,
  );
  const threads = Math.min(4, os.availableParallelism());
  const json = (file: string, viaStdin: boolean) => {
    const r = runCli(['explain', viaStdin ? '-' : file, '--no-machine', '--json'], {
      input: viaStdin ? (fs.readFileSync(file) as unknown as string) : '',
      env: { NODE_OPTIONS: `--require ${hook}` },
      timeoutMs: 120_000,
    });
    const workers = JSON.parse(/WORKERS (.*)/.exec(r.stderr)![1]!) as string[];
    return { code: r.code, out: r.stdout.replaceAll(JSON.stringify(file), '"stdin"'), workers };
  };

  it('reads a 33 MB file over threads and prints what the same bytes on standard input print', () => {
    const data = logText(SPLIT_MIN_BYTES + 1024 * 1024, { crlf: true });
    const file = write('big.log', data);
    const threaded = json(file, false);
    const piped = json(file, true);
    expect(piped.workers).toEqual([]);
    expect(threaded.workers).toEqual(threads >= 2 ? Array(threads - 1).fill('end') : []);
    expect(threaded.code).toBe(1);
    expect(threaded.out).toContain('"gpu_memory_exhausted"');
    expect(threaded.out).toBe(piped.out);
  }, 120_000);

  it('reads it in order when a range fails: a 2 MiB line', () => {
    const data = logText(SPLIT_MIN_BYTES + 1024 * 1024);
    const at = Math.floor(data.length * 0.6);
    const file = write(
      'long.log',
      Buffer.concat([data.subarray(0, at), Buffer.alloc(2 << 20, 0x62), data.subarray(at)]),
    );
    const threaded = json(file, false);
    if (threads >= 2) expect(threaded.workers).toContain('fail');
    expect(threaded.out).toBe(json(file, true).out);
    expect(threaded.out).toContain('"gpu_memory_exhausted"');
  }, 120_000);
});
