// The environment reader's anywhere-rules (src/judge/explain/env/reader.ts ANYWHERE_GUARDS), the fixes' patterns
// (fixes/fixes.ts FIX_GUARDS) and diagnose's (diagnose.ts DIAGNOSE_GUARDS) test a text for a few lower-case strings
// before running their pattern, so that a pattern is compiled only for a text that may match it.
// A guard may only skip a line the pattern could not match: every guard is implied by the pattern's own required
// literals (signatures/literals.ts), and no fixture line the pattern matches fails its guard.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANYWHERE_GUARDS } from '../../src/judge/explain/env/reader.js';
import { FIX_GUARDS } from '../../src/judge/explain/fixes/fixes.js';
import { DIAGNOSE_GUARDS } from '../../src/judge/explain/diagnose.js';
import { requiredClauses } from '../../src/judge/explain/signatures/literals.js';

const FIXTURES = path.resolve(__dirname, '../fixtures');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** the lines of the fixtures' logs and reports, and of the corpus' logs and environment blocks */
function fixtureLines(): string[] {
  const out: string[] = [];
  for (const f of filesUnder(FIXTURES)) {
    if (/\.(?:log|txt|md|out)$/.test(f) && fs.statSync(f).size < 2 << 20) {
      out.push(...fs.readFileSync(f, 'utf8').split(/\r?\n|\r/));
    } else if (f.includes(`${path.sep}corpus${path.sep}`) && f.endsWith('.json')) {
      const c = JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>;
      for (const v of Object.values(c)) if (typeof v === 'string') out.push(...v.split(/\r?\n|\r/));
    }
  }
  return out;
}

/** a pattern's top-level alternatives (a match is a match of one of them) */
function branches(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(source.slice(from, i));
      from = i + 1;
    }
  }
  return [...out, source.slice(from)];
}

/**
 * A guard holds when the pattern requires it: in each top-level alternative, one clause of its required literals
 * whose every string holds a guard word.
 */
function impliedByLiterals(re: RegExp, words: readonly string[]): boolean {
  return branches(re.source).every((b) => {
    const clauses = requiredClauses(b, re.flags) ?? [];
    return clauses.some((c) => c.every((l) => words.some((w) => l.includes(w))));
  });
}

const GUARDS = [...ANYWHERE_GUARDS, ...FIX_GUARDS, ...DIAGNOSE_GUARDS];

describe("the environment reader's and the fixes' guards", () => {
  it('are each implied by their pattern: every match holds one of the words', () => {
    expect(ANYWHERE_GUARDS.length).toBeGreaterThanOrEqual(20);
    expect(FIX_GUARDS.length).toBeGreaterThanOrEqual(4);
    expect(DIAGNOSE_GUARDS.length).toBeGreaterThanOrEqual(6);
    for (const [re, words] of GUARDS) {
      expect(words.length, re.source).toBeGreaterThan(0);
      for (const w of words) expect(w, re.source).toBe(w.toLowerCase());
      expect(impliedByLiterals(re, words), re.source).toBe(true);
    }
  });

  it('can tell a guard the pattern does not imply', () => {
    const [re] = ANYWHERE_GUARDS.find(([r]) => r.source.includes('Total memory'))!;
    expect(impliedByLiterals(re, ['total memory', 'totalmemory'])).toBe(false);
    expect(impliedByLiterals(re, ['total memory:', 'totalmemory:', 'devicememorysize:'])).toBe(false);
    expect(impliedByLiterals(re, ['memory'])).toBe(true);
    expect(branches('a(?:b|c)|[|]|\\|d')).toEqual(['a(?:b|c)', '[|]', '\\|d']);
  });

  it('pass every fixture line their pattern matches', () => {
    const lines = fixtureLines();
    expect(lines.length).toBeGreaterThan(10_000);
    let matched = 0;
    for (const [re, words] of GUARDS) {
      for (const line of lines) {
        if (!re.test(line)) continue;
        matched++;
        const lower = line.toLowerCase();
        expect(
          words.some((w) => lower.includes(w)),
          `${re.source} on ${line}`,
        ).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(100);
  });
});
