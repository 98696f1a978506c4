#!/usr/bin/env node
// An experiment, not the product: what explain's first pass over a big log (the prefilter: which lines hold one of
// the stems, and the line count) costs when split over worker threads. One process per run, so that each figure
// includes Node's start, the registry and the threads' start: the file is cut into N ranges at line ends, each
// thread reads its own range (1 MiB reads) and runs the prefilter's AnchorSet over it as LineScanner does (the
// first MiB with the head stems), and posts back its line count and the lines that passed. Beside it, in the same
// rounds: `grep -E -i -c` with the prefilter's words (the floor of bench/speed.mjs) and the build's whole explain.
// Every N must find the same lines (checked). What it shows: how far a threaded first pass would take the 64 MB
// ratio to grep; the reading of the lines that passed stays on the main thread, in order.
//   node bench/explain-parallel.mjs [--mb 64] [--runs 5] [--threads 1,2,4,8] [--node NODE] [--cli dist/cli.js]
// A machine without node_modules (esbuild): here `--prepare .gpu-lab/prefilter` writes the prefilter's two bundles
// into that folder, there `--entry .gpu-lab/prefilter` runs with them.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, min, prefilterPattern, writeTrainingLog } from './speed-lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    mb: { type: 'string', default: '64' },
    runs: { type: 'string', default: '5' },
    threads: { type: 'string', default: '1,2,4,8' },
    node: { type: 'string', default: process.execPath },
    cli: { type: 'string', default: path.join(repo, 'dist/cli.js') },
    prepare: { type: 'string' },
    entry: { type: 'string' },
  },
});
const node = path.resolve(opt.node);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-explain-parallel-'));

