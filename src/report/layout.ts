// Layout for the terminal: the width to wrap to, display width (wide CJK characters count 2, colour codes 0),
// wrapping with a hanging indent, colours and the symbol set (Unicode, or ASCII where the locale is not
// UTF-8). Reporters decide layout here and nothing else; what a finding says comes from ./finding-lines.ts.
import pc from 'picocolors';
import type { Words } from '../base/i18n/words.js';
import { nativeAtFirstUse, nativeWhenAsked } from '../base/native-regex.js';

export type Colors = ReturnType<typeof pc.createColors>;

/** Colours on or off; never picocolors' own guess (it reads process.argv and the environment itself). */
export function palette(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

/** The width to wrap to: the terminal's, else $COLUMNS, else 80; never under 40, never over 200. */
export function wrapWidth(columns: number | undefined, env: Record<string, string | undefined> = {}): number {
  const fromEnv = Number(env.COLUMNS);
  const w = columns && columns > 0 ? columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
  return Math.max(40, Math.min(200, w));
}

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
/** compiled to machine code at its first use (src/base/native-regex.ts): a short output runs it a few times */
const primeSgr = nativeAtFirstUse(SGR);

/** Columns a string takes on a terminal: colour codes take none, East Asian wide characters two. */
export function displayWidth(s: string): number {
  primeSgr();
  let w = 0;
  for (const ch of s.replace(SGR, '')) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x300 && cp < 0x370) || cp === 0x200b) continue;
    w += isWide(cp) ? 2 : 1;
  }
  return w;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/**
 * `text` wrapped to `width` columns: the first line starts with `first`, the others with `rest` (the hanging
 * indent). Breaks at spaces, and between two wide (Chinese) characters, never before closing punctuation
 * （，。：；）」) nor after opening punctuation（「）: Chinese has no spaces, and a Chinese line quoted in an English
 * report breaks the same way. A word longer than a whole line (a path, a URL, a library path list) is broken at
 * its own separators and cut hard only in a run without one (cutWord); nothing is added or removed, so the pieces
 * joined give the word back. Newlines in `text` start new lines with the hanging indent.
 */
export function wrap(_words: Pick<Words, 'lang'>, text: string, width: number, first = '', rest = first): string[] {
  const out: string[] = [];
  let prefix = first;
  const restRoom = Math.max(1, width - displayWidth(rest));
  for (const para of text.split('\n')) {
    let line = '';
    let lineW = 0;
    const room = () => width - displayWidth(prefix);
    const flush = () => {
      out.push((prefix + line).trimEnd()); // the spaces before a source note that moved to the next line
      prefix = rest;
      line = '';
      lineW = 0;
    };
    const add = (piece: string, w: number) => {
      line += piece;
      lineW += w;
    };
    for (const [word, spaced] of cjkPieces(para)) {
      const w = displayWidth(word);
      const gap = line !== '' && spaced ? ' ' : '';
      if (lineW + gap.length + w <= room()) {
        add(gap + word, gap.length + w);
        continue;
      }
      if (line !== '' && w <= restRoom) {
        flush();
        add(word, w);
        continue;
      }
      // longer than the line it would start: its first piece goes where it fits, on this line when there is
      // room for a fair piece of it and it follows a word (not a table's padding), else on the next
      let left = word;
      if (line !== '' && !line.endsWith(' ') && room() - lineW - gap.length >= Math.min(MIN_PIECE, restRoom / 3))
        add(gap, gap.length);
      else if (line !== '') flush();
      while (displayWidth(left) > room() - lineW) {
        const [head, tail] = cutWord(left, room() - lineW, line === '');
        if (head !== '') add(head, displayWidth(head));
        flush();
        left = tail;
      }
      add(left, displayWidth(left));
    }
    out.push((prefix + line).trimEnd());
    prefix = rest;
  }
  return out;
}

