// Required literals of a signature's pattern: a list of lower-case strings such that every text the pattern
// matches holds at least one of them (ignoring ASCII case). A line without any of them is not tried against the
// pattern at all: on a short log most of the signatures a line's anchors select fail on this test, and their
// regular expressions are then never compiled (V8 compiles a RegExp on its first exec, then again to native code
// on its second: more than the rest of reading a short log). A guard only skips a pattern that could not have
// matched, so what matches is unchanged.
//
// The reading is conservative: anything not understood (character classes, escapes other than an escaped
// punctuation character, lookarounds, back-references, non-ASCII characters other than caseless CJK ones, the
// u/v/g/y flags) ends a run of literal characters and contributes nothing. null: no guard worth having (no literal
// of MIN_LITERAL bytes).

/** in UTF-8 bytes: a CJK character (3 bytes) is as selective as a short ASCII word */
const MIN_LITERAL = 3;

/** Characters that match only themselves, with or without the i flag (u/v are refused), and that a line's lower case
 *  keeps: CJK punctuation, kana and ideographs have no case. A pattern with a Chinese branch is then guarded by that
 *  branch's own words, not let through by every line holding "gpu". */
const CASELESS = /^[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff]$/;

/** a string's length in UTF-8 bytes (the literals are ASCII or CJK: one or three bytes a character) */
function weight(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) n += s.charCodeAt(i) < 0x80 ? 1 : 3;
  return n;
}

/** alternatives: at least one of these strings is in every match; null: nothing known */
type Req = string[] | null;

export function requiredLiterals(pattern: string, flags: string): string[] | null {
  return requiredClauses(pattern, flags)?.[0] ?? null;
}

/** At most this many clauses per pattern: each is a test on every line its anchors select. */
const MAX_CLAUSES = 4;

/**
 * Several requirements at once, all of which every match meets: a list of clauses, each a list of lower-case strings
 * one of which every match holds. "out\\s+of\\s+memory" gives [["memory"], ["out"]]: a line that holds "memory" but
 * not "out" (a training log's "process memory 3.2 GiB") is not tried either. A sequence gives each of its mandatory
 * parts, the best (longest shortest string) first; a top-level alternation joins one clause of each branch per rank
 * ("out\\s+of\\s+memory|oom\\s+killer" gives [["memory", "killer"], ["out", "oom"]]). null: no guard worth having.
 */