// the prefilter as the bundle has it: the registry (its AnchorSet's state, computed once here) and, for each run,
// AnchorSet and HEAD_BYTES alone (a run restores the set from its state, as the bundle does from its catalog)
async function bundlePrefilter(dir) {
  const { build } = await import('esbuild');
  fs.mkdirSync(dir, { recursive: true });
  const src = (f) => JSON.stringify(path.join(repo, 'src/judge/explain', f));
  const entries = {
    registry: `export { registry } from ${src('signatures/index.ts')};`,
    scan: `export { AnchorSet } from ${src('read/anchors.ts')};\nexport { HEAD_BYTES } from ${src('read/scan.ts')};`,
  };
  for (const [name, text] of Object.entries(entries)) {
    const entry = path.join(work, `${name}.ts`);
    fs.writeFileSync(entry, text);
    await build({
      entryPoints: [entry],
      outfile: path.join(dir, `${name}.mjs`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'warning',
    });
  }
}
if (opt.prepare) {
  await bundlePrefilter(path.resolve(opt.prepare));
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(0);
}
const libDir = opt.entry ? path.resolve(opt.entry) : path.join(work, 'prefilter');
if (!opt.entry) await bundlePrefilter(libDir);
const lib = path.join(libDir, 'scan.mjs');
const stateFile = path.join(work, 'anchors.json');
fs.writeFileSync(
  stateFile,
  JSON.stringify((await import(path.join(libDir, 'registry.mjs'))).registry().anchors.state()),
);

// one run: node first-pass.mjs FILE N → "lines passed" on stdout
const pass = path.join(work, 'first-pass.mjs');
fs.writeFileSync(
  pass,
  `import * as fs from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { AnchorSet, HEAD_BYTES } from ${JSON.stringify(lib)};
const NL = 10;
const READ = 1 << 20;
/** lines of [from, to) (whole lines) and the starts of those that hold a stem */
function firstPass(file, from, to, state) {
  const anchors = AnchorSet.fromState(state);
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(READ + (1 << 20));
  let lines = 0;
  const passed = [];
  let at = from;
  let carry = 0;
  while (at < to) {
    const n = fs.readSync(fd, buf, carry, Math.min(READ, to - at), at);
    if (n === 0) break;
    at += n;
    const end = carry + n;
    const last = at >= to ? end - 1 : buf.lastIndexOf(NL, end - 1);
    const data = buf.subarray(0, last + 1);
    const base = at - end;
    let pos = 0;
    anchors.scan(data, 0, data.length, (start) => {
      for (;;) {
        const nl = data.indexOf(NL, pos);
        if (nl === -1 || nl >= start) break;
        lines++;
        pos = nl + 1;
      }
      const nl = data.indexOf(NL, start);
      lines++;
      passed.push(base + pos);
      pos = nl + 1;
      return pos;
    }, base < HEAD_BYTES);
    for (;;) {
      const nl = data.indexOf(NL, pos);
      if (nl === -1) break;
      lines++;
      pos = nl + 1;
    }
    carry = end - (last + 1);
    buf.copy(buf, 0, last + 1, end);
  }
  fs.closeSync(fd);
  return { lines, passed };
}
if (isMainThread) {
  const [file, n] = [process.argv[2], Number(process.argv[3])];
  const size = fs.statSync(file).size;
  const state = JSON.parse(fs.readFileSync(${JSON.stringify(stateFile)}, 'utf8'));
  // range ends: after the first newline at or past each even cut
  const fd = fs.openSync(file, 'r');
  const probe = Buffer.allocUnsafe(1 << 20);
  const cuts = [0];
  for (let k = 1; k < n; k++) {
    const at = Math.max(cuts[k - 1], Math.floor((size * k) / n));
    const got = fs.readSync(fd, probe, 0, probe.length, at);
    const nl = probe.subarray(0, got).indexOf(NL);
    cuts.push(nl === -1 ? size : at + nl + 1);
  }
  fs.closeSync(fd);
  cuts.push(size);
  // the head's last line (HEAD_BYTES) is in the first range: more stems there
  const parts = n === 1
    ? [firstPass(file, 0, size, state)]
    : await Promise.all(cuts.slice(0, -1).map((from, k) => new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { file, from, to: cuts[k + 1], state } });
        w.once('message', resolve);
        w.once('error', reject);
      })));
  const lines = parts.reduce((a, p) => a + p.lines, 0);
  const passed = parts.reduce((a, p) => a + p.passed.length, 0);
  process.stdout.write(lines + ' ' + passed + '\\n');
} else {
  const { file, from, to, state } = workerData;
  parentPort.postMessage(firstPass(file, from, to, state));
}
`,
);

try {
  const file = path.join(work, 'train.log');
  writeTrainingLog(
    file,
    Number(opt.mb) * 1024 * 1024,
    path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt'),
  );
  const size = fs.statSync(file).size;
  const threads = opt.threads
    .split(',')
    .map(Number)
    .filter((n) => n >= 1);
  const cmds = [
    { label: 'grep -E -i -c (prefilter words)', argv: ['grep', '-E', '-i', '-c', prefilterPattern(repo), file] },
    {
      label: 'explain --json (the build)',
      argv: [node, path.resolve(opt.cli), 'explain', file, '--no-machine', '--json'],
    },
    ...threads.map((n) => ({
      label: `first pass, ${n} thread${n > 1 ? 's' : ''}`,
      argv: [node, pass, file, String(n)],
      n,
    })),
  ];
  const samples = cmds.map(() => []);
  const cpu = cmds.map(() => []);
  const outs = new Map();
  const runs = Number(opt.runs);
  // CPU ms (user + sys of every thread, bash's `time`): on a shared machine the steadier figure
  const BASH = fs.existsSync('/bin/bash') ? '/bin/bash' : null;
  for (let r = -1; r < runs; r++) {
    for (const [i, c] of cmds.entries()) {
      const argv = BASH ? [BASH, '-c', 'TIMEFORMAT="GED_CPU %3U %3S"; time "$@"', 'bash', ...c.argv] : c.argv;
      const t0 = performance.now();
      const res = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 28 });
      const ms = performance.now() - t0;
      if (c.n !== undefined) {
        if (res.status !== 0) throw new Error(`${c.label}: ${res.stderr.slice(0, 400)}`);
        outs.set(c.n, res.stdout.trim());
      }
      const t = /GED_CPU ([\d.]+) ([\d.]+)/.exec(res.stderr);
      if (r >= 0) samples[i].push(ms);
      if (r >= 0 && t) cpu[i].push((Number(t[1]) + Number(t[2])) * 1000);
    }
  }
  const found = new Set(outs.values());
  const threadsHere = os.availableParallelism?.() ?? os.cpus().length;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(`${(size / 1e6).toFixed(0)} MB log, ${runs} interleaved rounds, ${node} (${process.version})`);
  console.log(`${threadsHere} threads available, load ${load}`);
  const same = found.size === 1 ? [...found][0] : `NO: ${[...outs].join('; ')}`;
  console.log(`every thread count found the same lines (lines, passed): ${same}`);
  const grepMed = median(samples[0]);
  const heads = ['wall med', 'min', '× grep', 'MB/s', 'cpu med', 'min'].map((h) => h.padStart(8));
  console.log(`${'command'.padEnd(34)} ${heads.join(' ')}`);
  const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-').padStart(8);
  for (const [i, c] of cmds.entries()) {
    const med = median(samples[i]);
    const cells = [f(med), f(min(samples[i])), (med / grepMed).toFixed(2).padStart(8)];
    cells.push((size / 1e6 / (med / 1000)).toFixed(0).padStart(8), f(median(cpu[i])), f(min(cpu[i])));
    console.log(`${c.label.padEnd(34)} ${cells.join(' ')}`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
