// The prefilter's stems searched in WebAssembly (src/judge/explain/read/literals-wasm.ts) hand on the same hits as
// the regexes (kept as the reference, AnchorSet's 'regex' engine) and as the rule itself written plainly (a stem
// matches where each byte, folded as the i flag folds latin1, is the stem's): on logs of the fixtures, a training
// log like the throughput bench's, random bytes (ASCII, latin1 letters, Chinese, █ bars, bytes that are not UTF-8),
// stems in every case and across the edges of the regexes' windows and the matcher's segments, for the real anchor
// set, one with a Chinese stem and one whose stem has a byte 0xe0 (searched without masks by the regexes).
import { isUtf8 } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnchorSet, type ScanEngine } from '../../src/judge/explain/read/anchors.js';
import { foldTable, literalMatcher, moduleBytes } from '../../src/judge/explain/read/literals-wasm.js';
import { type RangeMessage, scanRange } from '../../src/judge/explain/read/range.js';
import { type Line, LineScanner } from '../../src/judge/explain/read/scan.js';
import type { FileReader } from '../../src/ports/fs.js';
import { registry } from '../../src/judge/explain/signatures/index.js';
import { tempDir } from '../helpers/fake-bin.js';

/** the part of the WebAssembly API used here (the project's type libraries do not declare it) */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: { new (bytes: Uint8Array): object; exports(m: object): Array<{ name: string; kind: string }> };
}

const NL = 10;
const fold = foldTable();
/** the matcher's segment (literals-wasm.ts SEGMENT) and the regexes' window (anchors.ts WINDOW) */
const SEGMENT = 2 * 1024 * 1024 + 64 * 1024;
const WINDOW = 32 * 1024;

const real = () => AnchorSet.fromState(registry().anchors.state());
const sets: Array<[string, () => AnchorSet]> = [
  ['the real anchors', real],
  ['a Chinese stem', () => new AnchorSet(['cuda', 'gpu', 'cudnn_status', '显卡'])],
  ['a byte 0xe0', () => new AnchorSet(['cuda', 'gpu', '显卡', 'कखग'])],
  // Hebrew's UTF-8 lead byte 0xd7 is ×, which the i flag does not fold to ÷ (0xf7); é's 0xc3 is Ã, folded to ã
  ['bytes 0xd7 and 0xc3', () => new AnchorSet(['cuda', 'gpu', 'שגיאה', 'café'])],
];

/** the hits of one engine: each line once (resuming at its end, as the line scanner does) or every start */
function hits(set: AnchorSet, engine: ScanEngine, buf: Buffer, head: boolean, every = false): number[] {
  set.useEngine(engine);
  const out: number[] = [];
  set.scan(
    buf,
    0,
    buf.length,
    (at) => {
      out.push(at);
      if (every) return at + 1;
      const nl = buf.indexOf(NL, at);
      return nl === -1 ? buf.length : nl + 1;
    },
    head,
  );
  return out;
}

/** the rule, plainly: every offset where a stem matches, each byte folded */
function rule(stems: readonly string[], buf: Buffer): number[] {
  const byFirst = new Map<number, number[][]>();
  for (const s of stems) {
    const b = [...s].map((c) => fold[c.charCodeAt(0)]!);
    byFirst.set(b[0]!, [...(byFirst.get(b[0]!) ?? []), b]);
  }
  const out: number[] = [];
  for (let p = 0; p < buf.length; p++) {
    const cands = byFirst.get(fold[buf[p]!]!);
    if (cands?.some((s) => p + s.length <= buf.length && s.every((c, k) => fold[buf[p + k]!] === c))) out.push(p);
  }
  return out;
}

/** a seeded generator (the same bytes at every run) */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** a stem's latin1 bytes, each in a case the fold takes to it (A-Z, À-Þ) */
function anyCase(stem: string, rnd: () => number): number[] {
  return [...stem].map((c) => {
    const b = fold[c.charCodeAt(0)]!;
    const variants = [...fold.keys()].filter((x) => fold[x] === b);
    return variants[Math.floor(rnd() * variants.length)]!;
  });
}

function randomBytes(stems: readonly string[], size: number, seed: number): Buffer {
  const rnd = random(seed);
  const pieces = [
    () => [...Buffer.from('step 12 loss=0.31 lr=3e-4 ')],
    () => [...Buffer.from('Ééàßÿµ×÷ÀÞþ ')],
    () => [...Buffer.from('显卡内存不足 ')],
    () => [...Buffer.from('|██████    | 60/100\r')],
    () => [0x80 + Math.floor(rnd() * 128), 0xc0 + Math.floor(rnd() * 64), 0xe0, 0xa0],
    () => [0xf7, 0xd7, 0xe3, 0xa9],
    () => [NL],
    () => anyCase(stems[Math.floor(rnd() * stems.length)]!, rnd),
    // a stem cut short, or with a letter changed: no hit
    () => anyCase(stems[Math.floor(rnd() * stems.length)]!, rnd).slice(0, -1),
  ];
  const out: number[] = [];
  while (out.length < size) out.push(...pieces[Math.floor(rnd() * pieces.length)]!());
  return Buffer.from(out.slice(0, size));
}

