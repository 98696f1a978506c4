// The prefilter's stems searched in WebAssembly, on the bytes themselves: no string is made, nothing lower-cased.
// A stem matches at a byte offset when each of its bytes equals the text's byte there after the i flag's case
// folding over latin1 (A-Z to a-z, À-Þ but × to à-þ; µ, ß, ÿ fold to nothing latin1 holds): a 256-byte table
// applied to each byte of the text, compared with the stem's bytes in lower case. That is what the regexes of
// anchors.ts find, in ASCII and other windows alike.
//
// The search is Teddy (Hyperscan's, as ripgrep uses it): the stems are dealt into 8 buckets (see buckets); for each
// of a stem's first four bytes, two 16-byte tables give, for the byte's low and its high nibble, the buckets whose
// stems may have such a byte there (a 3-byte stem's bucket takes any fourth byte). 16 positions at a time, four
// unaligned loads, eight i8x16.swizzle and a few ands say which positions may start a stem of which bucket; only
// those are compared byte by byte with the bucket's stems. A case variant is one more byte in the tables, so the
// fold costs the fast loop nothing. Measured on this project's 2-core VM (a 512 MB training log): the CPU of a
// whole explain 1.5 s with the regexes, 0.85 s with this.
//
// The module is assembled here, from the instructions below (there is no binary file): about 530 bytes, compiled
// when a set first searches a big input. Where WebAssembly or its SIMD is missing (--jitless, an old engine),
// `literalMatcher` says null and the caller keeps the regexes.

let FOLD: Uint8Array | undefined;
/** the i flag's case folding over latin1, byte to byte (made at the first use, as every table here: a short log
 *  never reaches the matcher) */
export function foldTable(): Uint8Array {
  if (FOLD !== undefined) return FOLD;
  const f = new Uint8Array(256);
  for (let x = 0; x < 256; x++) {
    f[x] = (x >= 0x41 && x <= 0x5a) || (x >= 0xc0 && x <= 0xde && x !== 0xd7) ? x + 0x20 : x;
  }
  FOLD = f;
  return f;
}

// memory: the fold table at 0, a 16-byte scratch, the stem sets' tables, then two areas of text: one a caller reads
// its input into (ioBuffer: nothing copied), one where other text is copied
const SCRATCH = 256;
const TABLES = 512;
/** the text searched at once: a range's block (1 MiB and the line carried over) fits whole */
const SEGMENT = 2 * 1024 * 1024 + 64 * 1024;
/** the fast loop reads up to 18 bytes past the end it is given */
const PAD = 64;
const IO = 64 * 1024;
const DATA = IO + SEGMENT + PAD;
const BUCKETS = 8;
/** the bytes of a stem's start that the fast loop tests (a 3-byte stem lets any fourth byte pass) */
const FINGERPRINT = 4;
/** a set's table: two 16-byte nibble tables per fingerprint byte, 8 pointers to its buckets' stems, the stems
 *  (a length byte, the bytes; a zero length ends a bucket) */
const MASKS = 32 * FINGERPRINT;

