// The environment reader's anywhere-rules (src/judge/explain/env/reader.ts), the fixes' patterns (fixes/fixes.ts) and
// diagnose's (diagnose.ts) test a text for a few lower-case strings before running their pattern (guarded.ts), so
// that a pattern is compiled only for a text that may match it.
// A guard may only skip a line the pattern could not match: every guard is implied by the pattern's own required
// literals (signatures/literals.ts), and no fixture line the pattern matches fails its guard.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
// the modules whose guarded patterns are checked: loading them makes their patterns
import '../../src/judge/explain/env/reader.js';
import '../../src/judge/explain/fixes/fixes.js';
import '../../src/judge/explain/diagnose.js';
import { allGuarded } from '../../src/judge/explain/guarded.js';
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

const GUARDS = allGuarded().map((g) => [g.re, g.words] as const);
const from = (needle: string) => GUARDS.filter(([re]) => re.source.includes(needle));

describe("the environment reader's and the fixes' guards", () => {
  it('are each implied by their pattern: every match holds one of the words', () => {
    // the reader's 20, the fixes' 4 and diagnose's 6
    expect(GUARDS.length).toBeGreaterThanOrEqual(30);
    expect(from('_CudaDeviceProperties')).toHaveLength(1);
    expect(from('LD_PRELOAD')).toHaveLength(1);
    expect(from('nccl')).toHaveLength(1);
    for (const [re, words] of GUARDS) {
      expect(words.length, re.source).toBeGreaterThan(0);
      for (const w of words) expect(w, re.source).toBe(w.toLowerCase());
      expect(impliedByLiterals(re, words), re.source).toBe(true);
    }
  });

  it('can tell a guard the pattern does not imply', () => {
    const [re] = from('Total memory')[0]!;
    expect(impliedByLiterals(re, ['total memory', 'totalmemory'])).toBe(false);
    expect(impliedByLiterals(re, ['total memory:', 'totalmemory:', 'devicememorysize:'])).toBe(false);
    expect(impliedByLiterals(re, ['memory'])).toBe(true);
    expect(branches('a(?:b|c)|[|]|\\|d')).toEqual(['a(?:b|c)', '[|]', '\\|d']);
  });

  it('skip a text without their words, and run the pattern on one with them', () => {
    const g = allGuarded().find((x) => x.re.source.includes('_CudaDeviceProperties'))!;
    const line = "_CudaDeviceProperties(name='NVIDIA H200', major=9, minor=0, total_memory=143167MB";
    expect(g.exec(line)?.[1]).toBe('NVIDIA H200');
    // a lower-case copy that lacks the word: the pattern is not run
    expect(g.exec(line, 'elsewhere')).toBeNull();
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
