// The project's memory lives in docs/evidence, docs/notes and the tables' `source` fields, not in the code: a
// comment or string in src/ keeps the rule and one line of why, never the lab machine's name, an issue number or
// a path of a developer's machine, which mean nothing to a reader of the code and go stale. Data files (.json)
// carry provenance by design and are not scanned; the few code lines that are provenance are listed with why,
// and the list is kept exact both ways.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '..', 'src');
const SCANNED = /\.(ts|mts|mjs|js|py|md)$/;

const RULES: ReadonlyArray<readonly [string, RegExp]> = [
  ['machine name', /\bH200\b/],
  ['issue number', /\bissues? #?\d+|\(#\d+\)/i],
  ['developer path', /\/work\/(shared|main|wt)\b/],
];

/** file (relative to src/), a piece of the line, why it may say so */
const ALLOWED: ReadonlyArray<readonly [string, string, string]> = [
  [
    'judge/checks/env/allocator-settings.ts',
    'export const TORCH_SEEN',
    "a consequence's `source` field: where it was seen",
  ],
  [
    'judge/checks/env/allocator-settings.ts',
    'export const JAX_SEEN',
    "a consequence's `source` field: where it was seen",
  ],
  [
    'judge/checks/libraries/unloadable.ts',
    "'H200 (driver 580, PyTorch 2.11)",
    "a consequence's `source` field: where it was seen",
  ],
];

interface Hit {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/** Every line of `text` that breaks a rule. */
function scan(file: string, text: string): Hit[] {
  const hits: Hit[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    // the line before too: a formatter puts a long string on the line after its name
    const context = `${(lines[i - 1] ?? '').trim()} ${line.trim()}`;
    for (const [rule, re] of RULES)
      if (re.test(line)) hits.push({ file, line: i + 1, rule, text: context.slice(0, 240) });
  });
  return hits;
}

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...files(path.join(dir, e.name), r));
    else if (SCANNED.test(e.name)) out.push(r);
  }
  return out;
}

const allowedFor = (h: Hit) => ALLOWED.find(([f, piece]) => f === h.file && h.text.includes(piece.slice(0, 100)));

describe("src/ keeps the rule, not the project's memory", () => {
  const hits = files(SRC).flatMap((f) => scan(f, readFileSync(path.join(SRC, f), 'utf8')));

  it('names no lab machine, issue number or developer path outside the listed provenance lines', () => {
    const stray = hits.filter((h) => !allowedFor(h)).map((h) => `${h.file}:${h.line} (${h.rule}): ${h.text}`);
    expect(stray).toEqual([]);
  });

  it('lists only exceptions that are still there', () => {
    const unused = ALLOWED.filter(
      ([f, piece]) => !hits.some((h) => h.file === f && h.text.includes(piece.slice(0, 100))),
    );
    expect(unused).toEqual([]);
  });

  it('finds each kind in a comment (the scanner itself)', () => {
    const found = scan(
      'x.ts',
      ['// ran on the H200', '// see issue 17', 'const p = "/work/shared/compat";', '// fine'].join('\n'),
    );
    expect(found.map((h) => [h.line, h.rule])).toEqual([
      [1, 'machine name'],
      [2, 'issue number'],
      [3, 'developer path'],
    ]);
  });
});
