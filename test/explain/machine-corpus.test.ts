// The reproduced benchmark with the machine as each job's phase stages it (machine-scenes.ts: built from the H200's
// real captures), read as `explain FILE --from SNAPSHOT` reads it: every log's first cause is its label. The log
// alone leaves the cases only the machine can decide (a second JAX process beside a JAX pool, two frameworks in one
// process, CuPy requests larger than this GPU); the staged scene decides them and changes no other class.
// The snapshots run.sh takes on the GPU machine are the real test of it (bench/explain-repro.mjs --machine).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { FIXTURES } from '../helpers/fake-bin.js';
import { stagedScene } from './machine-scenes.js';

const ROOT = path.join(FIXTURES, 'repro');
const cases = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    fs
      .readdirSync(path.join(ROOT, d.name))
      .filter((f) => f.endsWith('.json') && !f.endsWith('.snapshot.json'))
      .map((f) => {
        const meta = JSON.parse(fs.readFileSync(path.join(ROOT, d.name, f), 'utf8'));
        return { ...meta, log: path.join(ROOT, d.name, f.replace(/\.json$/, '.log')) };
      }),
  );

describe('the reproduced benchmark with the machine as staged', () => {
  it('every log: the first cause is its label', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const misses = cases
      .map((c) => ({ c, d: explainText(fs.readFileSync(c.log, 'utf8'), { snapshot: stagedScene(c) }) }))
      .filter(({ c, d }) => d.causes[0]?.id !== c.label)
      .map(({ c, d }) => `${c.id}: ${c.label} -> ${d.causes[0]?.id ?? 'nothing'}`);
    expect(misses).toEqual([]);
  }, 60_000);

  it('the log alone leaves misses there that only the machine decides', () => {
    const alone = cases.filter((c) => explainText(fs.readFileSync(c.log, 'utf8')).causes[0]?.id !== c.label);
    expect(alone.length).toBeGreaterThan(0);
    expect(new Set(alone.map((c) => c.label))).toEqual(new Set(['framework_preallocation', 'gpu_memory_exhausted']));
  }, 60_000);
});