/** a long word starts on a line with text only when at least this many columns are left on it */
const MIN_PIECE = 16;
/** where a long word may break, after the last of a run of them: path, URL and list separators first */
const STRONG_BREAK = new Set([...'/\\:?&=']);
const WEAK_BREAK = new Set([...'._-']);
const isBreak = (u: string) => STRONG_BREAK.has(u) || WEAK_BREAK.has(u);
const SGR_UNIT = /\x1b\[[0-9;]*m|[\s\S]/gu;

/**
 * The head of `word` that fits `room` columns, and the rest: broken after a run of separators (after the last
 * `/`, `\`, `:`, `?`, `&` or `=` that fits, unless a `.`, `_` or `-` fits over twice as far on), never before the
 * word's first letter; cut at the column only where no separator fits and `hard` (the line is otherwise empty).
 * A colour opened in the head is opened again at the start of the rest.
 */
export function cutWord(word: string, room: number, hard: boolean): [string, string] {
  const units = word.match(SGR_UNIT) ?? [];
  let w = 0;
  let strong = 0;
  let weak = 0;
  let letter = false;
  let i = 0;
  for (; i < units.length; i++) {
    const u = units[i]!;
    const uw = u.startsWith('\x1b') ? 0 : displayWidth(u);
    if (w + uw > room) break;
    w += uw;
    const next = units[i + 1];
    if (isBreak(u) && letter && next !== undefined && !isBreak(next)) {
      if (STRONG_BREAK.has(u)) strong = i + 1;
      else weak = i + 1;
    }
    if (!isBreak(u) && !u.startsWith('\x1b')) letter = true;
  }
  if (i >= units.length) return [word, ''];
  let at = strong > 0 && strong >= weak * 0.5 ? strong : Math.max(strong, weak);
  if (at === 0) at = hard ? Math.max(1, i) : 0;
  const colours = units.slice(0, at).filter((u) => u.startsWith('\x1b'));
  return [units.slice(0, at).join(''), colours.join('') + units.slice(at).join('')];
}

/**
 * A command line to copy (`<indent>$ <command>`, maybe `   # <note>` after it) fitted to `width`: as it is when
 * it fits. Else the note goes to a line of its own under the command (still a shell comment when pasted), and a
 * command still too long is broken before an argument, outside quotes, with " \\" ending each broken line: the
 * shell joins the lines back, so the text still pastes and runs. An argument longer than a line stays whole (a
 * break inside it would not read back), and a Windows command (cmd and PowerShell do not continue a line with
 * "\\") is never broken. A line that is not a command comes back as it is.
 */
export function fitCommandLine(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  primeCommandLine();
  const plain = line.replace(SGR, '');
  const m = COMMAND_LINE.exec(plain);
  if (!m) return [line];
  const cut = rawIndex(line, m[0].length);
  const prefix = line.slice(0, cut);
  const words = shellWords(line.slice(cut));
  const noteAt = words.findIndex((x, i) => i > 0 && x.space !== '' && x.text.replace(SGR, '').startsWith('#'));
  const args = noteAt >= 0 ? words.slice(0, noteAt) : words;
  const note = noteAt >= 0 ? words.slice(noteAt) : [];
  const joined = (ws: readonly ShellWord[]) => ws.map((x, i) => (i === 0 ? x.text : x.space + x.text)).join('');
  const out: string[] = [];
  const whole = prefix + joined(args);
  if (displayWidth(whole) <= width || args.length < 2 || windowsCommand().test(plain.slice(m[0].length))) {
    out.push(whole);
  } else {
    // continuation lines two columns under the command, less where an argument that can fit a line needs it
    let indent = displayWidth(prefix) + 2;
    args.forEach((a, i) => {
      const need = displayWidth(a.text) + (i < args.length - 1 ? 2 : 0);
      if (i > 0 && need <= width) indent = Math.min(indent, width - need);
    });
    const cont = ' '.repeat(indent);
    let cur = prefix + args[0]!.text;
    for (let i = 1; i < args.length; i++) {
      const a = args[i]!;
      const remaining = args
        .slice(i)
        .map((x) => x.space + x.text)
        .join('');
      if (displayWidth(cur + remaining) <= width) {
        cur += remaining;
        break;
      }
      if (displayWidth(`${cur}${a.space}${a.text} \\`) <= width) cur += a.space + a.text;
      else {
        out.push(`${cur} \\`);
        cur = cont + a.text;
      }
    }
    out.push(cur);
  }
  if (note.length > 0) {
    const text = joined(note);
    const last = out[out.length - 1]!;
    if (displayWidth(`${last}${note[0]!.space}${text}`) <= width)
      out[out.length - 1] = `${last}${note[0]!.space}${text}`;
    else {
      const under = ' '.repeat(displayWidth(prefix));
      out.push(...wrap({ lang: 'en' }, text, width, under, `${under}# `));
    }
  }
  return out;
}

const COMMAND_LINE = /^\s*(?:\S+\s)?\$ /;
/** cmd's `set`, PowerShell's `$env:`, and the Windows programs the fixes name */
const windowsCommand = nativeWhenAsked(/^(?:set\s|\$env:|where(?:\.exe)?\s|tasklist|taskkill|[A-Za-z]:\\)|\$env:/i);
/** compiled to machine code at its first use, not at load (src/base/native-regex.ts) */
const primeCommandLine = nativeAtFirstUse(COMMAND_LINE);

interface ShellWord {
  /** the blanks before it, as written */
  space: string;
  text: string;
}

/** a command's words as the shell splits them: at blanks outside quotes and not escaped (colour codes kept) */
function shellWords(s: string): ShellWord[] {
  const out: ShellWord[] = [];
  let space = '';
  let text = '';
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const sgr = ch === '\x1b' ? /^\x1b\[[0-9;]*m/.exec(s.slice(i)) : null;
    if (sgr) {
      text += sgr[0];
      i += sgr[0].length - 1;
    } else if (quote === null && (ch === ' ' || ch === '\t')) {
      if (text !== '') {
        out.push({ space, text });
        space = '';
        text = '';
      }
      space += ch;
    } else {
      text += ch;
      if (ch === '\\' && quote !== "'" && i + 1 < s.length) text += s[++i];
      else if (quote === null && (ch === '"' || ch === "'")) quote = ch;
      else if (ch === quote) quote = null;
    }
  }
  if (text !== '') out.push({ space, text });
  return out;
}

/** the index in `s` (colour codes included) after its first `n` visible characters */
function rawIndex(s: string, n: number): number {
  let seen = 0;
  let i = 0;
  while (i < s.length && seen < n) {
    const sgr = s[i] === '\x1b' ? /^\x1b\[[0-9;]*m/.exec(s.slice(i)) : null;
    if (sgr) i += sgr[0].length;
    else {
      i++;
      seen++;
    }
  }
  return i;
}

const CLOSING = new Set([...'，。：；、！？）」』》】”’,.:;!?)]}']);
const OPENING = new Set([...'（「『《【“‘']);

/** A paragraph as [piece, preceded by a space] pairs, where a line may break before any piece. */
function cjkPieces(para: string): [string, boolean][] {
  const out: [string, boolean][] = [];
  for (const word of para.split(' ')) {
    let cur = '';
    let first = true;
    const chars = [...word];
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const wide = isWide(ch.codePointAt(0)!);
      const prev = chars[i - 1];
      // a break is allowed before a wide character and after one, except around punctuation that must stay
      const breakHere =
        cur !== '' &&
        (wide || (prev !== undefined && isWide(prev.codePointAt(0)!))) &&
        !CLOSING.has(ch) &&
        !(prev !== undefined && OPENING.has(prev));
      if (breakHere) {
        out.push([cur, first]);
        first = false;
        cur = '';
      }
      cur += ch;
    }
    out.push([cur, first]);
  }
  return out;
}

/** The status symbols every reporter shares, and their ASCII stand-ins. */
export interface Symbols {
  ok: string;
  warn: string;
  fail: string;
  unknown: string;
  skip: string;
}
export const SYMBOLS: Symbols = { ok: '✓', warn: '!', fail: '✗', unknown: '?', skip: '-' };

/**
 * Characters the tool itself prints that a console without UTF-8 (C/POSIX locale, a Windows code page such as
 * GBK) cannot show, with their ASCII stand-ins. Applied to the whole output when the locale is not UTF-8;
 * anything else (a user's file name in Chinese) is left as it is.
 */
const ASCII_FOLD: Record<string, string> = {
  '✓': '+',
  '✗': 'x',
  '⚠': '!',
  '•': '*',
  '│': '|',
  '→': '->',
  '←': '<-',
  '≤': '<=',
  '≥': '>=',
  '…': '...',
  '×': 'x',
  '·': '-',
  '–': '-',
  '—': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '▁': '_',
  '▂': '_',
  '▃': '.',
  '▄': '-',
  '▅': '=',
  '▆': '=',
  '▇': '#',
  '█': '#',
  '\u00a0': ' ',
};
const FOLD_RE = new RegExp(`[${Object.keys(ASCII_FOLD).join('')}]`, 'g');

export function asciiFold(s: string): string {
  return s.replace(FOLD_RE, (c) => ASCII_FOLD[c] ?? c);
}

const utf8 = nativeWhenAsked(/utf-?8/i);

/**
 * Whether the terminal's locale can show UTF-8: the first of LC_ALL, LC_CTYPE, LANG that is set decides
 * (POSIX order); none set means UTF-8 (what every current terminal defaults to), except a Windows console.
 */
export function localeIsUtf8(env: Record<string, string | undefined>, platform: string = process.platform): boolean {
  const v = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((x) => x !== undefined && x !== '');
  if (v === undefined) return platform !== 'win32' || env.WT_SESSION !== undefined;
  return utf8().test(v);
}

/**
 * Colour on a stream: --color=always|never wins, then --no-color and NO_COLOR (non-empty), then FORCE_COLOR
 * (non-empty and not "0"), then a terminal that is not TERM=dumb.
 */
export function colorWanted(
  opt: { color?: string | undefined; noColor?: boolean },
  env: Record<string, string | undefined>,
  isTTY: boolean,
): boolean {
  if (opt.color === 'always') return true;
  if (opt.color === 'never') return false;
  if (opt.noColor) return false;
  if ((env.NO_COLOR ?? '') !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return isTTY && env.TERM !== 'dumb';
}
