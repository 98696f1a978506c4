// Real snapshots taken on the H200 (test/fixtures/snapshots, first taken for examples/), cloned and changed by tests to plant problems.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Snapshot } from '../../src/gather/snapshot/schema.js';

const DIR = path.resolve(__dirname, '../fixtures/snapshots');

export function realSnapshot(name: 'h200-idle' | 'h200-memory-held'): Snapshot {
  return Snapshot.parse(JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')));
}

/** A clone of a real snapshot with `change` applied; validated again so tests never build impossible facts. */
export function planted(name: 'h200-idle' | 'h200-memory-held', change: (s: Snapshot) => void): Snapshot {
  const s = structuredClone(realSnapshot(name));
  change(s);
  return Snapshot.parse(s);
}

export function gpus(s: Snapshot) {
  if (!s.nvidia.ok) throw new Error('snapshot has no GPUs');
  return s.nvidia.gpus;
}
