// explain's read loop on long inputs: the prefilter scans whole chunks in windows and splits lines only around its
// hits, so a message cut by a chunk's end (the command reads 1 MiB at a time), or redrawn by a progress bar (\r),
// or ended by \r\n, must give the diagnosis the same text read whole with plain \n gives.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainStream, explainText } from '../../src/judge/explain/engine.js';
import { HEAD_BYTES } from '../../src/judge/explain/read/scan.js';

const OOM = fs.readFileSync(path.resolve(__dirname, '../fixtures/h200/logs/conv-keep1200-bs64.txt'), 'utf8');

/** a training run's progress lines (no anchor in them), about `bytes` long */
function training(bytes: number): string {
  const out: string[] = [];
  let n = 0;
  for (let step = 0; n < bytes; step++) {
    const l = `[rank${step % 4}]: Epoch ${step >> 10} step ${step} loss=${(1 / (1 + step)).toFixed(6)} lr=3.0e-4`;
    out.push(l);
    n += l.length + 1;
  }
  return `${out.join('\n')}\n`;
}

/** what a diagnosis says, without the byte count (a \r\n log is longer) */
const gist = (d: Awaited<ReturnType<typeof explainStream>>) =>
  JSON.stringify({ ...d, input: { ...d.input, bytes: 0 } });

async function inChunks(text: string | Buffer, cuts: number[]) {
  const b = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const c of [...cuts, b.length]) {
    chunks.push(b.subarray(from, c));
    from = c;
  }
  return explainStream([{ name: 'log', chunks }]);
}

describe("explain's read loop", () => {
  // the failure after the first MiB (read with the stems only) and after several 64 KiB scan windows
  const before = training(HEAD_BYTES + 300 * 1024);
  const log = `${before}${OOM}${training(5000)}`;
  const whole = explainText(log, { sourceName: 'log' });
  const oomLine = before.split('\n').length - 1 + OOM.split('\n').findIndex((l) => l.includes('OutOfMemoryError')) + 1;

  it('reads the failure past the head where the whole text gives it', () => {
    expect(whole.causes[0]!.id).toBe('memory_held_by_other_process');
    expect(whole.causes[0]!.evidence[0]!.line).toBe(oomLine);
  });

  it('finds a message cut by a chunk boundary anywhere in it, and in its anchor words', async () => {
    const at = Buffer.byteLength(before) + Buffer.byteLength(OOM.slice(0, OOM.indexOf('torch.OutOfMemoryError')));
    const line = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 784.00 MiB. GPU 0';
    const expected = gist(whole);
    // every cut in the first 80 bytes of the message ("CUDA", "memory", "allocate" included), then some further on
    const offsets = [...Array.from({ length: line.length }, (_, i) => i), 200, 333, 512];
    for (const off of offsets) {
      const d = await inChunks(log, [1024 * 1024, at + off]);
      expect(gist(d), `cut ${off} bytes into the message`).toBe(expected);
    }
    // and two cuts inside it, one byte apart (a one-byte chunk)
    const d = await inChunks(log, [at + 38, at + 39]);
    expect(gist(d)).toBe(expected);
  });

  it('reads \\r\\n line ends and \\r progress bars as the terminal showed them, with the same line numbers', async () => {
    // each bar redraws itself on one line; a bar's earlier segment holding an anchor ("memory") is not what the
    // terminal shows last, so it is not read
    const bar = (i: number) =>
      `Epoch ${i}:  10%|#    | 1/10 [memory 3.1G]\rEpoch ${i}:  60%|###  | 6/10\rEpoch ${i}: 100%|#####| 10/10`;
    const lines = log.split('\n');
    const withBars = lines.map((l, i) => (i % 500 === 7 ? bar(i) : l));
    const lf = withBars.join('\n');
    const crlf = withBars.join('\r\n');
    const expected = gist(explainText(lf, { sourceName: 'log' }));
    expect(expected).toBe(gist(whole));
    for (const cuts of [[], [1024 * 1024], [Buffer.byteLength(crlf.slice(0, crlf.indexOf('OutOfMemoryError'))) - 1]]) {
      const d = await inChunks(crlf, cuts);
      expect(gist(d)).toBe(expected);
      expect(d.causes[0]!.evidence[0]!.text).toMatch(/^torch\.OutOfMemoryError: CUDA out of memory/);
    }
    // a \r\n cut between its \r and its \n
    const cr = Buffer.byteLength(crlf.slice(0, crlf.indexOf('\r\n', crlf.indexOf('OutOfMemoryError')))) + 1;
    expect(gist(await inChunks(crlf, [cr]))).toBe(expected);
  });

  it('the bar segment the terminal shows last is what is read', () => {
    const shown = explainText(`step 1\rstep 2\rRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n`);
    const hidden = explainText(`RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\rstep 2\n`);
    expect(shown.causes.map((c) => c.id)).toContain('gpu_memory_exhausted');
    expect(hidden.causes).toEqual([]);
  });
});