/** a log like bench/explain-throughput.mjs writes */
function trainingLog(blocks: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < blocks; i++) {
    for (let k = 0; k < 50; k++) {
      const step = i * 50 + k;
      lines.push(`[rank${k % 4}]: Epoch ${step >> 10} step ${step} loss=${(1 / (1 + step)).toFixed(6)} tokens/s=4100`);
      if (k % 10 === 0) lines.push(`\x1b[32mINFO\x1b[0m checkpoint manager: nothing to save at step ${step}`);
      if (k % 25 === 0) lines.push(`Epoch ${step}:  10%|█         | 10/100\rEpoch ${step}: 100%|██████████| 100/100`);
      if (k === 7) lines.push(`(pid=${1000 + (i % 8)}) WARNING: data loader worker ${k} slow (process memory 3.2 GiB)`);
    }
    if (i % 100 === 0) lines.push('RuntimeError: CUDA error: an illegal memory access was encountered');
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

function fixtureLogs(utf8Only = false): Buffer {
  const root = path.resolve(__dirname, '../fixtures');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(log|txt|out)$/.test(e.name)) files.push(p);
    }
  };
  walk(root);
  expect(files.length).toBeGreaterThan(100);
  const logs = files.sort().map((f) => fs.readFileSync(f));
  return Buffer.concat(utf8Only ? logs.filter((b) => isUtf8(b)) : logs);
}

