// The literal prefilter: finds, in a whole buffer of bytes, every place where one of a set of short words
// ("anchors") occurs, ignoring ASCII case. Only the lines that hold an anchor are ever decoded and read; every
// other line is only counted. This is how grep, ripgrep and Hyperscan stay fast on big inputs: one pass for
// literals over the whole buffer instead of many regular expressions on every line.
//
// The search is one regular expression over a lower-cased latin1 view of the bytes (one character per byte, so
// positions are byte offsets and UTF-8 sequences never fake an ASCII anchor), with the anchors laid out as a trie
// (`c(?:ud|upy|...)|g(?:pu)|...`): V8 compiles it to native code that tests the first byte of every alternative at
// once. Lower-casing an ASCII window and matching case-sensitively finds exactly what the same regex with the i flag
// finds over latin1, for a third of the CPU. Measured on this project's VM, that beat a Wu-Manber shift table written
// in JavaScript: with real anchors (`er`, `on`, `or` inside `driver`, `version`, `torch`) the table's verify step ran
// on most positions of English text.
//
// On a big input (past LITERALS_AFTER bytes) the stems are searched in WebAssembly instead (literals-wasm.ts: SIMD,
// on the bytes, no string made): the same hits, for about a third of the CPU; the regexes stay for short inputs
// (a short log never compiles the module) and where WebAssembly cannot run.
//
// Anchors are words of at least three bytes, in any script: a non-ASCII anchor ("显卡") is searched as its UTF-8
// bytes. Matching ignores case (as the i flag without u would): ASCII letters match in either case, which is what
// the messages need (their case varies between versions); for non-ASCII bytes the folding of latin1 letters can
// only add candidates, never lose one.

import { isAscii } from 'node:buffer';
import { native, nativeAtFirstUse } from '../../../base/native-regex.js';
import { buckets, type LiteralMatcher, literalMatcher } from './literals-wasm.js';

export const MIN_ANCHOR = 3;

/** An AnchorSet's computed state (words in latin1 lower case, the regex sources, prefixes per id). */
export interface AnchorSetState {
  words: string[];
  re: string;
  scanRe: string;
  headRe: string;
  fastStems: string[];
  headWords: string[];
  overlap: number;
  prefixes: number[][];
  /** the stems' and the head stems' buckets in the WebAssembly matcher (literals-wasm.ts buckets), worked out once
   *  by the build */
  literalBuckets?: number[][][];
}
/** see scan: small enough that the two strings of the window being searched, alive at each scavenge, do not make V8
 *  grow its young generation (64 KiB did once repeated lines were skipped: +12 MiB of peak memory on a 512 MB log),
 *  large enough that the windows' count costs nothing measurable */
const WINDOW = 32 * 1024;
const NON_ASCII = /[^\x00-\x7f]/;
/** the bytes a set searches with its regexes before it builds the WebAssembly matcher: a short log never pays for
 *  the module's compile */
const LITERALS_AFTER = 256 * 1024;
/** how a set searches: the WebAssembly matcher once the input is big (where it runs), or always one of them */
export type ScanEngine = 'auto' | 'regex' | 'wasm';
/** compiled natively at the first text searched */
const primeNonAscii = nativeAtFirstUse(NON_ASCII);

export class AnchorSet {
  /** the anchors in lower case, in the order given (their index is the id callers see) */
  readonly words: string[];
  private readonly ids = new Map<string, number>();
  /** the regexes' sources: each compiled when first used (V8 parses a pattern when its RegExp is created), straight
   *  to machine code (src/base/native-regex.ts) */
  private readonly sources: { re: string; scanRe: string; headRe: string };
  private regexes: { re?: RegExp; scanRe?: RegExp; headRe?: RegExp; scanReI?: RegExp; headReI?: RegExp } = {};
  /** the stems, and the head stems read in the first part of an input only */
  private readonly fastStems: string[];
  private readonly headWords: string[];
  /** for windows that are not ASCII, built at the first one (see scan); null when the stems do not allow it */
  private maskedRes: { scan: RegExp; head: RegExp; scanY: RegExp; headY: RegExp; longest: number } | null | undefined;
  /** bytes the scan windows overlap by */
  private readonly overlap: number;
  /** for each anchor id, the ids of the anchors that are prefixes of it ("cud" of "cudnn") */
  private readonly prefixes: number[][];
  /** the stems and the head stems in WebAssembly (literals-wasm.ts), built when first wanted; null where it cannot
   *  run */
  private literals: LiteralMatcher | null | undefined;
  private engine: ScanEngine = 'auto';
  private literalBuckets: number[][][] | undefined;
  /** the bytes scanned so far (see LITERALS_AFTER) */
  private scanned = 0;

