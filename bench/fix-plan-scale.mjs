#!/usr/bin/env node
// Times `fix --from` (planning only: a saved snapshot is never acted on) on a snapshot with N GPU processes,
// each stale and each the subject of a memory finding: the audit's L8 case (20,000 processes took 110 s when
// planning was quadratic). Prints the wall time per N, so doubling N should roughly double the time.
//
//   node bench/fix-plan-scale.mjs [--sizes 2500,5000,10000,20000]
//
// Run from the repository root after a build (dist/cli.js).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '2500,5000,10000,20000' } } });
const base = JSON.parse(readFileSync('test/fixtures/snapshots/h200-memory-held.json', 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'ged-fix-bench-'));
for (const n of values.sizes.split(',').map(Number)) {
  const s = structuredClone(base);
  const p0 = s.processes.list[0];
  const g0 = s.nvidia.gpus[0].processes[0];
  // An orphan with evidence (its session is not PID 1's), as the probe records one today.
  s.processes.list = Array.from({ length: n }, (_, i) => ({ ...p0, pid: 1000 + i, sid: 417, parentSid: 0 }));
  s.nvidia.gpus[0].processes = Array.from({ length: n }, (_, i) => ({ ...g0, pid: 1000 + i, usedMiB: 5 }));
  const file = join(dir, `procs${n}.json`);
  writeFileSync(file, JSON.stringify(s));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['dist/cli.js', 'fix', '--from', file, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t0;
  const planned = r.status === 2 ? '?' : JSON.parse(r.stdout).processes.length;
  console.log(`${String(n).padStart(6)} processes: ${(ms / 1000).toFixed(2)} s (exit ${r.status}, ${planned} steps)`);
}
