// How many signatures a line that passes the prefilter is tried against: only those whose required literals it holds
// (every clause of them, src/judge/explain/signatures/literals.ts). A training log's warnings that mention memory
// ("process memory 3.2 GiB") reach the memory signatures by their anchor; none of them may be run on such a line.
import { afterEach, describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { registry } from '../../src/judge/explain/signatures/index.js';

const originals = { exec: RegExp.prototype.exec, test: RegExp.prototype.test };
afterEach(() => {
  RegExp.prototype.exec = originals.exec;
  RegExp.prototype.test = originals.test;
});

/** the signature patterns run while explaining `text`, with how many times each */
function signatureRuns(text: string): Map<string, number> {
  const reg = registry();
  const sources = new Set(reg.signatures.map((s) => s.re.source));
  const runs = new Map<string, number>();
  const count = (re: RegExp) => {
    if (sources.has(re.source)) runs.set(re.source, (runs.get(re.source) ?? 0) + 1);
  };
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    count(this);
    return originals.exec.call(this, s);
  };
  RegExp.prototype.test = function (this: RegExp, s: string) {
    count(this);
    return originals.test.call(this, s);
  };
  try {
    explainText(text);
  } finally {
    RegExp.prototype.exec = originals.exec;
    RegExp.prototype.test = originals.test;
  }
  return runs;
}

describe('signatures tried on the lines the prefilter passes', () => {
  it("a training log's memory warnings are tried against no signature", () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push(`[rank${i % 4}]: Epoch 0 step ${i} loss=0.25 lr=3.0e-4`);
      if (i % 10 === 7)
        lines.push(`(pid=${1000 + i}) WARNING: data loader worker 7 slow: batch took 9.1s (process memory 3.2 GiB)`);
    }
    const runs = signatureRuns(`${lines.join('\n')}\n`);
    expect([...runs.values()].reduce((a, v) => a + v, 0)).toBe(0);
  });

  it('an out-of-memory line is still tried against the memory signatures, and read', () => {
    const line = 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.90 GiB total capacity)';
    const alone = signatureRuns(`${line}\n`);
    expect(alone.size).toBeGreaterThan(3);
    // the memory warning before it adds no run of any signature
    expect(signatureRuns(`(pid=7) WARNING: process memory 3.2 GiB\n${line}\n`)).toEqual(alone);
    expect(explainText(`${line}\n`).causes[0]!.id).toBe('gpu_memory_exhausted');
  });
});