  constructor(words: readonly string[], stems?: readonly string[], headStems: readonly string[] = []) {
    for (const w of [...words, ...(stems ?? []), ...headStems]) {
      if (Buffer.byteLength(w, 'utf8') < MIN_ANCHOR)
        throw new Error(`anchor "${w}" is shorter than ${MIN_ANCHOR} bytes`);
      if (/[\r\n]/.test(w)) throw new Error(`anchor "${w}" holds a line break`);
    }
    // the regex runs over bytes seen as latin1 characters: an anchor is its UTF-8 bytes, seen the same way
    const latin1 = (w: string) => Buffer.from(w, 'utf8').toString('latin1').toLowerCase();
    this.words = words.map(latin1);
    for (const [i, w] of this.words.entries()) if (!this.ids.has(w)) this.ids.set(w, i);
    const reSource = trie([...this.ids.keys()]);
    const stemWords = stems ? [...new Set(stems.map(latin1))] : [...this.ids.keys()];
    const headWords = [...new Set([...stemWords, ...headStems.map(latin1)])];
    for (const w of this.ids.keys()) {
      if (!headWords.some((s) => w.includes(s)))
        throw new Error(`anchor "${w}" holds none of the prefilter's stems: a line with it would never be read`);
    }
    this.fastStems = stemWords;
    this.headWords = headWords;
    this.overlap = Math.max(...headWords.map((w) => w.length)) - 1;
    this.sources = { re: reSource, scanRe: trie(stemWords), headRe: trie(headWords) };
    // each word's own prefixes looked up, in id order (a pairwise scan of all words cost more than the rest of
    // the set's construction at every start)
    this.prefixes = this.words.map((w) => {
      const out: number[] = [];
      for (let n = MIN_ANCHOR; n < w.length; n++) {
        const id = this.ids.get(w.slice(0, n));
        if (id !== undefined) out.push(id);
      }
      return out.sort((a, b) => a - b);
    });
  }

  /**
   * Calls `hit(start)` for occurrences in buf[from, to), in increasing order. `hit` returns where to resume (a
   * line's end, to skip the rest of that line). Occurrences inside a skipped range are not reported.
   * `ascii`: what the caller has learnt of buf[from, to) already (a range's block is tested whole): true, all of it
   * is ASCII; false, some of it is not, so each window is read masked (below) without a test of its own; undefined,
   * each window is tested. The hits are the same either way.
   */
  scan(buf: Buffer, from: number, to: number, hit: (start: number) => number, head = false, ascii?: boolean): void {
    this.scanned += to - from;
    if (this.engine === 'wasm' || (this.engine === 'auto' && this.scanned > LITERALS_AFTER)) {
      if (this.matcher() !== null) {
        this.literals!.scan(head ? 1 : 0, buf, from, to, hit);
        return;
      }
    }
    // in windows of 32 KiB: V8 makes strings of that size fast; from 128 KiB to 1 MiB it puts each in the large-
    // object space, measured here 10x slower to create than either. Windows overlap by the longest stem, so that
    // a stem across a window's edge is found in the next one.
    let pos = from;
    while (pos < to) {
      const wEnd = Math.min(to, pos + WINDOW);
      // An ASCII window is lower-cased once, then matched case-sensitively: a third of the CPU of the same regex
      // with the i flag, which folds the case of every character it tries. Over latin1 the two agree exactly (each
      // of the 256 characters matches the same ones either way) and lower-casing keeps the length, so offsets
      // hold; but V8 lower-cases non-ASCII text one character at a time (a progress bar's █ in every window costs
      // more than the i flag), so such a window is matched with the i flag as it is.
      // A window that is not ASCII is read as ASCII with each byte's high bit cleared (Node's 'ascii' decoding),
      // lower-cased (fast again) and searched for the stems with their high bits cleared too: a superset of the
      // real matches, each confirmed on the real bytes where it starts.
      // a masked search of an ASCII window finds what the plain one finds (each hit confirmed on the real bytes)
      const plain =
        ascii === true || ((ascii === undefined || this.masked() === null) && isAscii(buf.subarray(pos, wEnd)));
      const masked = plain ? null : this.masked();
      const text = plain
        ? buf.toString('latin1', pos, wEnd).toLowerCase()
        : masked
          ? buf.toString('ascii', pos, wEnd).toLowerCase()
          : buf.toString('latin1', pos, wEnd);
      const re = plain
        ? this.regex(head ? 'headRe' : 'scanRe')
        : masked
          ? head
            ? masked.head
            : masked.scan
          : this.regex(head ? 'headReI' : 'scanReI');
      re.lastIndex = 0;
      let next = wEnd >= to ? to : wEnd - this.overlap;
      for (;;) {
        const m = re.exec(text);
        if (m === null) break;
        const at = pos + m.index;
        if (masked) {
          const y = head ? masked.headY : masked.scanY;
          y.lastIndex = 0;
          if (!y.test(buf.toString('latin1', at, Math.min(wEnd, at + masked.longest)))) {
            re.lastIndex = m.index + 1;
            if (re.lastIndex >= text.length) break;
            continue;
          }
        }
        const resume = hit(at);
        if (resume >= wEnd) {
          next = resume;
          break;
        }
        re.lastIndex = Math.max(resume - pos, m.index + 1);
        if (re.lastIndex >= text.length) break;
        next = Math.max(next, resume);
      }
      if (next <= pos) next = wEnd;
      pos = next;
    }
  }

