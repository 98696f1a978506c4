// A message's format string, as written in the source that prints it, parsed into literal text and placeholders, then
// turned into a regular expression whose placeholders are captures. Handles the formats the catalog holds: printf
// (`%s`, `%d`, `%04x`, `%ld`, Go's `%v`/`%q`), Python/fmt (`{}`, `{0}`, `{name}`, `{:,}`, `{type(e).__name__}`),
// shell-like `${CUDA_DIR}`, and C++ stream or absl::StrCat expressions (`"cudaMalloc failed: " <<
// cudaGetErrorString(e)`, glog's `CHECK_EQ(a, b) << ...`, which prints `Check failed: a == b (x vs. y) ...`).

export type PlaceholderType = 'int' | 'hex' | 'float' | 'str';

/** literal text, a value (a capture), or a fixed bit of pattern where printers differ (glog/dmlc after CHECK) */
export type Piece = { lit: string } | { ph: PlaceholderType; name?: string } | { raw: string; example?: string };

const PRINTF = /^%([-+ #0']*)(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|L|z|j|t|q)?([diouxXeEfFgGaAcspvqwr])/;

/** One line of the message (formats with `\n` print several lines; logs are read line by line). */
export type FormatLine = Piece[];

export function parseFormat(format: string): FormatLine[] {
  const code = codePieces(format);
  const pieces = code ?? textPieces(format);
  // split literal pieces at newlines
  const lines: FormatLine[] = [[]];
  for (const p of pieces) {
    if ('lit' in p) {
      const parts = p.lit.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part.length > 0) lines[lines.length - 1]!.push({ lit: part });
      });
    } else lines[lines.length - 1]!.push(p);
  }
  return lines.map(merge).filter((l) => l.length > 0);
}

/** adjacent literal pieces joined into one */
export function merge(line: FormatLine): FormatLine {
  const out: FormatLine = [];
  for (const p of line) {
    const last = out[out.length - 1];
    if ('lit' in p && last && 'lit' in last) last.lit += p.lit;
    else out.push('lit' in p ? { lit: p.lit } : p);
  }
  return out;
}

function textPieces(f: string): Piece[] {
  const out: Piece[] = [];
  let lit = '';
  const flush = () => {
    if (lit) out.push({ lit });
    lit = '';
  };
  for (let i = 0; i < f.length; ) {
    const c = f[i]!;
    if (c === '%') {
      if (f[i + 1] === '%') {
        lit += '%';
        i += 2;
        continue;
      }
      const m = PRINTF.exec(f.slice(i));
      if (m) {
        flush();
        out.push({ ph: printfType(m[5]!) });
        i += m[0].length;
        continue;
      }
    }
    if (c === '{') {
      if (f[i + 1] === '{') {
        lit += '{';
        i += 2;
        continue;
      }
      const end = closing(f, i);
      if (end > i) {
        flush();
        const inner = f.slice(i + 1, end);
        const name = /^([A-Za-z_]\w*)(?:[!:].*)?$/.exec(inner)?.[1];
        out.push(
          name
            ? { ph: /version|count|number|code/i.test(name) ? 'str' : 'str', name }
            : { ph: /^:,?d?$/.test(inner) || inner === ':,' ? 'int' : 'str' },
        );
        i = end + 1;
        continue;
      }
    }
    if (c === '}' && f[i + 1] === '}') {
      lit += '}';
      i += 2;
      continue;
    }
    if (c === '$' && f[i + 1] === '{') {
      const end = f.indexOf('}', i);
      if (end > i) {
        flush();
        out.push({ ph: 'str', name: f.slice(i + 2, end).replace(/\W/g, '_') });
        i = end + 1;
        continue;
      }
    }
    lit += c;
    i++;
  }
  flush();
  return out;
}

/** index of the `}` that closes the `{` at i, counting nested brackets and skipping quoted strings */
function closing(f: string, i: number): number {
  let depth = 0;
  let quote = '';
  for (let j = i; j < f.length; j++) {
    const c = f[j]!;
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth === 0) return c === '}' ? j : -1;
    }
  }
  return -1;
}

function printfType(conv: string): PlaceholderType {
  if ('diouc'.includes(conv)) return 'int';
  if ('xXp'.includes(conv)) return 'hex';
  if ('eEfFgGaA'.includes(conv)) return 'float';
  return 'str';
}