// ---- a small assembler ----
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}
const I32 = 0x7f;
const V128 = 0x7b;
const VOID = 0x40;
const makeOps = () => ({
  block: (t = VOID) => [0x02, t],
  loop: (t = VOID) => [0x03, t],
  if: (t = VOID) => [0x04, t],
  end: [0x0b],
  br: (d: number) => [0x0c, ...uleb(d)],
  brIf: (d: number) => [0x0d, ...uleb(d)],
  return: [0x0f],
  call: (f: number) => [0x10, ...uleb(f)],
  get: (l: number) => [0x20, ...uleb(l)],
  set: (l: number) => [0x21, ...uleb(l)],
  tee: (l: number) => [0x22, ...uleb(l)],
  load32: (offset = 0) => [0x28, 2, ...uleb(offset)],
  load8: (offset = 0) => [0x2d, 0, ...uleb(offset)],
  const: (n: number) => [0x41, ...sleb(n)],
  eqz: [0x45],
  ne: [0x47],
  geU: [0x4f],
  gtU: [0x4b],
  ctz: [0x68],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  shl: [0x74],
  shrU: [0x76],
  // SIMD (0xfd prefix)
  vload: (offset = 0) => [0xfd, ...uleb(0x00), 0, ...uleb(offset)],
  vstore: (offset = 0) => [0xfd, ...uleb(0x0b), 0, ...uleb(offset)],
  vzero: [0xfd, ...uleb(0x0c), ...new Array<number>(16).fill(0)],
  swizzle: [0xfd, ...uleb(0x0e)],
  splat8: [0xfd, ...uleb(0x0f)],
  ne8: [0xfd, ...uleb(0x24)],
  vand: [0xfd, ...uleb(0x4e)],
  bitmask8: [0xfd, ...uleb(0x64)],
  shrU16: [0xfd, ...uleb(0x8d)],
});
let op: ReturnType<typeof makeOps>;
const seq = (...parts: Array<number[] | number>): number[] => parts.flat();

/** find(table, start, limit, end): the first offset p in [start, limit) where a stem of the set ends at or before
 *  end, or -1. Locals: 4 i, 5 bits, 6 p, 7-14 the nibble tables, 15 low-nibble mask, 16 text, 17 hits */
function findBody(): number[] {
  const [t, start, limit, end, i, bits, p] = [0, 1, 2, 3, 4, 5, 6];
  const NIB = 7 + 2 * FINGERPRINT;
  const V = NIB + 1;
  const M = NIB + 2;
  // the buckets that may start at each of 16 positions, from the byte `k` further on (the and of two swizzles)
  const byte = (k: number) =>
    seq(
      op.get(i),
      op.vload(k),
      op.set(V),
      op.get(7 + 2 * k),
      op.get(V),
      op.get(NIB),
      op.vand,
      op.swizzle,
      op.get(8 + 2 * k),
      op.get(V),
      op.const(4),
      op.shrU16,
      op.get(NIB),
      op.vand,
      op.swizzle,
      op.vand,
    );
  const locals = [
    [3, I32],
    [2 * FINGERPRINT + 3, V128],
  ];
  const body = seq(
    ...Array.from({ length: 2 * FINGERPRINT }, (_, k) => k).map((k) => seq(op.get(t), op.vload(16 * k), op.set(7 + k))),
    op.const(15),
    op.splat8,
    op.set(NIB),
    op.get(start),
    op.set(i),
    op.block(),
    op.loop(),
    // i >= limit: none
    op.get(i),
    op.get(limit),
    op.geU,
    op.brIf(1),
    byte(0),
    ...Array.from({ length: FINGERPRINT - 1 }, (_, k) => seq(byte(k + 1), op.vand)),
    op.tee(M),
    op.vzero,
    op.ne8,
    op.bitmask8,
    op.tee(bits),
    op.if(),
    op.const(SCRATCH),
    op.get(M),
    op.vstore(),
    op.loop(),
    // p = i + ctz(bits); past the limit: none (the later ones are further)
    op.get(i),
    op.get(bits),
    op.ctz,
    op.add,
    op.tee(p),
    op.get(limit),
    op.geU,
    op.if(),
    op.const(-1),
    op.return,
    op.end,
    op.get(t),
    op.get(bits),
    op.ctz,
    op.load8(SCRATCH),
    op.get(p),
    op.get(end),
    op.call(1),
    op.if(),
    op.get(p),
    op.return,
    op.end,
    op.get(bits),
    op.get(bits),
    op.const(1),
    op.sub,
    op.and,
    op.tee(bits),
    op.brIf(0),
    op.end, // loop over the candidates
    op.end, // if any
    op.get(i),
    op.const(16),
    op.add,
    op.set(i),
    op.br(0),
    op.end, // loop
    op.end, // block
    op.const(-1),
  );
  return seq(uleb(locals.length), ...locals.map(([n, ty]) => seq(uleb(n!), ty!)), body, op.end);
}