  /**
   * The stems with each byte's high bit cleared, lower-cased: wherever a stem matches (ignoring case as the i flag
   * does over latin1), its masked form matches the masked text, provided every pair of latin1 letters that the i
   * flag takes as one letter stays one ASCII letter when masked: true for all but À/à (@ and \`) and Û-Þ/û-þ
   * ([\]^ and {|}~). A stem with one of those bytes turns this off (null: such windows use the i flag).
   */
  private masked(): { scan: RegExp; head: RegExp; scanY: RegExp; headY: RegExp; longest: number } | null {
    if (this.maskedRes !== undefined) return this.maskedRes;
    const unsafe = (c: number) => c === 0xc0 || c === 0xe0 || (c >= 0xdb && c <= 0xde) || (c >= 0xfb && c <= 0xfe);
    if (this.headWords.some((w) => [...w].some((ch) => unsafe(ch.charCodeAt(0))))) return (this.maskedRes = null);
    const mask = (w: string) =>
      [...w]
        .map((ch) => String.fromCharCode(ch.charCodeAt(0) & 0x7f))
        .join('')
        .toLowerCase();
    this.maskedRes = {
      scan: new RegExp(trie([...new Set(this.fastStems.map(mask))]), 'g'),
      head: new RegExp(trie([...new Set(this.headWords.map(mask))]), 'g'),
      scanY: native(new RegExp(this.sources.scanRe, 'iy')),
      headY: native(new RegExp(this.sources.headRe, 'iy')),
      longest: Math.max(...this.headWords.map((w) => w.length)),
    };
    return this.maskedRes;
  }

  /** the WebAssembly matcher, built at the first call; null where it cannot run */
  private matcher(): LiteralMatcher | null {
    if (this.literals === undefined) {
      this.literals = literalMatcher([this.fastStems, this.headWords], this.dealt());
    }
    return this.literals;
  }

  private dealt(): number[][][] {
    if (this.literalBuckets === undefined) this.literalBuckets = [buckets(this.fastStems), buckets(this.headWords)];
    return this.literalBuckets;
  }

  /** A buffer of `size` bytes for a caller to read its input into (a range's reads): the WebAssembly matcher then
   *  searches it where it is, without a copy. null when the regexes search (then any buffer does). */
  ioBuffer(size: number): Buffer | null {
    if (this.engine === 'regex') return null;
    return this.matcher()?.ioBuffer(size) ?? null;
  }

  /** For the tests and benches: search with the regexes only, the WebAssembly matcher only (where it runs), or as
   *  the input's size says ('auto'). The hits are the same. */
  useEngine(engine: ScanEngine): this {
    this.engine = engine;
    return this;
  }

