// Required literals of a signature's pattern: a list of lower-case strings such that every text the pattern
// matches holds at least one of them (ignoring ASCII case). A line without any of them is not tried against the
// pattern at all: on a short log most of the signatures a line's anchors select fail on this test, and their
// regular expressions are then never compiled (V8 compiles a RegExp on its first exec, then again to native code
// on its second: more than the rest of reading a short log). A guard only skips a pattern that could not have
// matched, so what matches is unchanged.
//
// The reading is conservative: anything not understood (character classes, escapes other than an escaped
// punctuation character, lookarounds, back-references, non-ASCII characters, the u/v/g/y flags) ends a run of
// literal characters and contributes nothing. null: no guard worth having (no literal of MIN_LITERAL characters).

const MIN_LITERAL = 3;

/** alternatives: at least one of these strings is in every match; null: nothing known */
type Req = string[] | null;

export function requiredLiterals(pattern: string, flags: string): string[] | null {
  // u/v: case folding maps non-ASCII letters onto ASCII ones (ſ → s, K → k); g/y: exec has state to keep
  if (/[uvgy]/.test(flags)) return null;
  let pos = 0;
  const fail = (): never => {
    throw new Error('unreadable');
  };

  /** alternation: every branch must give a requirement */
  function alternation(): Req {
    const branches: Req[] = [sequence()];
    while (pattern[pos] === '|') {
      pos++;
      branches.push(sequence());
    }
    if (branches.some((b) => b === null)) return null;
    return [...new Set(branches.flatMap((b) => b!))];
  }

  /** a sequence: the best of its mandatory parts (a run of literal characters, or a mandatory group) */
  function sequence(): Req {
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
      const printable = atom.char !== undefined && atom.char.charCodeAt(0) >= 0x20 && atom.char.charCodeAt(0) < 0x7f;
      if (printable && !quantified) {
        run += atom.char!.toLowerCase();
        continue;
      }
      endRun();
      if (printable && min >= 1) candidates.push([atom.char!.toLowerCase()]);
      if (atom.req && min >= 1) candidates.push(atom.req);
    }
    endRun();
    let best: string[] | null = null;
    let bestScore = 0;
    for (const cand of candidates) {
      const score = Math.min(...cand.map((s) => s.length));
      if (score > bestScore || (score === bestScore && best !== null && cand.length < best.length)) {
        best = cand;
        bestScore = score;
      }
    }
    return best;
  }

  try {
    const req = alternation();
    if (pos !== pattern.length) return null;
    if (req === null || req.some((s) => s.length < MIN_LITERAL)) return null;
    return req;
  } catch {
    return null;
  }
}

/** whether a line may match: it holds one of the literals (the line in lower case, computed once per line) */
export function mayHold(literals: readonly string[], lower: string): boolean {
  for (const l of literals) if (lower.includes(l)) return true;
  return false;
}
