// The prefilter's stems searched in WebAssembly, on the bytes themselves: no string is made, nothing lower-cased.
// A stem matches at a byte offset when each of its bytes equals the text's byte there after the i flag's case
// folding over latin1 (A-Z to a-z, À-Þ but × to à-þ; µ, ß, ÿ fold to nothing latin1 holds): a 256-byte table
// applied to each byte of the text, compared with the stem's bytes in lower case. That is what the regexes of
// anchors.ts find, in ASCII and other windows alike.
//
// The search is Teddy (Hyperscan's, as ripgrep uses it): the stems are dealt into 8 buckets by their first three
// bytes; for each of those three bytes, two 16-byte tables give, for the byte's low and its high nibble, the buckets
// whose stems may have such a byte there. 16 positions at a time, three unaligned loads, twelve i8x16.swizzle and
// a few ands say which positions may start a stem of which bucket; only those are compared byte by byte with the
// bucket's stems. A case variant is one more byte in the tables, so the fold costs the fast loop nothing.
//
// The module is assembled here, from the instructions below (there is no binary file): about 400 bytes, compiled
// at the first big input. Where WebAssembly or its SIMD is missing (--jitless, an old engine), `literalMatcher`
// says null and the caller keeps the regexes.

/** the i flag's case folding over latin1, byte to byte */
export const FOLD: Uint8Array = (() => {
  const f = new Uint8Array(256);
  for (let x = 0; x < 256; x++) {
    f[x] = (x >= 0x41 && x <= 0x5a) || (x >= 0xc0 && x <= 0xde && x !== 0xd7) ? x + 0x20 : x;
  }
  return f;
})();

// memory: the fold table at 0, a 16-byte scratch, the stem sets' tables, then the text
const SCRATCH = 256;
const TABLES = 512;
const DATA = 64 * 1024;
/** the text copied in at once: a range's block (1 MiB and the line carried over) fits whole */
const SEGMENT = 2 * 1024 * 1024 + 64 * 1024;
/** the fast loop reads up to 17 bytes past the end it is given */
const PAD = 64;
const BUCKETS = 8;
/** a set's table: six 16-byte nibble tables, 8 pointers to its buckets' stems, the stems (a length byte, the
 *  bytes; a zero length ends a bucket) */
const MASKS = 96;

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
const op = {
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
};
const seq = (...parts: Array<number[] | number>): number[] => parts.flat();

/** find(table, start, limit, end): the first offset p in [start, limit) where a stem of the set ends at or before
 *  end, or -1. Locals: 4 i, 5 bits, 6 p, 7-12 the nibble tables, 13 low-nibble mask, 14 text, 15 hits */
function findBody(): number[] {
  const [t, start, limit, end, i, bits, p] = [0, 1, 2, 3, 4, 5, 6];
  const NIB = 13;
  const V = 14;
  const M = 15;
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
    [9, V128],
  ];
  const body = seq(
    ...[0, 1, 2, 3, 4, 5].map((k) => seq(op.get(t), op.vload(16 * k), op.set(7 + k))),
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
    byte(1),
    op.vand,
    byte(2),
    op.vand,
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

/** one set's table: bytes to write at a table's offset */
export function setTable(stems: readonly Uint8Array[], at: number): Uint8Array {
  // the distinct folded first three bytes, sorted, dealt into the buckets in runs (alike prefixes share a bucket,
  // which keeps the union of each bucket's nibbles small)
  const prefixes = [...new Set(stems.map((s) => String.fromCharCode(...s.subarray(0, 3))))].sort();
  const bucketOf = new Map<string, number>();
  for (const [n, pre] of prefixes.entries()) bucketOf.set(pre, Math.floor((n * BUCKETS) / prefixes.length));
  const masks = new Uint8Array(MASKS);
  const lists: number[][] = Array.from({ length: BUCKETS }, () => []);
  for (const s of stems) {
    const b = bucketOf.get(String.fromCharCode(...s.subarray(0, 3)))!;
    for (let k = 0; k < 3; k++) {
      for (let x = 0; x < 256; x++) {
        if (FOLD[x] !== s[k]) continue;
        masks[32 * k + (x & 15)]! |= 1 << b;
        masks[32 * k + 16 + (x >> 4)]! |= 1 << b;
      }
    }
    lists[b]!.push(s.length, ...s);
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
  private readonly tables: number[] = [];
  private readonly longest: number[] = [];

  constructor(mod: WasmModule, sets: ReadonlyArray<readonly string[]>) {
    const inst = new (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly.Instance(mod, {});
    const memory = inst.exports.mem as WasmMemory;
    memory.grow(Math.ceil((DATA + SEGMENT + PAD) / 65536) - 1);
    this.mem = new Uint8Array(memory.buffer);
    this.find = inst.exports.find as LiteralMatcher['find'];
    this.mem.set(FOLD, 0);
    let at = TABLES;
    for (const words of sets) {
      // the stems in latin1 lower case (one character a byte), folded once more so that the table is the rule
      const stems = words.map((w) => Uint8Array.from(w, (c) => FOLD[c.charCodeAt(0) & 0xff]!));
      const table = setTable(stems, at);
      if (at + table.length > DATA) throw new Error('stems too many for the literal matcher');
      this.mem.set(table, at);
      this.tables.push(at);
      this.longest.push(Math.max(...stems.map((s) => s.length)));
      at += table.length + ((16 - (table.length % 16)) % 16);
    }
  }

  /** as AnchorSet.scan: `hit(start)` for each leftmost stem of set `set` in buf[from, to), resuming where it says */
  scan(set: number, buf: Uint8Array, from: number, to: number, hit: (start: number) => number): void {
    const t = this.tables[set]!;
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
export function literalMatcher(sets: ReadonlyArray<readonly string[]>): LiteralMatcher | null {
  const mod = module();
  if (mod === null) return null;
  try {
    return new LiteralMatcher(mod, sets);
  } catch {
    return null;
  }
}
