#!/usr/bin/env node
// explain's start (issue 29: a short explain ≤ `node -e 0` + 40 ms) against Node's own start, in interleaved rounds:
// `node -e 0`, an empty .mjs, and for each build the short explain (27-line H200 log, --no-machine) in terminal and
// --json form. Wall ms (median and min) and CPU ms (user+sys, bash's `time` to the ms; each wall time then includes
// bash's own start, the same for every row): on a shared machine the CPU time is the steadier figure. Also the files each build's explain opens under dist/ (strace, where present).
//   node bench/explain-start.mjs [--runs 21] [--node /tmp/node22/node] [--cli dist/cli.js] [--compare OTHER/cli.js]...
// A build copied elsewhere needs a package.json of type module above it (as the project's): without one Node loads
// each file twice (as CommonJS, then as an ES module), and the comparison is unfair.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, min } from './speed-lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '21' },
    node: { type: 'string', default: process.execPath },
    cli: { type: 'string', default: path.join(repo, 'dist/cli.js') },
    compare: { type: 'string', multiple: true },
  },
});
const LOG = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const node = path.resolve(opt.node);
const builds = [
  { tag: 'this', cli: path.resolve(opt.cli) },
  ...(opt.compare ?? []).map((c, i) => ({ tag: `compare ${i + 1}`, cli: path.resolve(c) })),
];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-explain-start-'));
const empty = path.join(work, 'empty.mjs');
fs.writeFileSync(empty, '');
const BASH = fs.existsSync('/bin/bash') ? '/bin/bash' : null;

const cmds = [
  { label: 'node -e 0', argv: [node, '-e', '0'], codes: [0] },
  { label: 'empty .mjs', argv: [node, empty], codes: [0] },
  // each build its own cache folder: explain's code cache is one file there (src/cli/explain-load.ts), which two
  // builds would each replace at every run
  ...builds.flatMap((b, i) => {
    const env = { ...process.env, XDG_CACHE_HOME: path.join(work, `cache-${i}`) };
    return [
      { label: `explain (${b.tag})`, argv: [node, b.cli, 'explain', LOG, '--no-machine'], codes: [1], env },
      {
        label: `explain --json (${b.tag})`,
        argv: [node, b.cli, 'explain', LOG, '--no-machine', '--json'],
        codes: [1],
        env,
      },
    ];
  }),
];

/** one run: wall ms, and CPU ms when bash measured it */
function once(c) {
  const argv = BASH ? [BASH, '-c', 'TIMEFORMAT="GED_CPU %3U %3S"; time "$@"', 'bash', ...c.argv] : c.argv;
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: c.env });
  const wall = performance.now() - t0;
  if (!c.codes.includes(r.status ?? -1)) throw new Error(`${c.label}: exit ${r.status}: ${r.stderr.slice(0, 300)}`);
  const m = /GED_CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : null };
}

const runs = Number(opt.runs);
const samples = cmds.map(() => ({ wall: [], cpu: [] }));
for (let r = -2; r < runs; r++) {
  cmds.forEach((c, i) => {
    const s = once(c);
    if (r < 0) return;
    samples[i].wall.push(s.wall);
    if (s.cpu !== null) samples[i].cpu.push(s.cpu);
  });
}
const f = (x) => (Number.isFinite(x) ? x.toFixed(1).padStart(7) : '      -');
const nodeMed = median(samples[0].wall);
console.log(
  `${runs} interleaved rounds, ${node} (${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()})`,
);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; cores ${os.cpus().length}`,
);
console.log(`${'command'.padEnd(30)} wall med    min  −node   cpu med    min`);
cmds.forEach((c, i) => {
  const s = samples[i];
  const med = median(s.wall);
  console.log(
    `${c.label.padEnd(30)} ${f(med)} ${f(min(s.wall))} ${f(med - nodeMed)}   ${f(median(s.cpu))} ${f(min(s.cpu))}`,
  );
});

// the files each build's explain opens under its dist/ folder
if (spawnSync('strace', ['-V']).status === 0) {
  for (const b of builds) {
    const trace = path.join(work, `${b.tag}.strace`);
    spawnSync('strace', ['-f', '-e', 'trace=openat', '-o', trace, node, b.cli, 'explain', LOG, '--no-machine']);
    const dist = path.dirname(b.cli);
    const opened = new Set(
      [...fs.readFileSync(trace, 'utf8').matchAll(/openat\([^"]*"([^"]+\.js)"/g)]
        .map((m) => m[1])
        .filter((p) => p.startsWith(dist)),
    );
    console.log(`files of ${b.tag}'s dist/ a short explain opens: ${opened.size}`);
  }
}
fs.rmSync(work, { recursive: true, force: true });
