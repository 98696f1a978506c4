// Layout for the terminal: the width to wrap to, display width (wide CJK characters count 2, colour codes 0),
// wrapping with a hanging indent, colours and the symbol set (Unicode, or ASCII where the locale is not
// UTF-8). Reporters decide layout here and nothing else; what a finding says comes from ./finding-lines.ts.
import pc from 'picocolors';
import type { Words } from '../base/i18n/words.js';

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

/** Columns a string takes on a terminal: colour codes take none, East Asian wide characters two. */
export function displayWidth(s: string): number {
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
 * indent). Breaks at spaces only: a path or a command is never cut in two (a word longer than the line
 * stands alone on its line). Newlines in `text` start new lines with the hanging indent. In Chinese output a
 * line may also break between two Chinese characters (Chinese has no spaces), never before closing
 * punctuation（，。：；）」) nor after opening punctuation（「）; Latin words, paths and commands stay whole.
 */
export function wrap(words: Pick<Words, 'lang'>, text: string, width: number, first = '', rest = first): string[] {
  const out: string[] = [];
  let prefix = first;
  const cjk = words.lang === 'zh';
  for (const para of text.split('\n')) {
    let line = '';
    let lineW = 0;
    const room = () => width - displayWidth(prefix);
    for (const [word, spaced] of cjk ? cjkPieces(para) : para.split(' ').map((w) => [w, true] as const)) {
      const w = displayWidth(word);
      const sep = spaced ? 1 : 0;
      if (line !== '' && lineW + sep + w > room()) {
        out.push((prefix + line).trimEnd()); // the spaces before a source note that moved to the next line
        prefix = rest;
        line = word;
        lineW = w;
      } else {
        lineW = line === '' ? w : lineW + sep + w;
        line = line === '' ? word : `${line}${spaced ? ' ' : ''}${word}`;
      }
    }
    out.push((prefix + line).trimEnd());
    prefix = rest;
  }
  return out;
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

/**
 * Whether the terminal's locale can show UTF-8: the first of LC_ALL, LC_CTYPE, LANG that is set decides
 * (POSIX order); none set means UTF-8 (what every current terminal defaults to), except a Windows console.
 */
export function localeIsUtf8(env: Record<string, string | undefined>, platform: string = process.platform): boolean {
  const v = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((x) => x !== undefined && x !== '');
  if (v === undefined) return platform !== 'win32' || env.WT_SESSION !== undefined;
  return /utf-?8/i.test(v);
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
