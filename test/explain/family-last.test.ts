// A family (only the vocabulary of a failure) counts only on a line no known message matched: its pattern is tried
// after the others, and only when none of them matched, so it is never compiled on a line a known message explains.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../src/judge/explain/signatures/index.js';
import { collectSeeing } from '../helpers/exec-spy.js';

/** the signatures run (by id) and the groups recorded, reading `text` */
function read(text: string): { ran: Set<string>; groups: string[] } {
  const sigOf = new Map(registry().signatures.map((s) => [s.re, s.id]));
  const ran = new Set<string>();
  const col = collectSeeing(text, (re) => {
    const id = sigOf.get(re);
    if (id !== undefined) ran.add(id);
  });
  return { ran, groups: [...col.signals.keys()] };
}

describe('the families, tried last', () => {
  it('a line a known message matched: no family pattern runs, though its literals are on the line', () => {
    const oom = fs
      .readFileSync(path.join(__dirname, '../fixtures/h200/logs/conv-keep1200-bs64.txt'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('torch.OutOfMemoryError'))!;
    const { ran, groups } = read(oom);
    expect(ran.has('h200-pt-oom-v6')).toBe(true);
    // family.memory's vocabulary ("out of memory") and family.device's ("GPU") are on the line
    expect(ran.has('family.memory')).toBe(false);
    expect(ran.has('family.device')).toBe(false);
    expect(groups.some((g) => g.startsWith('family.'))).toBe(false);
  });

  it('a line no known message matched: the families are tried and the vocabulary counts', () => {
    const { ran, groups } = read('worker 3: cuda stream sync failure while copying the batch (retrying)');
    expect(ran.has('family.cuda')).toBe(true);
    expect(groups).toEqual(['family.cuda']);
  });

  it('two families of one line: both tried, the library one is kept over the CUDA one', () => {
    const { groups } = read('Could not load library cudnn_cnn_infer64_8.dll. Error code 126');
    expect(groups).toContain('family.library');
    expect(groups).not.toContain('family.cudnn');
  });
});
