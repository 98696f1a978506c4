// Reads the generated "version" modules of the frameworks (torch/version.py, TensorFlow's build_info.py,
// jaxlib/version.py) without a Python interpreter. They are flat assignments of literals, so a small
// literal parser is enough; anything that is not a literal (a function call) is left out.

export type PyValue = string | number | boolean | null | PyValue[] | { [k: string]: PyValue };

/**
 * Top-level `name = literal` and `name: type = literal` assignments, plus `d['key'] = literal` item
 * assignments (TensorFlow writes build_info as `build_info['cuda_version'] = '12.2'`), keyed "d.key".
 */
export function readAssignments(source: string): Map<string, PyValue> {
  const out = new Map<string, PyValue>();
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s/.test(line) || line.startsWith('#')) continue;
    const m = /^([A-Za-z_]\w*)(?:\[\s*(['"])([^'"]+)\2\s*\])?\s*(?::\s*[^=]+?)?\s*=\s*(.+)$/.exec(line);
    if (!m) continue;
    let expr = m[4]!;
    // A literal that spans lines (a dict or a list): join until the brackets balance.
    let j = i;
    while (!balanced(expr) && j + 1 < lines.length && j - i < 200) expr += `\n${lines[++j]!}`;
    const v = parseLiteral(expr);
    if (v === undefined) continue;
    const key = m[3] !== undefined ? `${m[1]}.${m[3]}` : m[1]!;
    out.set(key, v);
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, inner] of Object.entries(v)) out.set(`${m[1]}.${k}`, inner);
    }
    i = j;
  }
  return out;
}

function balanced(s: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') {
      const nl = s.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
  }
  return depth <= 0;
}

/** A Python literal, or undefined when the expression is not one. */
export function parseLiteral(expr: string): PyValue | undefined {
  const p = new LiteralParser(expr);
  try {
    const v = p.value();
    p.skipSpace();
    return p.atEnd() ? v : undefined;
  } catch {
    return undefined;
  }
}

class LiteralParser {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  skipSpace(): void {
    for (;;) {
      while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
      if (this.s[this.i] === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      return;
    }
  }

  value(): PyValue {
    this.skipSpace();
    const c = this.s[this.i];
    if (c === undefined) throw new Error('end');
    if (c === '"' || c === "'" || (/[rbuRBU]/.test(c) && (this.s[this.i + 1] === '"' || this.s[this.i + 1] === "'")))
      return this.string();
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')');
    if (c === '{') return this.dict();
    const word = /^(True|False|None|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(this.s.slice(this.i));
    if (!word) throw new Error('not a literal');
    this.i += word[1]!.length;
    if (word[1] === 'True') return true;
    if (word[1] === 'False') return false;
    if (word[1] === 'None') return null;
    return Number(word[1]);
  }

  private string(): string {
    if (/[rbuRBU]/.test(this.s[this.i]!)) this.i++;
    const q = this.s[this.i]!;
    const triple = this.s.startsWith(q.repeat(3), this.i);
    const end = triple ? q.repeat(3) : q;
    this.i += end.length;
    let out = '';
    while (this.i < this.s.length && !this.s.startsWith(end, this.i)) {
      const c = this.s[this.i]!;
      if (c === '\\' && this.i + 1 < this.s.length) {
        const n = this.s[this.i + 1]!;
        out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
        this.i += 2;
      } else {
        out += c;
        this.i++;
      }
    }
    if (this.i >= this.s.length) throw new Error('unterminated string');
    this.i += end.length;
    // Adjacent literals concatenate: 'a' 'b'
    this.skipSpace();
    const c = this.s[this.i];
    if (c === '"' || c === "'") return out + this.string();
    return out;
  }

  private list(close: string): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== close) throw new Error('bad list');
    }
  }

  private dict(): { [k: string]: PyValue } {
    this.i++;
    const out: { [k: string]: PyValue } = {};
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      const k = this.value();
      this.skipSpace();
      if (this.s[this.i] !== ':') throw new Error('bad dict');
      this.i++;
      out[String(k)] = this.value();
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new Error('bad dict');
    }
  }
}