  /** What the constructor computes from its words, for the build to write down (scripts/build.mjs) and a run to
   *  restore with `fromState` instead of computing it again at every start. */
  state(): AnchorSetState {
    return {
      words: this.words,
      re: this.sources.re,
      scanRe: this.sources.scanRe,
      headRe: this.sources.headRe,
      fastStems: this.fastStems,
      headWords: this.headWords,
      overlap: this.overlap,
      prefixes: this.prefixes,
      literalBuckets: this.dealt(),
    };
  }

  /** The set a state describes, with the flags the constructor gives each regex. */
  static fromState(s: AnchorSetState): AnchorSet {
    const a = Object.create(AnchorSet.prototype) as AnchorSet;
    const ids = new Map<string, number>();
    for (const [i, w] of s.words.entries()) if (!ids.has(w)) ids.set(w, i);
    Object.assign(a, {
      words: s.words,
      ids,
      sources: { re: s.re, scanRe: s.scanRe, headRe: s.headRe },
      regexes: {},
      fastStems: s.fastStems,
      headWords: s.headWords,
      maskedRes: undefined,
      literals: undefined,
      literalBuckets: s.literalBuckets,
      engine: 'auto',
      scanned: 0,
      overlap: s.overlap,
      prefixes: s.prefixes,
    });
    return a;
  }

  /**
   * The ids of all anchors in a string, overlapping ones included ("cudnn" holds "cud" and "dnn"). `lower`: the
   * string's lower case, when the caller has it already.
   */
  idsIn(text: string, lower?: string): number[] {
    // ASCII text is its own latin1 view of its UTF-8 bytes (most log lines): no round trip through a Buffer
    primeNonAscii();
    if (NON_ASCII.test(text)) return this.idsInLatin1(Buffer.from(text, 'utf8').toString('latin1').toLowerCase());
    return this.idsInLatin1(lower ?? text.toLowerCase());
  }

  /** `s`: a latin1 view, lower-cased */
  private idsInLatin1(s: string): number[] {
    const out: number[] = [];
    const re = this.regex('re');
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s)) !== null) {
      const id = this.ids.get(m[0]);
      if (id !== undefined) {
        if (!out.includes(id)) out.push(id);
        // an anchor that is a prefix of the one found ("cud" of "cudart") is there too
        for (const p of this.prefixes[id]!) if (!out.includes(p)) out.push(p);
      }
      // the alternation takes one anchor per start: look again one byte later for overlapping ones
      re.lastIndex = m.index + 1;
    }
    return out;
  }

  /** a regex by name, with the flags the scan gives it: case-sensitive over lower-cased windows, with the i flag
   *  over the others (see scan) */
  private regex(which: 're' | 'scanRe' | 'headRe' | 'scanReI' | 'headReI'): RegExp {
    const r = this.regexes[which];
    if (r !== undefined) return r;
    const made = native(
      which === 'scanReI'
        ? new RegExp(this.sources.scanRe, 'gi')
        : which === 'headReI'
          ? new RegExp(this.sources.headRe, 'gi')
          : new RegExp(this.sources[which], 'g'),
    );
    this.regexes[which] = made;
    return made;
  }

  /** does the word hold one of the stems read everywhere (not only in the head)? */
  foundAnywhere(word: string): boolean {
    const w = Buffer.from(word, 'utf8').toString('latin1').toLowerCase();
    return this.fastStems.some((s) => w.includes(s));
  }

  /** the id of a word, when it is one of the anchors */
  idOf(word: string): number | undefined {
    return this.ids.get(Buffer.from(word, 'utf8').toString('latin1').toLowerCase());
  }
}

/** ["cuda", "cudnn", "gpu"] → "cud(?:a|nn)|gpu": alternatives grouped by their first character, longest first */
function trie(words: string[]): string {
  const groups = new Map<string, string[]>();
  let empty = false;
  for (const w of words) {
    if (w.length === 0) {
      empty = true;
      continue;
    }
    const k = w[0]!;
    const list = groups.get(k) ?? [];
    list.push(w.slice(1));
    groups.set(k, list);
  }
  const alts: string[] = [];
  for (const [k, rest] of groups) {
    const head = escape(k);
    if (rest.length === 1) alts.push(head + escape(rest[0]!));
    else alts.push(`${head}(?:${trie(rest)})`);
  }
  // longer alternatives first, so that "cudart" is preferred to "cud" at the same start
  alts.sort((a, b) => b.length - a.length);
  const body = alts.join('|');
  return empty ? `(?:${body})?` : body;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
