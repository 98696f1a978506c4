// Escaping of everything that comes from outside the tool (process command lines and names any local user
// can set, host names and environment values from snapshots of other machines, file names, log text), for
// each kind of output, in one place:
//  - terminal: control characters and escape sequences are shown as text (`\x1b]52;…` stays visible and is
//    never interpreted: no clipboard write, no link, no cleared screen), and so are the bidirectional
//    overrides that would make a line read differently from what it is;
//  - Markdown: inline text cannot start HTML, links, images, emphasis or mentions; code spans and fences are
//    longer than any run of backticks in what they hold, so nothing breaks out of them;
//  - HTML: the five special characters as entities (./html/escape.ts uses `visible` first).

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_AND_NEWLINES = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function code(c: string): string {
  const n = c.codePointAt(0)!;
  if (n === 0x0a) return '\\n';
  if (n === 0x0d) return '\\r';
  return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/** Control characters shown as `\xHH` (tabs and newlines kept). */
export function visible(s: string): string {
  return s.replace(CONTROLS, code);
}

/** One line of text: also newlines and carriage returns shown as `\n`, `\r`. */
export function visibleLine(s: string): string {
  return s.replace(CONTROLS_AND_NEWLINES, code);
}

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;:]*m/g;

/**
 * A line of a job's log for display: its colour codes (SGR: what coloured tracebacks and progress bars print)
 * removed, since they only colour; every other control shown visibly. Carriage returns of progress bars:
 * what a terminal would show last.
 */
export function logLine(s: string): string {
  const cr = s.lastIndexOf('\r', s.length - 2);
  const shown = cr >= 0 ? s.slice(cr + 1) : s;
  return visibleLine(shown.replace(SGR, '').replace(/\r$/, ''));
}

/** Markdown inline text: no HTML, no emphasis, links, images or headings started by accident; one line. */
export function mdText(s: string): string {
  return (
    visibleLine(s)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/([\\`*_{}[\]#|~])/g, '\\$1')
      // "@name" would notify a GitHub user: a zero-width joiner keeps it text.
      .replace(/@(?=\w)/g, '@&#8203;')
  );
}

/** Markdown table cell: inline text that never ends the row. */
export function mdCell(s: string): string {
  return mdText(s).trim() || ' ';
}

/**
 * A Markdown code span that holds `s` exactly: delimited by one more backtick than the longest run inside,
 * padded with a space when `s` starts or ends with a backtick. In a table cell pipes are escaped as well
 * (GitHub splits cells on them even inside code spans).
 */
export function mdCode(s: string, inTable = false): string {
  let v = visibleLine(s);
  if (inTable) v = v.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(v.match(/`+/g) ?? []).map((r) => r.length));
  const tick = '`'.repeat(longest + 1);
  const pad = v.startsWith('`') || v.endsWith('`') || v === '' ? ' ' : '';
  return `${tick}${pad}${v}${pad}${tick}`;
}

/** A fenced code block whose fence is longer than any run of backticks in the content. */
export function mdFence(content: string, lang = ''): string {
  const body = content.split('\n').map(visibleLine).join('\n');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${body}\n${f}\n`;
}

/** Every string in a JSON-like value made visible (for terminal renderers that take a whole result). */
export function visibleDeep<T>(v: T): T {
  if (typeof v === 'string') return visibleLine(v) as T;
  if (Array.isArray(v)) return v.map((x) => visibleDeep(x)) as T;
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = visibleDeep(x);
    return out as T;
  }
  return v;
}
