// The required literals of a signature's pattern (src/judge/explain/signatures/literals.ts): a line without any of
// them is never tried against the pattern, so they must be in every text the pattern matches. Checked on every
// signature, over its own examples and over every line of the real logs and reports in test/fixtures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayHold, mayHoldAll, requiredClauses, requiredLiterals } from '../../src/judge/explain/signatures/literals.js';
import { registry } from '../../src/judge/explain/signatures/index.js';

const repo = path.resolve(__dirname, '../..');

function logLines(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(txt|log)$/.test(e.name) && fs.statSync(p).size < 2_000_000)
        out.push(...fs.readFileSync(p, 'utf8').split('\n'));
      else if (e.name.endsWith('.json') && d.includes('corpus')) {
        const j = JSON.parse(fs.readFileSync(p, 'utf8')) as { log?: unknown };
        if (typeof j.log === 'string') out.push(...j.log.split('\n'));
      }
    }
  };
  walk(path.join(repo, 'test/fixtures'));
  return out;
}

describe('required literals', () => {
  it('reads alternatives, groups, quantifiers and escapes conservatively', () => {
    expect(
      requiredLiterals('(?:out\\s+of\\s+memory|\\b(?:cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY)\\b)', 'id'),
    ).toEqual(['memory', 'cudaerrormemoryallocation', 'cuda_error_out_of_memory']);
    expect(requiredLiterals('CUDA error: (?<msg>.*)', 'i')).toEqual(['cuda error: ']);
    // an optional group or character gives nothing; a repeated one is there at least once
    expect(requiredLiterals('foo(?:barbaz)?qux', 'i')).toEqual(['foo']);
    expect(requiredLiterals('ab?cdef', 'i')).toEqual(['cdef']);
    expect(requiredLiterals('x(?:abcd)+y', 'i')).toEqual(['abcd']);
    // escapes: \x41 is one character, not "41"; an escaped dot is a dot
    expect(requiredLiterals('\\x41bcd', 'i')).toEqual(['bcd']);
    expect(requiredLiterals('libcudnn\\.so', 'i')).toEqual(['libcudnn.so']);
    // a branch without a literal: no guard
    expect(requiredLiterals('abcd|\\d+', 'i')).toBeNull();
    expect(requiredLiterals('ab|cd', 'i')).toBeNull();
    // lookarounds add nothing; classes end a run
    expect(requiredLiterals('(?=abcdef)x[yz]uvw', 'i')).toEqual(['uvw']);
    // u/v fold non-ASCII letters onto ASCII ones (ſ matches s), g/y keep state: no guard
    expect(requiredLiterals('cuda', 'iu')).toBeNull();
    expect(requiredLiterals('cuda', 'g')).toBeNull();
    // non-ASCII characters end a run (their case folding is not the string's), except CJK ones, which have no case
    expect(requiredLiterals('caf\u00e9 au lait', 'i')).toEqual([' au lait']);
    expect(requiredLiterals('显存不足', 'i')).toEqual(['显存不足']);
    expect(mayHold(['memory'], 'cuda out of memory')).toBe(true);
    expect(mayHold(['memory'], 'cuda error')).toBe(false);
  });

  it('gives every mandatory part of a one-sequence pattern as a clause, the best first', () => {
    // "out of memory": both words are in every match; a line with "memory" alone is not tried
    expect(requiredClauses('out\\s+of\\s+memory', 'i')).toEqual([['memory'], ['out']]);
    expect(mayHoldAll([['memory'], ['out']], '(pid=1003) warning: loader slow (process memory 3.2 gib)')).toBe(false);
    expect(mayHoldAll([['memory'], ['out']], 'cuda out of memory')).toBe(true);
    // a mandatory group is a clause of its branches' best; an optional one gives none
    expect(requiredClauses('failed to (?:allocate|reserve) \\d+ bytes(?: on device)?', 'i')).toEqual([
      ['failed to '],
      ['allocate', 'reserve'],
      [' bytes'],
    ]);
    // at most four, and the first is what requiredLiterals gives
    const many = 'alpha\\d+bravo\\d+charlie\\d+delta\\d+echoes';
    expect(requiredClauses(many, 'i')).toHaveLength(4);
    expect(requiredClauses(many, 'i')![0]).toEqual(requiredLiterals(many, 'i'));
    // parts shorter than three characters are no clause
    expect(requiredClauses('ab\\s+cdef', 'i')).toEqual([['cdef']]);
    // a top-level alternation: its branches' clauses joined rank by rank (a branch short of clauses gives its last)
    expect(requiredClauses('out of memory|oom killer', 'i')).toEqual([['out of memory', 'oom killer']]);
    expect(requiredClauses('out\\s+of\\s+memory|oom\\s+killer', 'i')).toEqual([
      ['memory', 'killer'],
      ['out', 'oom'],
    ]);
    expect(requiredClauses('out\\s+of\\s+memory|\\bOOM\\b', 'i')).toEqual([
      ['memory', 'oom'],
      ['out', 'oom'],
    ]);
    expect(mayHoldAll(requiredClauses('out\\s+of\\s+memory|\\bOOM\\b', 'i')!, 'process memory 3.2 gib')).toBe(false);
    // a later clause takes no branch's part that the first clause holds already ("memory"): the branch's best instead
    const family = 'out\\s+of\\s+memory|insufficient\\s+memory|memory\\s+allocation\\s+failed';
    expect(requiredClauses(family, 'i')).toEqual([
      ['memory', 'insufficient', 'allocation'],
      ['out', 'insufficient', 'failed'],
    ]);
    expect(mayHoldAll(requiredClauses(family, 'i')!, 'worker slow (process memory 3.2 gib)')).toBe(false);
    expect(requiredClauses('abcd|\\d+', 'i')).toBeNull();
  });

  it('every text a signature matches holds one of its literals (its examples, and every line of the fixtures)', () => {
    const sigs = registry().signatures;
    const guarded = sigs.filter((s) => s.literals);
    // nearly every signature has a guard: the test below is about them
    expect(guarded.length).toBeGreaterThan(sigs.length * 0.9);
    const lines = logLines();
    expect(lines.length).toBeGreaterThan(5000);
    let matched = 0;
    for (const s of guarded) {
      for (const text of [...s.examples, ...lines]) {
        if (!s.re.test(text)) continue;
        matched++;
        if (!mayHoldAll(s.literals!, text.toLowerCase()))
          throw new Error(
            `${s.id}: matches "${text.slice(0, 200)}" without one of each of ${JSON.stringify(s.literals)}`,
          );
      }
    }
    expect(matched).toBeGreaterThan(500);
  });

  it("every line a framework cue matches holds one of each of its clauses (the collector's pre-test)", () => {
    const cues = registry().cues;
    expect(cues.filter((c) => c.literals).length).toBeGreaterThan(cues.length * 0.8);
    const lines = logLines();
    let matched = 0;
    for (const c of cues) {
      if (!c.literals) continue;
      for (const text of lines) {
        if (!c.re.test(text)) continue;
        matched++;
        if (!mayHoldAll(c.literals, text.toLowerCase()))
          throw new Error(`${c.framework}: matches "${text.slice(0, 200)}" without ${JSON.stringify(c.literals)}`);
      }
    }
    expect(matched).toBeGreaterThan(200);
  });
});
