// Readings of one line that start at the same place are one message read by several wordings: the longest is kept,
// and only among equally long ones with as much of their own text is the case they match in asked (a case-sensitive
// copy of each pattern, compiled on its first run). A longer reading settles it before any case is asked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/judge/explain/collect.js';
import { registry } from '../../src/judge/explain/signatures/index.js';
import { collectSeeing } from '../helpers/exec-spy.js';

/** the kept reading of each signal, and the runs of case-sensitive copies of signature patterns, reading `text` */
function read(text: string): { kept: Map<string, string>; caseCopies: Map<string, number> } {
  const sources = new Set(registry().signatures.map((s) => s.re.source));
  const caseCopies = new Map<string, number>();
  const col = collectSeeing(text, (re) => {
    if (re.flags === '' && sources.has(re.source)) caseCopies.set(re.source, (caseCopies.get(re.source) ?? 0) + 1);
  });
  const kept = new Map<string, string>();
  for (const [group, st] of col.signals) kept.set(group, Collector.matches(st)[0]!.sig.id);
  return { kept, caseCopies };
}

describe('readings that tie at one start', () => {
  it('wordings that differ only in case: the one printed in this case is kept, each case asked once', () => {
    const upper = read('E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: X_FAILED');
    expect(upper.kept.get('tf-cudnn-handle-lower')).toBe('tf-cudnn-handle');
    // the capitalised pattern (two wordings share it) and the lower-case one: asked once each
    expect([...upper.caseCopies.values()]).toEqual([1, 1]);
    const lower = read('E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] could not create cudnn handle: X_FAILED');
    expect(lower.kept.get('tf-cudnn-handle-lower')).toBe('tf-cudnn-handle-lower');
  });

  it('a longer reading at the same start drops the tied ones before their case is asked', () => {
    // the old wordings of PyTorch's message read its first sentences and tie; the newest reads it all
    const line = fs
      .readFileSync(path.join(__dirname, '../fixtures/h200/logs/conv-keep1200-bs64.txt'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('torch.OutOfMemoryError'))!;
    const { kept, caseCopies } = read(line);
    expect(kept.get('torch.oom.current')).toBe('h200-pt-oom-v6');
    expect(kept.has('torch.oom.legacy')).toBe(false);
    expect(caseCopies.size).toBe(0);
  });
});