export function requiredClauses(pattern: string, flags: string): string[][] | null {
  // u/v: case folding maps non-ASCII letters onto ASCII ones (ſ → s, K → k); g/y: exec has state to keep
  if (/[uvgy]/.test(flags)) return null;
  let pos = 0;
  const fail = (): never => {
    throw new Error('unreadable');
  };

  /** alternation: every branch must give a requirement */
  function alternation(): Req {
    return union(branchesOf());
  }

  /** the branches of an alternation, each with its clauses (best first) */
  function branchesOf(): string[][][] {
    const branches = [sequence()];
    while (pattern[pos] === '|') {
      pos++;
      branches.push(sequence());
    }
    return branches;
  }

  function union(branches: string[][][]): Req {
    if (branches.some((b) => b.length === 0)) return null;
    return [...new Set(branches.flatMap((b) => b[0]!))];
  }

  /**
   * a sequence: its mandatory parts (a run of literal characters, or a mandatory group), the best first; those
   * with a string shorter than MIN_LITERAL are left out
   */
  function sequence(): string[][] {
    const candidates: string[][] = [];
    let run = '';
    const endRun = () => {
      if (run.length > 0) candidates.push([run]);
      run = '';
    };
    while (pos < pattern.length && pattern[pos] !== '|' && pattern[pos] !== ')') {
      const c = pattern[pos]!;
      let atom: { char?: string; req?: Req } = {};
      if (c === '(') {
        pos++;
        let look = false;
        if (pattern[pos] === '?') {
          const rest = pattern.slice(pos);
          if (rest.startsWith('?:')) pos += 2;
          else if (/^\?<[A-Za-z_$][\w$]*>/.test(rest)) pos = pattern.indexOf('>', pos) + 1;
          else if (/^\?(?:=|!|<=|<!)/.test(rest)) {
            look = true;
            pos += rest[1] === '<' ? 3 : 2;
          } else fail();
        }
        const inner = alternation();
        if (pattern[pos] !== ')') fail();
        pos++;
        atom = look ? {} : { req: inner };
      } else if (c === '[') {
        // a class: skipped whole (escapes inside included)
        pos++;
        if (pattern[pos] === '^') pos++;
        if (pattern[pos] === ']') pos++;
        while (pos < pattern.length && pattern[pos] !== ']') pos += pattern[pos] === '\\' ? 2 : 1;
        if (pattern[pos] !== ']') fail();
        pos++;
      } else if (c === '\\') {
        const n = pattern[pos + 1];
        if (n === undefined) fail();
        pos += 2;
        // an escaped punctuation character is that character; every other escape (\s, \d, \b, \1, \x41, \k<…>) is not a
        // literal
        if (/[!-/:-@[-`{-~]/.test(n!)) atom = { char: n };
        // what an escape goes on with is part of it, not a literal after it: \x41, \u0041, \cA, \12, \k<name>
        else if (n === 'x') pos += /^[0-9a-fA-F]{2}/.test(pattern.slice(pos)) ? 2 : 0;
        else if (n === 'u') pos += /^[0-9a-fA-F]{4}/.test(pattern.slice(pos)) ? 4 : 0;
        else if (n === 'c') pos += /^[A-Za-z]/.test(pattern.slice(pos)) ? 1 : 0;
        else if (/[0-9]/.test(n!)) while (/[0-9]/.test(pattern[pos] ?? '')) pos++;
        else if (n === 'k' && pattern[pos] === '<') pos = pattern.indexOf('>', pos) + 1;
      } else if (c === '.' || c === '^' || c === '$') {
        pos++;
      } else if (c === '*' || c === '+' || c === '?') {
        fail(); // a quantifier with nothing before it
      } else if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(pattern.slice(pos))) {
        fail();
      } else {
        pos++;
        atom = { char: c };
      }
      // its quantifier
      let min = 1;
      let quantified = false;
      const q = pattern[pos];
      const brace = q === '{' ? /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(pos)) : null;
      if (q === '*' || q === '?' || q === '+' || brace) {
        quantified = true;
        if (brace) {
          min = Number(brace[1]);
          pos += brace[0].length;
        } else {
          min = q === '+' ? 1 : 0;
          pos++;
        }
        if (pattern[pos] === '?') pos++;
      }
      const code = atom.char?.charCodeAt(0) ?? 0;
      const printable = atom.char !== undefined && ((code >= 0x20 && code < 0x7f) || CASELESS.test(atom.char));
      if (printable && !quantified) {
        run += atom.char!.toLowerCase();
        continue;
      }
      endRun();
      if (printable && min >= 1) candidates.push([atom.char!.toLowerCase()]);
      if (atom.req && min >= 1) candidates.push(atom.req);
    }
    endRun();
    // best first: the longest shortest string (in bytes), then the fewest strings; the order found breaks ties. A part
    // the sequence holds twice ("memory … memory") is one requirement: kept once, so that it takes one clause only
    const score = (c: string[]) => Math.min(...c.map(weight));
    const key = (c: string[]) => c.join('\n');
    return candidates
      .map((c, i) => ({ c, i, score: score(c) }))
      .filter((x, i, all) => all.findIndex((y) => key(y.c) === key(x.c)) === i)
      .filter((x) => x.score >= MIN_LITERAL)
      .sort((a, b) => b.score - a.score || a.c.length - b.c.length || a.i - b.i)
      .map((x) => x.c);
  }

  try {
    const branches = branchesOf();
    if (pos !== pattern.length) return null;
    if (branches.some((b) => b.length === 0)) return null;
    // one clause per rank, joining one clause of each branch: a match is one branch's, which holds all of that
    // branch's clauses, so any choice gives a valid clause. The first joins the branches' best; a later one takes
    // each branch's clause of that rank or after it (else any after its best) that shares no string with the first
    // (a branch's second part "memory" would let every line the first passed through again), else the branch's best.
    const depth = Math.min(MAX_CLAUSES, Math.max(...branches.map((b) => b.length)));
    const first = new Set(branches.flatMap((b) => b[0]!));
    const clauses: string[][] = [[...first]];
    for (let k = 1; k < depth; k++) {
      const fresh = (c: string[]) => !c.some((x) => first.has(x));
      const pick = (b: string[][]) => b.slice(k).find(fresh) ?? b.slice(1).find(fresh) ?? b[0]!;
      const clause = [...new Set(branches.flatMap(pick))];
      if (!clauses.some((c) => c.length === clause.length && c.every((x, i) => x === clause[i]))) clauses.push(clause);
    }
    return clauses;
  } catch {
    return null;
  }
}

/** whether a line may match: it holds one of the literals (the line in lower case, computed once per line) */
export function mayHold(literals: readonly string[], lower: string): boolean {
  for (const l of literals) if (lower.includes(l)) return true;
  return false;
}

/** whether a line may match: it holds one string of every clause (see requiredClauses) */
export function mayHoldAll(clauses: readonly (readonly string[])[], lower: string): boolean {
  for (const c of clauses) if (!mayHold(c, lower)) return false;
  return true;
}
