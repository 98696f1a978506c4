// Failures reproduced on purpose on the H200 (test/fixtures/logs-extra/INDEX.md): the cause that was set up
// must rank first (or, where two causes are both true, within the first two).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const DIR = path.resolve(__dirname, '../fixtures/logs-extra');
const top = (name: string, n: number) =>
  explainText(fs.readFileSync(path.join(DIR, name), 'utf8'), { sourceName: name })
    .causes.slice(0, n)
    .map((c) => c.id);

describe('real failures made on the H200', () => {
  it.each([
    ['h200-held-keep600.log', 'memory_held_by_other_process'],
    ['h200-held-keep3000.log', 'memory_held_by_other_process'],
    ['h200-compat-libcuda.log', 'driver_too_old'],
    ['h200-sm100-on-sm90.log', 'gpu_arch_unsupported'],
    ['h200-cvd5.log', 'no_device_visible'],
  ])('%s → %s first', (log, cause) => {
    expect(top(log, 1)).toEqual([cause]);
  });
  it('fragmentation beside another holder: both named, in the first two', () => {
    expect(top('h200-torch-fragmentation.log', 2).sort()).toEqual([
      'allocator_fragmentation',
      'memory_held_by_other_process',
    ]);
  });
});