/** verify(table, buckets, p, end): 1 when a stem of one of the buckets (bits) matches at p and ends by end.
 *  Locals: 4 bucket, 5 stem pointer, 6 length, 7 k */
function verifyBody(): number[] {
  const [t, bb, p, end, b, ptr, len, k] = [0, 1, 2, 3, 4, 5, 6, 7];
  const body = seq(
    op.loop(),
    op.get(bb),
    op.const(1),
    op.and,
    op.if(),
    // ptr = the bucket's stems
    op.get(t),
    op.get(b),
    op.const(2),
    op.shl,
    op.add,
    op.load32(MASKS),
    op.set(ptr),
    op.block(),
    op.loop(),
    op.get(ptr),
    op.load8(),
    op.tee(len),
    op.eqz,
    op.brIf(1),
    // p + len <= end
    op.get(p),
    op.get(len),
    op.add,
    op.get(end),
    op.gtU,
    op.eqz,
    op.if(),
    op.const(0),
    op.set(k),
    op.block(),
    op.loop(),
    op.get(k),
    op.get(len),
    op.geU,
    op.if(),
    op.const(1),
    op.return,
    op.end,
    // FOLD[text[p + k]] != stem[k]: not this stem
    op.get(p),
    op.get(k),
    op.add,
    op.load8(),
    op.load8(0),
    op.get(ptr),
    op.get(k),
    op.add,
    op.load8(1),
    op.ne,
    op.brIf(1),
    op.get(k),
    op.const(1),
    op.add,
    op.set(k),
    op.br(0),
    op.end,
    op.end,
    op.end,
    op.get(ptr),
    op.get(len),
    op.add,
    op.const(1),
    op.add,
    op.set(ptr),
    op.br(0),
    op.end, // loop over the stems
    op.end, // block
    op.end, // if the bucket's bit
    op.get(b),
    op.const(1),
    op.add,
    op.set(b),
    op.get(bb),
    op.const(1),
    op.shrU,
    op.tee(bb),
    op.brIf(0),
    op.end,
    op.const(0),
  );
  return seq(uleb(1), uleb(4), I32, body, op.end);
}

