// Wall time of `compat` without the machine, and against a saved snapshot (node test/compat/bench-compat.mjs [snapshot.json], from the repo root).
// Measures the built CLI end to end (process start, loading and validating the knowledge, judging).
import { spawnSync } from 'node:child_process';
const snap = process.argv[2] ?? 'test/fixtures/snapshots/h200-idle.json';
const cases = [
  ['compat', 'torch==2.1.0+cu121', '--no-machine'],
  ['compat', 'tensorflow==2.12', '--no-machine', '--json'],
  ['compat', 'jax==0.11.2', '--from', snap],
  ['compat', 'torch==2.11.0+cu130', '--from', snap],
];
for (const args of cases) {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.status === 2) throw new Error(r.stderr);
  }
  times.sort((a, b) => a - b);
  console.log(`${args.join(' ').padEnd(60)} median ${times[3].toFixed(0)} ms  min ${times[0].toFixed(0)} ms`);
}
