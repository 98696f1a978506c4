// The reproduced benchmark: its scoring (bench/lib/repro-score.mjs) from known rows, and the staging script
// (gpu-lab/repro/run.sh) in dry mode with fake python3/nvcc/nvidia-smi: one log and one sidecar per job, an
// archive, every holder it started ended.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reproDryRun } from '../helpers/repro-dry.js';

import { scoreRows } from '../../bench/lib/repro-score.mjs';

describe('scoreRows: per-class precision/recall/F1 of the first cause, macro-F1, confusion', () => {
  const rows = [
    { label: 'a', first: 'a', top3: ['a'] },
    { label: 'a', first: 'a', top3: ['a', 'b'] },
    { label: 'a', first: 'b', top3: ['b', 'a'] },
    { label: 'b', first: 'b', top3: ['b'] },
    { label: 'b', first: undefined, top3: [] },
    { label: 'b', first: 'other', secondary: 'other', top3: ['other'] },
  ];
  const s = scoreRows(rows);
  it('counts each label against the first cause: a 2/3 recall, 2/2 precision; b 1/3 recall, 1/2 precision', () => {
    expect(s.perClass.a).toMatchObject({ support: 3, precision: 1, recall: 2 / 3, top3: 1 });
    expect(s.perClass.b).toMatchObject({ support: 3, precision: 0.5, recall: 1 / 3, top3: 1 / 3 });
    expect(s.perClass.a?.f1).toBeCloseTo(0.8, 10);
    expect(s.perClass.b?.f1).toBeCloseTo(0.4, 10);
    expect(s.macroF1).toBeCloseTo(0.6, 10);
  });
  it('a cause outside the labels and "nothing" are columns of the matrix, never classes of the macro average', () => {
    expect(s.classes).toBe(2);
    expect(s.columns).toEqual(['a', 'b', 'other', 'none']);
    expect(s.matrix.b).toEqual({ a: 0, b: 1, other: 1, none: 1 });
    expect(s.nothing).toBeCloseTo(1 / 6, 10);
  });
  it('a secondary label counts in the lenient accuracy only', () => {
    expect(s.accuracy).toBeCloseTo(3 / 6, 10);
    expect(s.lenient).toBeCloseTo(4 / 6, 10);
  });
});

describe('gpu-lab/repro/run.sh in dry mode', () => {
  it('writes a log and a sidecar per job, the archive and the summary, and ends its holders', () => {
    // the machine at each failure is tested on its own (repro-snapshot.test.ts): 51 snapshots cost a minute here
    const { work, out, logs } = reproDryRun('^(held|too-big)$', { REPRO_SNAPSHOT: '0' });
    const sidecars = fs.readdirSync(logs).filter((f) => f.endsWith('.json'));
    // too-big: 16 jobs; held: 7 jobs at each of 4 amounts kept free and against the stopped CuPy holder
    expect(sidecars.length).toBe(16 + 7 * 5);
    for (const f of sidecars) {
      const m = JSON.parse(fs.readFileSync(path.join(logs, f), 'utf8'));
      expect(fs.existsSync(path.join(logs, f.replace(/\.json$/, '.log')))).toBe(true);
      expect(['gpu_memory_exhausted', 'memory_held_by_other_process']).toContain(m.label);
      expect(typeof m.exit).toBe('number');
    }
    const held = JSON.parse(fs.readFileSync(path.join(logs, 'held.keep1200-torch-alloc.json'), 'utf8'));
    expect(held).toMatchObject({
      label: 'memory_held_by_other_process',
      framework: 'torch',
      phase: 'held',
      exit: 1,
      staged: true,
    });
    const jaxBig = JSON.parse(fs.readFileSync(path.join(logs, 'toobig.jax-alloc.json'), 'utf8'));
    expect(jaxBig.env).toEqual(['XLA_PYTHON_CLIENT_PREALLOCATE=false', 'JAX_PLATFORMS=cuda']);
    expect(fs.statSync(path.join(out, 'repro-logs.tar.gz')).size).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(out, 'summary.txt'), 'utf8')).toMatch(/memory_held_by_other_process\s+35\s+35/);
    // every PID it recorded as started is recorded as ended, and none is alive
    const pids = fs.readFileSync(path.join(work, 'started.pids'), 'utf8').split('\n').filter(Boolean);
    const started = pids.filter((p) => !p.startsWith('-'));
    for (const p of started) {
      let alive = true;
      try {
        process.kill(Number(p), 0);
      } catch {
        alive = false;
      }
      expect(alive, `PID ${p} still running`).toBe(false);
    }
  }, 150_000);
});
