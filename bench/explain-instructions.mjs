#!/usr/bin/env node
// explain's start counted in instructions rather than timed: on a shared machine the CPU time of a 70 ms process
// moves by ±5 ms with the load, the count of instructions it executes by ~1%. valgrind's cachegrind (no cache
// simulation) counts every instruction of every thread of `node -e 0` and of the short explain (27-line H200 log,
// --no-machine) of each build; two warm-up runs first (the first run of a build writes Node's compile cache).
// Medians of the counts, and each build's count above `node -e 0`. About 4 s per run of each command.
//   node bench/explain-instructions.mjs [--runs 3] [--node /tmp/node22/node] [--cli dist/cli.js] [--compare OTHER/cli.js]...
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    node: { type: 'string', default: process.execPath },
    cli: { type: 'string', default: path.join(repo, 'dist/cli.js') },
    compare: { type: 'string', multiple: true },
  },
});
const LOG = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const node = path.resolve(opt.node);
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('explain-instructions: valgrind is not on PATH');
  process.exit(2);
}
const builds = [
  { tag: 'this', cli: path.resolve(opt.cli) },
  ...(opt.compare ?? []).map((c, i) => ({ tag: `compare ${i + 1}`, cli: path.resolve(c) })),
];
// each build its own cache folder: explain's code cache is one file there (src/cli/explain-load.ts), which two
// builds would each replace at every run
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-explain-instructions-'));
const cmds = [
  { label: 'node -e 0', argv: [node, '-e', '0'] },
  ...builds.map((b, i) => ({
    label: `explain (${b.tag})`,
    argv: [node, b.cli, 'explain', LOG, '--no-machine'],
    env: { ...process.env, XDG_CACHE_HOME: path.join(work, `cache-${i}`) },
  })),
];

/** the instructions one run executed (all threads) */
function count(c) {
  const vg = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', ...c.argv];
  const r = spawnSync('valgrind', vg, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: c.env });
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (!m) throw new Error(`${c.label}: no count from valgrind: ${r.stderr.slice(-300)}`);
  return Number(m[1].replaceAll(',', ''));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const runs = Number(opt.runs);
const samples = cmds.map(() => []);
for (let r = -2; r < runs; r++)
  cmds.forEach((c, i) => {
    const n = count(c);
    if (r >= 0) samples[i].push(n);
  });
const M = (n) => `${(n / 1e6).toFixed(1).padStart(8)} M`;
const base = median(samples[0]);
console.log(
  `${runs} interleaved rounds after 2 warm-up ones, ${node}; instructions (valgrind cachegrind, all threads)`,
);
console.log(`${'command'.padEnd(24)}     median        min        max     −node`);
cmds.forEach((c, i) => {
  const s = samples[i];
  console.log(`${c.label.padEnd(24)} ${M(median(s))} ${M(Math.min(...s))} ${M(Math.max(...s))} ${M(median(s) - base)}`);
});
