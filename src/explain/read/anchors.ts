// The literal prefilter: finds, in a whole buffer of bytes, every place where one of a set of short words
// ("anchors") occurs, ignoring ASCII case. Only the lines that hold an anchor are ever decoded and read; every
// other line is only counted. This is how grep, ripgrep and Hyperscan stay fast on big inputs: one pass for
// literals over the whole buffer instead of many regular expressions on every line.
//
// The search is one case-insensitive regular expression over a latin1 view of the bytes (one character per
// byte, so positions are byte offsets and UTF-8 sequences never fake an ASCII anchor), with the anchors laid
// out as a trie (`c(?:ud|upy|...)|g(?:pu)|...`): V8 compiles it to native code that tests the first byte of
// every alternative at once. Measured on this project's VM, that beat a Wu-Manber shift table written in
// JavaScript: with real anchors (`er`, `on`, `or` inside `driver`, `version`, `torch`) the table's verify step
// ran on most positions of English text.
//
// Anchors are words of at least three bytes, in any script: a non-ASCII anchor ("显卡") is searched as its UTF-8
// bytes. The regex is case-insensitive (without the `u` flag): ASCII letters match in either case, which is what
// the messages need (their case varies between versions); for non-ASCII bytes the folding of latin1 letters can
// only add candidates, never lose one.

export const MIN_ANCHOR = 3;

export class AnchorSet {
  /** the anchors in lower case, in the order given (their index is the id callers see) */
  readonly words: string[];
  private readonly ids = new Map<string, number>();
  private readonly re: RegExp;

  constructor(words: readonly string[]) {
    for (const w of words) {
      if (Buffer.byteLength(w, 'utf8') < MIN_ANCHOR) throw new Error(`anchor "${w}" is shorter than ${MIN_ANCHOR} bytes`);
      if (/[\r\n]/.test(w)) throw new Error(`anchor "${w}" holds a line break`);
    }
    // the regex runs over bytes seen as latin1 characters: an anchor is its UTF-8 bytes, seen the same way
    this.words = words.map((w) => Buffer.from(w, 'utf8').toString('latin1').toLowerCase());
    for (const [i, w] of this.words.entries()) if (!this.ids.has(w)) this.ids.set(w, i);
    this.re = new RegExp(trie([...this.ids.keys()]), 'gi');
  }

  /**
   * Calls `hit(start)` for occurrences in buf[from, to), in increasing order. `hit` returns where to resume (a
   * line's end, to skip the rest of that line). Occurrences inside a skipped range are not reported.
   */
  scan(buf: Buffer, from: number, to: number, hit: (start: number) => number): void {
    const text = buf.toString('latin1', from, to);
    const re = this.re;
    re.lastIndex = 0;
    for (;;) {
      const m = re.exec(text);
      if (m === null) return;
      const resume = hit(from + m.index) - from;
      re.lastIndex = Math.max(resume, m.index + 1);
      if (re.lastIndex >= text.length) return;
    }
  }

  /** The ids of all anchors in a string, overlapping ones included ("cudnn" holds "cud" and "dnn"). */
  idsIn(text: string): number[] {
    return this.idsInLatin1(Buffer.from(text, 'utf8').toString('latin1'));
  }

  private idsInLatin1(s: string): number[] {
    const out: number[] = [];
    const re = this.re;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s)) !== null) {
      const id = this.ids.get(m[0].toLowerCase());
      if (id !== undefined && !out.includes(id)) out.push(id);
      // the alternation takes one anchor per start: look again one byte later for overlapping ones
      re.lastIndex = m.index + 1;
      // an anchor that is a prefix of another ("cuda" of "cudart") is found at the same start by a shorter pass
      for (const [w, wid] of this.ids) {
        if (w.length < m[0].length && !out.includes(wid) && m[0].toLowerCase().startsWith(w)) out.push(wid);
      }
    }
    return out;
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
