// The literal screen of the collector (src/explain/collect.ts requiredRuns): before a signature's regex is run on a
// line, the line must hold the plain runs of text that every match of the pattern holds. Sound only if no run is
// taken from an optional or alternative part of a pattern: checked on hand-made patterns and on every signature's
// own examples.
import { describe, expect, it } from 'vitest';
import { requiredLiterals, requiredRuns } from '../../src/explain/collect.js';
import { normaliseLine } from '../../src/explain/read/normalise.js';
import { registry } from '../../src/explain/signatures/index.js';

describe('requiredRuns', () => {
  it('takes the plain runs of the top level, escaped punctuation included', () => {
    expect(requiredRuns(String.raw`CUDA\s+error: out of memory`)).toEqual(['CUDA', 'error: out of memory']);
    expect(requiredRuns(String.raw`libcudnn\.so\.8`)).toEqual(['libcudnn.so.8']);
    expect(requiredRuns(String.raw`\bsm_[0-9]+ arch`)).toEqual(['sm_', ' arch']);
  });

  it('leaves out what may be absent or repeated apart: optional characters, groups, classes, alternatives', () => {
    expect(requiredRuns('colou?r')).toEqual(['colo', 'r']);
    expect(requiredRuns('a(?:bc)?def')).toEqual(['a', 'def']);
    expect(requiredRuns('ab+c')).toEqual(['ab', 'c']);
    expect(requiredRuns('x{0,2}yz')).toEqual(['yz']);
    expect(requiredRuns('ab{2}c')).toEqual(['ab', 'c']);
    expect(requiredRuns(String.raw`before(?=after)\d`)).toEqual(['before']);
    expect(requiredRuns('[a|b]c(d|e)f')).toEqual(['c', 'f']);
    expect(requiredRuns('abc|def')).toBeNull();
  });

  it('gives up on what it does not read (an unbalanced bracket, a brace that is not a quantifier)', () => {
    expect(requiredRuns('ab)c')).toBeNull();
    expect(requiredRuns('a{x}')).toBeNull();
  });
});

describe('the literal screen on the real signatures', () => {
  const reg = registry();

  it('lets through every example that the signature matches', () => {
    let checked = 0;
    for (const sig of reg.signatures) {
      const lit = requiredLiterals(sig);
      if (!lit) continue;
      for (const ex of sig.examples) {
        for (const line of ex.split('\n')) {
          const text = normaliseLine(line);
          if (!sig.re.test(text)) continue;
          const seen = lit.folded ? text.toLowerCase() : text;
          for (const run of lit.runs) expect(seen, `${sig.id}: "${run}" (from ${sig.re.source})`).toContain(run);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('screens most signatures', () => {
    const screened = reg.signatures.filter((s) => requiredLiterals(s) !== null).length;
    expect(screened / reg.signatures.length).toBeGreaterThan(0.7);
  });
});