/** the module's bytes: two functions of type (i32 i32 i32 i32) -> i32, a memory, both exported */
export function moduleBytes(): Uint8Array {
  op ??= makeOps();
  const section = (id: number, content: number[]) => seq(id, uleb(content.length), content);
  const vec = (items: number[][]) => seq(uleb(items.length), ...items);
  const name = (s: string) =>
    seq(
      uleb(s.length),
      [...s].map((c) => c.charCodeAt(0)),
    );
  const code = (body: number[]) => seq(uleb(body.length), body);
  return Uint8Array.from(
    seq(
      [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      section(1, vec([seq(0x60, vec([[I32], [I32], [I32], [I32]]), vec([[I32]]))])),
      section(3, vec([[0], [0]])),
      section(5, vec([[0x00, 1]])),
      section(
        7,
        vec([
          [...name('find'), 0x00, 0],
          [...name('mem'), 0x02, 0],
        ]),
      ),
      section(10, vec([code(findBody()), code(verifyBody())])),
    ),
  );
}

/** the part of the WebAssembly API used here (the project's type libraries do not declare it) */
interface Wasm {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (m: WasmModule, imports: object) => { exports: Record<string, unknown> };
}
type WasmModule = { readonly wasmModule: unique symbol };
interface WasmMemory {
  grow(pages: number): number;
  readonly buffer: ArrayBuffer;
}

let compiled: WasmModule | null | undefined;
/** the module, compiled once per thread; null where WebAssembly or its SIMD is missing */
function module(): WasmModule | null {
  if (compiled === undefined) {
    const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
    try {
      compiled = wasm === undefined ? null : new wasm.Module(moduleBytes());
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** the bytes that fold to each byte, as nibble sets: bit n of lo[b] / hi[b] for low / high nibble n; at
 *  256 (past a 3-byte stem's end) any byte */
let NIBBLES: { lo: Uint16Array; hi: Uint16Array } | undefined;
function nibbleTables(): { lo: Uint16Array; hi: Uint16Array } {
  if (NIBBLES !== undefined) return NIBBLES;
  const fold = foldTable();
  const lo = new Uint16Array(257);
  const hi = new Uint16Array(257);
  for (let x = 0; x < 256; x++) {
    lo[fold[x]!]! |= 1 << (x & 15);
    hi[fold[x]!]! |= 1 << (x >> 4);
  }
  lo[256] = 0xffff;
  hi[256] = 0xffff;
  NIBBLES = { lo, hi };
  return NIBBLES;
}
/** a stem's byte k, 256 past its end */
const byteAt = (s: Uint8Array, k: number) => (k < s.length ? s[k]! : 256);

/** How often a byte is met in a log, roughly (English letters by their frequency in text, digits, spaces,
 *  punctuation; anything else rare): the cost of a bucket is the share of bytes its nibble sets let through. */
const weights = (): Float64Array => {
  const w = new Float64Array(256).fill(0.2);
  const letters = 'etaoinshrdlcumwfgypbvkjxqz';
  const freq = [127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1];
  for (const [i, c] of [...letters].entries()) {
    w[c.charCodeAt(0)] = freq[i]! / 10;
    w[c.charCodeAt(0) - 32] = freq[i]! / 50;
  }
  for (let d = 0x30; d <= 0x39; d++) w[d] = 3;
  w[0x20] = 15;
  for (const c of '.,:;/_-=()[]\'"') w[c.charCodeAt(0)] = 1;
  return w;
};
/** rows()[h * 512 + half * 256 + bits]: the weight of the bytes of high nibble h whose low nibble is in the set
 *  `bits` (of the low nibbles 0-7, half 0; 8-15, half 1), so that a set's weight is a few look-ups */
let ROWS: Float64Array | undefined;
/** made at the first use: only the build deals the stems into buckets (a run reads them from the digest) */
function rows(): Float64Array {
  if (ROWS !== undefined) return ROWS;
  const weight = weights();
  const r = new Float64Array(16 * 512);
  for (let h = 0; h < 16; h++) {
    for (let half = 0; half < 2; half++) {
      for (let bits = 1; bits < 256; bits++) {
        const low = 31 - Math.clz32(bits);
        r[h * 512 + half * 256 + bits] =
          r[h * 512 + half * 256 + (bits & ~(1 << low))]! + weight[h * 16 + half * 8 + low]!;
      }
    }
  }
  ROWS = r;
  return r;
}
/** the weight of the bytes whose low nibble is in `lo` and high nibble in `hi` (bit sets) */
function passed(lo: number, hi: number): number {
  const r = rows();
  let sum = 0;
  for (let h = 0; h < 16; h++) {
    if (hi & (1 << h)) sum += r[h * 512 + (lo & 255)]! + r[h * 512 + 256 + (lo >> 8)]!;
  }
  return sum;
}

/** The stems dealt into buckets: 3-byte stems apart from longer ones (whose fourth byte then filters too), each
 *  kind sorted and cut into runs that let the fewest positions of a usual log through (by weights(): a bucket's nibbles
 *  pair freely, so its first byte may be any of the pairs). */
export function buckets(words: readonly string[]): number[][] {
  const stems = words.map(folded);
  const short = stems.map((_, i) => i).filter((i) => stems[i]!.length < FINGERPRINT);
  const long = stems.map((_, i) => i).filter((i) => stems[i]!.length >= FINGERPRINT);
  const cmp = (a: number, b: number) => Buffer.compare(stems[a]!, stems[b]!);
  short.sort(cmp);
  long.sort(cmp);
  const nShort =
    short.length === 0
      ? 0
      : long.length === 0
        ? BUCKETS
        : Math.min(BUCKETS - 1, Math.max(1, Math.round((BUCKETS * short.length) / stems.length)));
  return [...cut(stems, short, nShort), ...cut(stems, long, BUCKETS - nShort)];
}

/** `ids` (sorted) cut into at most `m` runs of least summed cost (dynamic programming over the cut points) */
function cut(stems: readonly Uint8Array[], ids: number[], m: number): number[][] {
  const n = ids.length;
  if (n === 0 || m === 0) return [];
  const nib = nibbleTables();
  // costs[i][j]: the run ids[i, j) as one bucket, each position's nibble sets grown one stem at a time
  const costs: number[][] = Array.from({ length: n + 1 }, () => []);
  for (let i = 0; i < n; i++) {
    const lo = new Array<number>(FINGERPRINT).fill(0);
    const hi = new Array<number>(FINGERPRINT).fill(0);
    for (let j = i + 1; j <= n; j++) {
      let c = 1;
      for (let k = 0; k < FINGERPRINT; k++) {
        const byte = byteAt(stems[ids[j - 1]!]!, k);
        lo[k]! |= nib.lo[byte]!;
        hi[k]! |= nib.hi[byte]!;
        c *= passed(lo[k]!, hi[k]!);
      }
      costs[i]![j] = c;
    }
  }
  // best[r][j]: the least cost of the first j ids in r runs
  const best: number[][] = [[0, ...new Array<number>(n).fill(Number.POSITIVE_INFINITY)]];
  const from: number[][] = [[]];
  for (let r = 1; r <= m; r++) {
    best.push(new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY));
    from.push(new Array<number>(n + 1).fill(0));
    best[r]![0] = 0;
    for (let j = 1; j <= n; j++) {
      for (let i = 0; i < j; i++) {
        const c = best[r - 1]![i]! + costs[i]![j]!;
        if (c < best[r]![j]!) {
          best[r]![j] = c;
          from[r]![j] = i;
        }
      }
    }
  }
  const runs: number[][] = [];
  for (let r = m, j = n; j > 0; r--) {
    const i = from[r]![j]!;
    runs.unshift(ids.slice(i, j));
    j = i;
  }
  return runs;
}

/** a stem in latin1 lower case (one character a byte) as bytes, folded once more so that the table is the rule */
const folded = (w: string) => {
  const fold = foldTable();
  return Uint8Array.from(w, (c) => fold[c.charCodeAt(0) & 0xff]!);
};

/** one set's table, for bytes at offset `at`: `dealt`, the stems' indices by bucket (see buckets) */
export function setTable(words: readonly string[], dealt: number[][], at: number): Uint8Array {
  const stems = words.map(folded);
  const nib = nibbleTables();
  const masks = new Uint8Array(MASKS);
  const lists: number[][] = Array.from({ length: BUCKETS }, () => []);
  for (const [b, ids] of dealt.entries()) {
    for (const id of ids) {
      const s = stems[id]!;
      for (let k = 0; k < FINGERPRINT; k++) {
        const lo = nib.lo[byteAt(s, k)]!;
        const hi = nib.hi[byteAt(s, k)]!;
        for (let n = 0; n < 16; n++) {
          if (lo & (1 << n)) masks[32 * k + n]! |= 1 << b;
          if (hi & (1 << n)) masks[32 * k + 16 + n]! |= 1 << b;
        }
      }
      lists[b]!.push(s.length, ...s);
    }
  }
  const out: number[] = [...masks];
  const pointers = new DataView(new ArrayBuffer(4 * BUCKETS));
  let next = at + MASKS + 4 * BUCKETS;
  const tail: number[] = [];
  for (let b = 0; b < BUCKETS; b++) {
    pointers.setUint32(4 * b, next, true);
    tail.push(...lists[b]!, 0);
    next += lists[b]!.length + 1;
  }
  out.push(...new Uint8Array(pointers.buffer), ...tail);
  return Uint8Array.from(out);
}

/** Finds the stems of a few sets in bytes, as AnchorSet.scan's `hit` protocol wants them. */
export class LiteralMatcher {
  private readonly find: (t: number, start: number, limit: number, end: number) => number;
  private readonly mem: Uint8Array;
  private readonly memory: ArrayBuffer;
  private readonly tables: number[] = [];
  private readonly longest: number[] = [];

  constructor(mod: WasmModule, sets: ReadonlyArray<readonly string[]>, dealt: number[][][]) {
    const inst = new (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly.Instance(mod, {});
    const memory = inst.exports.mem as WasmMemory;
    memory.grow(Math.ceil((DATA + SEGMENT + PAD) / 65536) - 1);
    this.memory = memory.buffer;
    this.mem = new Uint8Array(memory.buffer);
    this.find = inst.exports.find as LiteralMatcher['find'];
    this.mem.set(foldTable(), 0);
    let at = TABLES;
    for (const [n, words] of sets.entries()) {
      const table = setTable(words, dealt[n]!, at);
      if (at + table.length > IO) throw new Error('stems too many for the literal matcher');
      this.mem.set(table, at);
      this.tables.push(at);
      this.longest.push(Math.max(...words.map((w) => w.length)));
      at += table.length + ((16 - (table.length % 16)) % 16);
    }
  }

  /** `size` bytes inside the matcher's memory, for a caller to read its input into: searched where they are, not
   *  copied (null when larger than the matcher searches at once). Valid while the matcher lives. */
  ioBuffer(size: number): Buffer | null {
    return size <= SEGMENT ? Buffer.from(this.memory, IO, size) : null;
  }

  /** as AnchorSet.scan: `hit(start)` for each leftmost stem of set `set` in buf[from, to), resuming where it says */
  scan(set: number, buf: Uint8Array, from: number, to: number, hit: (start: number) => number): void {
    const t = this.tables[set]!;
    if (buf.buffer === this.memory) {
      // read into ioBuffer: searched in place, whole
      const base = buf.byteOffset;
      let cur = from;
      while (cur < to) {
        const p = this.find(t, cur + base, to + base, to + base);
        if (p < 0) return;
        cur = Math.max(hit(p - base), p - base + 1);
      }
      return;
    }
    const overlap = this.longest[set]! - 1;
    let pos = from;
    while (pos < to) {
      // a segment copied in; a stem across its end is found in the next one, which starts `overlap` before it:
      // starts are looked for before that only, so the hits are the leftmost of the whole range
      const segEnd = Math.min(to, pos + SEGMENT);
      const limit = segEnd >= to ? to : segEnd - overlap;
      this.mem.set(buf.subarray(pos, segEnd), DATA);
      const base = DATA - pos;
      let cur = pos;
      let next = limit;
      while (cur < limit) {
        const p = this.find(t, cur + base, limit + base, segEnd + base);
        if (p < 0) break;
        const resume = hit(p - base);
        cur = Math.max(resume, p - base + 1);
        next = Math.max(next, cur);
      }
      pos = next;
    }
  }
}

/** a matcher of these sets of stems (latin1, lower case), or null where WebAssembly SIMD cannot run */
export function literalMatcher(
  sets: ReadonlyArray<readonly string[]>,
  dealt: number[][][] = sets.map(buckets),
): LiteralMatcher | null {
  // a stem's length is one byte of its table; an empty set is left to the regexes (whatever they make of it)
  if (sets.some((words) => words.length === 0 || words.some((w) => w.length > 255))) return null;
  const mod = module();
  if (mod === null) return null;
  try {
    return new LiteralMatcher(mod, sets, dealt);
  } catch {
    return null;
  }
}