const GLOG_OPS: Record<string, string> = { EQ: '==', NE: '!=', LT: '<', LE: '<=', GT: '>', GE: '>=' };

/**
 * C++ expressions: string literals are text, everything between `<<` (or StrCat's commas) is a value. glog's
 * CHECK macros print "Check failed: <condition> " first (CHECK_EQ adds "(x vs. y)"). Returns null for a plain format.
 */
function codePieces(f: string): Piece[] | null {
  const t = f.trim();
  const isCode =
    t.startsWith('"') ||
    t.includes(' << ') ||
    /^(?:absl::)?StrCat\(|^CHECK(?:_[A-Z]{2})?\(|^#\w+ "/.test(t) ||
    /^\w+ << "/.test(t);
  if (!isCode) return null;
  const out: Piece[] = [];
  let body = t;
  const check = /^CHECK(?:_([A-Z]{2}))?\((.*?)\)\s*<<\s*/.exec(body);
  if (check) {
    const op = check[1] ? GLOG_OPS[check[1]] : undefined;
    if (op) {
      const [a, b] = check[2]!.split(',').map((s) => s.trim());
      // glog prints "(x vs. y) " then the message; dmlc-core (MXNet) adds ": "
      // the condition is printed as written at the call site: the variable's name is the caller's (`e`, `err`,
      // `status`, `error`), so any identifier stands in for it
      out.push(
        { lit: 'Check failed: ' },
        { raw: String.raw`[A-Za-z_][\w.>-]*`, example: 'e' },
        { lit: ` ${op} ${b} (` },
        { ph: 'int' },
        { lit: ' vs. ' },
        { ph: 'int' },
        { lit: ')' },
        { raw: String.raw`\s*:?\s*` },
      );
    } else out.push({ lit: `Check failed: ${check[2]}` }, { raw: String.raw`:?\s+` });
    body = body.slice(check[0].length);
  }
  const strcat = /^(?:absl::)?StrCat\((.*)\)$/.exec(body);
  const parts = strcat ? splitTop(strcat[1]!, ',') : splitTop(body, '<<');
  for (const raw of parts) {
    const p = raw.trim();
    const s = /^"((?:[^"\\]|\\.)*)"$/.exec(p);
    if (s) out.push({ lit: unescapeC(s[1]!) });
    else if (/^#\w+\s+"/.test(p)) {
      // macro stringification followed by a literal: `#x " failed with error "`
      out.push({ ph: 'str' });
      const lit = /"((?:[^"\\]|\\.)*)"$/.exec(p);
      if (lit) out.push({ lit: unescapeC(lit[1]!) });
    } else if (p.length > 0) out.push({ ph: 'str' });
  }
  return out;
}