describe('the stems searched in WebAssembly', () => {
  it('runs here (Node 20 has WebAssembly SIMD)', () => {
    expect(literalMatcher([['gpu']])).not.toBeNull();
    // the assembled module is valid WebAssembly, with the two functions and the memory the matcher uses
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const bytes = moduleBytes();
    expect(wasm.validate(bytes)).toBe(true);
    const exports = wasm.Module.exports(new wasm.Module(bytes)).map((e) => `${e.name}:${e.kind}`);
    expect(exports).toEqual(['find:function', 'mem:memory']);
  });

  it('leaves a stem longer than its table says (255 bytes) to the regexes, with the same hits', () => {
    const long = `gpu${'x'.repeat(300)}`;
    expect(literalMatcher([['gpu', long]])).toBeNull();
    const set = new AnchorSet(['cuda', long]);
    const buf = Buffer.from(`a CUDA line\n${long.toUpperCase()}\nnone\ncuda ${long}\n`.repeat(3000));
    const want = hits(set, 'regex', buf, false);
    expect(want.length).toBe(9000);
    expect(hits(set, 'wasm', buf, false)).toEqual(want);
  });

  it('finds what the regexes find, on the fixtures, a training log and random bytes', () => {
    const inputs: Array<[string, Buffer]> = [
      ['fixtures', fixtureLogs()],
      ['training log', trainingLog(2_000)],
    ];
    for (const [name, make] of sets) {
      const set = make();
      const stems = set.state().fastStems;
      const all = [...inputs, ['random', randomBytes(stems, 600_000, stems.length)] as [string, Buffer]];
      for (const [what, buf] of all) {
        for (const head of [false, true]) {
          const want = hits(set, 'regex', buf, head);
          expect(want.length, `${name}, ${what}`).toBeGreaterThanOrEqual(20);
          expect(hits(set, 'wasm', buf, head), `${name}, ${what}, head ${head}`).toEqual(want);
        }
      }
    }
  });

  it('finds every start the rule says, in any case, across the edges of windows and segments', () => {
    for (const [name, make] of sets) {
      const set = make();
      const { fastStems, headWords } = set.state();
      const rnd = random(7);
      // random bytes, then stems in random case across each 32 KiB window's edge and the segment's
      const buf = randomBytes(fastStems, SEGMENT + 3 * WINDOW, 99);
      const edges = [WINDOW, 2 * WINDOW, SEGMENT - WINDOW, SEGMENT, SEGMENT + WINDOW];
      for (const edge of edges) {
        for (const [n, stem] of [fastStems[0]!, fastStems.at(-1)!, ...fastStems].entries()) {
          if (n > 6) break;
          const at = edge - 1 - (n % stem.length) - 40 * n;
          Buffer.from(anyCase(stem, rnd)).copy(buf, at);
        }
        // the longest stem ending at the edge and one byte past it
        const longest = fastStems.reduce((a, b) => (b.length > a.length ? b : a));
        Buffer.from(anyCase(longest, rnd)).copy(buf, edge - longest.length - 300);
        Buffer.from(anyCase(longest, rnd)).copy(buf, edge - longest.length + 1 - 600);
      }
      const every = hits(set, 'wasm', buf, false, true);
      expect(every, name).toEqual(rule(fastStems, buf));
      expect(every.length, name).toBeGreaterThan(1000);
      expect(hits(set, 'wasm', buf, true, true), `${name}, head`).toEqual(rule(headWords, buf));
      // a stem in the range's last bytes is found; one cut by the range's end is not
      const tail = Buffer.concat([Buffer.from('xx '), Buffer.from(fastStems[0]!, 'latin1')]);
      expect(hits(set, 'wasm', tail, false, true), name).toEqual([3]);
      expect(hits(set, 'wasm', tail.subarray(0, -1), false, true), name).toEqual([]);
    }
  });

  it('hands the line scanner the same lines, whole or in chunks of any size', () => {
    const set = real();
    const log = Buffer.concat([trainingLog(3_000), fixtureLogs()]);
    const read = (engine: ScanEngine, size: number) => {
      set.useEngine(engine);
      const out: Line[] = [];
      const s = new LineScanner(set, (l) => out.push(l), 1 << 30, 0);
      for (let p = 0; p < log.length; p += size) s.push(log.subarray(p, Math.min(log.length, p + size)));
      s.end();
      return out.map((l) => `${l.no} ${l.text}`);
    };
    const want = read('regex', log.length);
    expect(want.length).toBeGreaterThan(1000);
    for (const size of [log.length, 1024 * 1024, 65_536, 7_777]) expect(read('wasm', size), `${size}`).toEqual(want);
  });

  it("reads a range into the matcher's memory and hands on what the regexes hand on", () => {
    // a range reads 1 MiB blocks into the matcher's own memory (searched there, not copied); the lines carried
    // from one block to the next are moved inside it
    const log = Buffer.concat([trainingLog(6_000), fixtureLogs(true), trainingLog(6_000)]);
    expect(log.length).toBeGreaterThan(3 * 1024 * 1024);
    const reader: FileReader = {
      size: log.length,
      read: (offset, length) => log.subarray(offset, offset + length),
      readInto: (target, offset) => log.copy(target, 0, offset, offset + target.length),
      close: () => undefined,
    };
    const read = (engine: ScanEngine) => {
      const set = real().useEngine(engine);
      expect(set.ioBuffer(1024) === null).toBe(engine === 'regex');
      const out: string[] = [];
      const job = {
        file: '',
        from: 0,
        to: log.length,
        state: set.state(),
        credits: new SharedArrayBuffer(8),
        index: 0,
      };
      scanRange(
        reader,
        job,
        set,
        (m: RangeMessage) => {
          if (m.kind === 'lines') out.push(...m.nos.map((no, i) => `${no} ${m.texts[i]}`));
          else out.push(JSON.stringify(m));
        },
        () => true,
      );
      return out;
    };
    const want = read('regex');
    expect(want.length).toBeGreaterThan(1000);
    expect(want.at(-1)).toContain('"kind":"end"');
    expect(read('wasm')).toEqual(want);
    expect(read('auto')).toEqual(want);
  });

  it('leaves the answer the same where WebAssembly cannot run (node --jitless)', () => {
    const cli = path.resolve(__dirname, '../../dist/cli.js');
    const dir = tempDir();
    const file = path.join(dir, 'train.log');
    // past the bytes a set reads with its regexes before it builds the matcher
    fs.writeFileSync(file, trainingLog(4_000));
    expect(fs.statSync(file).size).toBeGreaterThan(1024 * 1024);
    const run = (flags: string[]) =>
      spawnSync(process.execPath, [...flags, cli, 'explain', file, '--json', '--no-machine'], { encoding: 'utf8' });
    // there is no WebAssembly under --jitless
    const probe = spawnSync(process.execPath, ['--jitless', '-e', 'process.stdout.write(typeof WebAssembly)']);
    expect(String(probe.stdout)).toBe('undefined');
    const jit = run([]);
    const jitless = run(['--jitless']);
    // explain says 1 when it found a cause
    expect(jit.status, jit.stderr).toBe(1);
    expect(jitless.status, jitless.stderr).toBe(1);
    expect(JSON.stringify(JSON.parse(jit.stdout))).toContain('illegal memory access');
    expect(jitless.stdout).toBe(jit.stdout);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
