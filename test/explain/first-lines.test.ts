// What explain compiles for the first lines of a short log: a signature's pattern is compiled (V8 does it on its
// first run) only when the line holds every clause of its required literals, and a signature whose pattern is the
// same text as another's is not compiled again to compare the case they match in. The H200's 27-line log is the case
// measured (bench/explain-speed.mjs): it must try no signature it cannot match through a branch in another script.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectText, explainText } from '../../src/judge/explain/engine.js';
import { registry } from '../../src/judge/explain/signatures/index.js';
import { mayHoldAll, requiredClauses } from '../../src/judge/explain/signatures/literals.js';

const repo = path.resolve(__dirname, '../..');
const SHORT_LOG = fs.readFileSync(path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt'), 'utf8');
const originals = { exec: RegExp.prototype.exec, test: RegExp.prototype.test };
afterEach(() => {
  RegExp.prototype.exec = originals.exec;
  RegExp.prototype.test = originals.test;
});

/** the runs of each signature (by id) and of case-sensitive copies of signature patterns, while reading `text` */
function runs(text: string): { bySig: Map<string, number>; caseCopies: Map<string, number> } {
  const reg = registry();
  const sigOf = new Map(reg.signatures.map((s) => [s.re, s.id]));
  const sources = new Set(reg.signatures.map((s) => s.re.source));
  const bySig = new Map<string, number>();
  const caseCopies = new Map<string, number>();
  const count = (re: RegExp) => {
    const id = sigOf.get(re);
    if (id !== undefined) bySig.set(id, (bySig.get(id) ?? 0) + 1);
    else if (re.flags === '' && sources.has(re.source)) caseCopies.set(re.source, (caseCopies.get(re.source) ?? 0) + 1);
  };
  // test() runs the exec it finds on the prototype: counting there counts both, once
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    count(this);
    return originals.exec.call(this, s);
  };
  try {
    collectText(text);
  } finally {
    RegExp.prototype.exec = originals.exec;
    RegExp.prototype.test = originals.test;
  }
  return { bySig, caseCopies };
}

describe('the first lines of a short log', () => {
  it('CJK words of a pattern are required literals: a row with a Chinese branch needs its own words', () => {
    const row = registry().signatures.find((s) => s.id === 'note.gpu_works_elsewhere')!;
    const clauses = requiredClauses(row.re.source, row.re.flags)!;
    // every branch gives its first clause: the English ones "other/another", the Chinese ones their words
    expect(clauses[0]).toEqual(expect.arrayContaining(['other', 'another', '其他', '其它']));
    expect(clauses[0]).not.toContain('cuda');
    expect(row.literals).toEqual(clauses);
    // a Chinese line that says so still passes, and matches
    const zh = '其他程序用 GPU 都可以正常运行';
    expect(mayHoldAll(clauses, zh.toLowerCase())).toBe(true);
    expect(row.re.test(zh)).toBe(true);
    // the out-of-memory line of the H200 log holds "cuda" and "gpu" but none of the row's first words
    const oom = SHORT_LOG.split('\n').find((l) => l.startsWith('torch.OutOfMemoryError'))!;
    expect(mayHoldAll(clauses, oom.toLowerCase())).toBe(false);
  });

  it('kana and CJK punctuation are literals too; other non-ASCII letters and full-width Latin are not', () => {
    expect(requiredClauses('メモリ不足', 'i')).toEqual([['メモリ不足']]);
    expect(requiredClauses('显存不足。', 'i')).toEqual([['显存不足。']]);
    // full-width letters have a case (Ａ/ａ): they end a run
    expect(requiredClauses('ＧＰＵabc', 'i')).toEqual([['abc']]);
    expect(requiredClauses('straße', 'i')).toEqual([['stra']]);
    // a single CJK character is three bytes: enough for a clause, as a three-letter word is
    expect(requiredClauses('(?:\\d+)卡', 'i')).toEqual([['卡']]);
  });

  it('a part a sequence holds twice takes one clause', () => {
    const c = requiredClauses(
      'CUDA\\s+out\\s+of\\s+memory\\.?\\s+Tried\\s+to\\s+allocate\\s+more\\s+than\\s+1EB\\s+memory',
      'id',
    );
    expect(c).toEqual([['allocate'], ['memory'], ['tried'], ['cuda']]);
  });

  it("the H200 log's lines try no signature through a branch in another script, and run no case copy", () => {
    const { bySig, caseCopies } = runs(SHORT_LOG);
    expect(bySig.get('note.gpu_works_elsewhere')).toBeUndefined();
    // the out-of-memory wordings are still tried (and read: the diagnosis below)
    expect(bySig.get('h200-pt-oom-v6')).toBe(1);
    // several wordings of the out-of-memory message tie on its one line, but the newest wording's reading is longer
    // than all of them: they are dropped before their case is asked (test/explain/tied-readings.test.ts: a tie that
    // is weighed asks each case once)
    expect(caseCopies.size).toBe(0);
    expect(explainText(SHORT_LOG).causes[0]!.id).toBe('memory_held_by_other_process');
  });
});