/** split at a separator outside quotes and brackets */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === '"') quote = false;
      continue;
    }
    if (c === '"') quote = true;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function unescapeC(s: string): string {
  return s.replace(/\\(n|t|"|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** the literal text of a line (what a reader sees of the message without its values) */
export function literalText(line: FormatLine): string {
  return line
    .map((p) => ('lit' in p ? p.lit : ' '))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export function literalLength(line: FormatLine): number {
  return line.reduce((n, p) => n + ('lit' in p ? p.lit.replace(/\s+/g, '').length : 0), 0);
}

export interface CompiledFormat {
  pattern: string;
  /** capture names in order of the groups */
  captures: string[];
  /** the literal text the pattern requires (used to choose its anchor) */
  required: string;
}

const PH_RE: Record<PlaceholderType, string> = {
  // thousands separators: Python's {:,} prints 4,294,967,296
  int: String.raw`-?\d[\d,]*`,
  hex: String.raw`(?:0x)?[0-9a-fA-F]+`,
  float: String.raw`-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`,
  str: '', // set by position: lazy and bounded inside, greedy and bounded at the end
};
/** values are short (versions, sizes, names, paths); the bound keeps a failing match cheap on a 16 KiB line */
const STR_MAX = 240;

/**
 * The regular expression of one line of a format. The head (placeholders before the first literal dropped, then
 * literal text up to at least `minHead` visible characters) is required; each later piece is optional and nested,
 * so a message the user pasted only in part still matches, with the captures it has.
 */
export function compileLine(
  line: FormatLine,
  names: (index: number, piece: { ph: PlaceholderType; name?: string }) => string,
  minHead = 20,
): CompiledFormat {
  let pieces = line.slice();
  while (pieces.length > 0 && !('lit' in pieces[0]!)) pieces.shift();
  // a leading literal that is only punctuation/space ("): ") is part of the dropped placeholder's context
  if (pieces.length > 0 && 'lit' in pieces[0]!) {
    const first = pieces[0] as { lit: string };
    const trimmed = first.lit.replace(/^[\s:;,.)\]'"-]+/, '');
    if (trimmed.length === 0) pieces = pieces.slice(1);
    else pieces[0] = { lit: trimmed };
  }
  // trailing whitespace says nothing
  const last = pieces[pieces.length - 1];
  if (last && 'lit' in last) {
    const t = last.lit.replace(/\s+$/, '');
    if (t.length === 0) pieces.pop();
    else pieces[pieces.length - 1] = { lit: t };
  }
  // a value followed by punctuation and a space ("{size}. GPU", "{version}.  CuDNN", "{x}, Status"): the punctuation
  // ends the value only where whitespace or the line's end follows it ("784.00 MiB. GPU", "7.4.1." at the end of a
  // pasted line), and it ends a unit of its own, so that a message cut after the value keeps the value
  const endsValue = new Set<number>();
  for (let i = 1; i < pieces.length; i++) {
    const p = pieces[i]!;
    const m = 'lit' in p && 'ph' in pieces[i - 1]! ? /^([.,;:!?]+)(\s[\s\S]*)$/.exec(p.lit) : null;
    if (!m) continue;
    pieces.splice(i, 1, { lit: m[1]! }, { lit: m[2]! });
    endsValue.add(i);
  }
  const captures: string[] = [];
  let phIndex = 0;
  const rx: string[] = pieces.map((p, i) => {
    // the value ends at this punctuation before whitespace, or at the end of the line (a paste cut after the value)
    if ('lit' in p)
      return endsValue.has(i) ? `(?:${p.lit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?=\\s|$)|$)` : literalRe(p.lit);
    if ('raw' in p) return p.raw;
    phIndex++;
    const name = names(phIndex, p);
    captures.push(name);
    const atEnd = i === pieces.length - 1;
    const body = p.ph === 'str' ? (atEnd ? `\\S.{0,${STR_MAX}}` : `.{0,${STR_MAX}}?`) : PH_RE[p.ph];
    return `(?<${name}>${body})`;
  });
  // the head: pieces up to `minHead` visible literal characters, ending on a literal (a lazy capture at the end
  // of what is required would match nothing)
  let headEnd = 0;
  let seen = 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    headEnd = i + 1;
    if ('lit' in p) {
      seen += p.lit.replace(/\s+/g, '').length;
      if (seen >= minHead) break;
    }
  }
  let required = '';
  for (const p of pieces.slice(0, headEnd)) required += 'lit' in p ? p.lit : ' ';
  // the rest in units that each end on a literal (or the last, greedy capture), nested and optional:
  // (?:A(?:B(?:C)?)?)? so that a message pasted only in part still matches, with the captures it has
  const units: string[] = [];
  let cur = '';
  for (let i = headEnd; i < pieces.length; i++) {
    cur += rx[i];
    if ('lit' in pieces[i]! || i === pieces.length - 1) {
      units.push(cur);
      cur = '';
    }
  }
  let nested = '';
  for (let i = units.length - 1; i >= 0; i--) nested = `(?:${units[i]}${nested})?`;
  const pattern = rx.slice(0, headEnd).join('') + nested;
  return { pattern, captures, required: required.replace(/\s+/g, ' ').trim() };
}

/** literal text → regex: escaped, any run of whitespace matches any run (messages are rewrapped and re-spaced) */
function literalRe(s: string): string {
  const re = s
    .split(/(\s+)/)
    .map((part) => (/^\s+$/.test(part) ? '\\s+' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  // the full stop that ends a sentence is often missing where the message is wrapped in another (", Status: …")
  return /[A-Za-z)]{2}\\\.$/.test(re) ? `${re}?` : re;
}
