// The prefilter searches a chunk in windows of 32 KiB (src/judge/explain/read/anchors.ts WINDOW: small enough that V8
// does not grow its young generation for them). A word across any window's edge is found, in the head and after it,
// in ASCII windows and in windows that are not (searched with each byte's high bit cleared); and on a log of many
// windows the prefilter hands on exactly the lines that hold a word, as a line-by-line search finds them.
import { describe, expect, it } from 'vitest';
import { AnchorSet } from '../../src/judge/explain/read/anchors.js';
import { type Line, LineScanner } from '../../src/judge/explain/read/scan.js';

const WINDOW = 32 * 1024;

function split(chunks: Array<string | Uint8Array>, anchors: AnchorSet): Line[] {
  const out: Line[] = [];
  const s = new LineScanner(anchors, (l) => out.push(l), 1 << 30);
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}

describe('the prefilter in 32 KiB windows', () => {
  const anchors = new AnchorSet(['cuda', 'gpu', 'cudnn_status', '显卡']);

  it('finds a word in any case across the edge of any window, ASCII or not, in the head and after it', () => {
    // one chunk: its windows start at 0 in the head, and after it at the end of the line holding its last byte (the
    // filler's 100-byte lines put that at 1,048,600)
    const filler = (n: number) => {
      const full = `${'z'.repeat(99)}\n`;
      const k = Math.floor((n - 2) / 100);
      return `${full.repeat(k) + 'z'.repeat(n - k * 100 - 1)}\n`;
    };
    for (const edge of [WINDOW, 3 * WINDOW, 1_048_600 + 2 * WINDOW]) {
      for (const bar of ['', '█']) {
        for (const back of [1, 2]) {
          // "GPU" starts `back` bytes before the edge
          const head = filler(edge - back - 1);
          expect(head.length).toBe(edge - back - 1);
          const lines = split([`${head}xGPU-Util 0%${bar}\nstep\n`], anchors);
          expect(
            lines.map((l) => l.text),
            `edge ${edge} back ${back} bar ${bar}`,
          ).toEqual([`xGPU-Util 0%${bar}`]);
        }
      }
    }
  });

  it('hands on exactly the lines holding a word, over many windows and chunk sizes', () => {
    const words = ['cuda', 'gpu', 'cudnn_status'];
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const r = (i * 2654435761) >>> 0;
      const pad = 'x'.repeat(r % 97);
      if (r % 13 === 0) lines.push(`${pad} ${words[r % 3]!.toUpperCase()} at ${i}`);
      else if (r % 17 === 0) lines.push(`${pad} 显卡 ${i} █`);
      else lines.push(`${pad} step ${i} loss 0.${r % 1000}`);
    }
    const text = `${lines.join('\n')}\n`;
    const expected = lines
      .map((l, i) => [i + 1, l] as const)
      .filter(([, l]) => /cuda|gpu|cudnn_status|显卡/i.test(l))
      .map(([no, l]) => [no, l]);
    const bytes = Buffer.from(text);
    for (const size of [bytes.length, 65_536, 40_000, 7_777]) {
      const chunks: Buffer[] = [];
      for (let p = 0; p < bytes.length; p += size) chunks.push(bytes.subarray(p, p + size));
      expect(
        split(chunks, anchors).map((l) => [l.no, l.text]),
        `chunks of ${size}`,
      ).toEqual(expected);
    }
  });

  it("reads the same lines whatever the caller says of a block's bytes (a range tests its block whole)", () => {
    // ASCII windows, windows with a █, and an ASCII line holding 显卡's bytes with their high bits cleared
    // ("f\x18>e\r!"): a masked search finds it there, only the check on the real bytes turns it down
    const fake = Buffer.from('显卡')
      .map((b) => b & 0x7f)
      .toString();
    const lines: string[] = [];
    for (let i = 0; i < 4_000; i++) {
      if (i % 500 === 7) lines.push(`step ${i} ${fake}after`);
      else if (i % 97 === 3) lines.push(`step ${i} GPU 显卡 █`);
      else if (i % 41 === 0) lines.push(`step ${i} CUDA error`);
      else if (i % 9 === 0) lines.push(`step ${i} █ 10%`);
      else lines.push(`step ${i} loss ${'0'.repeat(i % 150)}`);
    }
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    const ascii = Buffer.from(`${lines.filter((l) => !/[^\x00-\x7f]/.test(l)).join('\n')}\n`);
    // 'कखग' has a byte (0xe0) whose masked form is not one letter: no masked search, each window is tested
    const unsafe = new AnchorSet(['cuda', 'gpu', '显卡', 'कखग']);
    const read = (set: AnchorSet, b: Buffer, hint: boolean | undefined) => {
      const out: Line[] = [];
      // told where it starts, as a range's scanner is
      const s = new LineScanner(set, (l) => out.push(l), 1 << 30, 0);
      for (let p = 0; p < b.length; p += 256 * 1024) s.push(b.subarray(p, Math.min(b.length, p + 256 * 1024)), hint);
      s.end();
      return out.map((l) => [l.no, l.text]);
    };
    for (const set of [anchors, unsafe]) {
      const want = read(set, bytes, undefined);
      expect(want.length).toBe(lines.filter((l) => /cuda|gpu|显卡/i.test(l)).length);
      expect(want.some(([, t]) => String(t).includes(fake))).toBe(false);
      expect(read(set, bytes, false)).toEqual(want);
      const wantAscii = read(set, ascii, undefined);
      expect(wantAscii.length).toBeGreaterThan(50);
      expect(read(set, ascii, true)).toEqual(wantAscii);
      expect(read(set, ascii, false)).toEqual(wantAscii);
    }
  });
});
