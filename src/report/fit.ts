// Output that was laid out line by line (compat's verdicts, fleet's groups, libs' rows) fitted to the terminal:
// a line wider than the width is wrapped with check's wrapper under a hanging indent (its own indent plus two):
// at spaces, and a path or URL longer than a line at its own separators, so no text is lost and none runs past
// the edge. A command line ("$ …") is for copying: it is broken only where the shell ignores it (fitCommandLine).
import type { Words } from '../base/i18n/words.js';
import { nativeAtFirstUse } from '../base/native-regex.js';
import { displayWidth, fitCommandLine, wrap } from './layout.js';

export function fitToWidth(words: Words, text: string, width: number): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (displayWidth(line) <= width) {
      out.push(line);
      continue;
    }
    primeFit();
    if (COMMAND_LINE.test(stripSgr(line))) {
      out.push(...fitCommandLine(line, width));
      continue;
    }
    const indent = /^\s*/.exec(line)![0];
    // a list item's marker (✓ ✗ ! • - 1.) hangs: the continuation starts under its text
    const marker = /^(?:[✓✗!?•·*-]|\[[+x!?-]\]|\d+\.)\s/.exec(stripSgr(line.slice(indent.length)))?.[0] ?? '';
    const hang = marker ? `${indent}${' '.repeat(Math.min(displayWidth(marker), 4))}` : `${indent}  `;
    out.push(...wrap(words, line.slice(indent.length), width, indent, hang.length < width / 2 ? hang : '  '));
  }
  return out.join('\n');
}

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
const COMMAND_LINE = /^\s*(?:\S+\s)?\$ /;
/** compiled to machine code at the first line too wide, not at load (src/base/native-regex.ts) */
const primeFit = nativeAtFirstUse(SGR, COMMAND_LINE);
function stripSgr(s: string): string {
  return s.replace(SGR, '');
}
