#!/usr/bin/env node
// Issue 17's figures in one run: every command beside its floor, interleaved, as one table. The targets are
// issue 29's (--real: check ≤ node + nvidia-smi + 50 ms, short explain ≤ node + 40 ms; fleet ≤ 2.5× a bare parse;
// explain ≤ 3× grep -E and ≥ 500 MB/s; check --deep ≤ 0.2× collect_env and ≤ 1 s).
//
//   npm run build && node bench/speed.mjs [--runs 10] [--start-runs 31] [--fleet 2000] [--explain-mb 32] [--json]
//                                                                                                  (any machine)
//   node bench/speed.mjs --real [--python /opt/torch/.venv/bin/python3] [--deep-runs 5]            (a GPU machine)
//   node bench/speed.mjs --prepare .gpu-lab/speed-entry.mjs   (here: bundles the TypeScript helpers, so that a
//                                                             machine without node_modules can run --entry FILE)
//
// Floors: `node -e 0` (Node's own start), one `nvidia-smi -q -x`, `grep -E` over the same log with the keywords of
// explain's prefilter, a bare read + JSON.parse of the same snapshot files (in one Node process).
// Without --real, `check` and `libs` look at a --root tree shaped like the H200 machine (bench/machine.ts: its
// 197 distributions, torch's RECORD, a libtorch_cuda.so with ~21,000 fatbinary entries, the pip and system cuDNN
// copies, the ld cache) and nvidia-smi is a stand-in that answers like the H200's after --smi-ms (110 ms, the
// H200's `-q -x`). With --real they look at this machine, and `check --deep` runs beside
// `python -m torch.utils.collect_env`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTable, measure, prefilterPattern, relate, writeStandInSmi, writeTrainingLog } from './speed-lib.mjs';
import { rawTextPlugin } from '../scripts/lib/raw-text-plugin.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    // the commands of a fraction of a second (the floors, --version, the short explain, check, libs): their medians
    // move by more than a target's margin over few rounds, so they get rounds of their own (0: as --runs)
    'start-runs': { type: 'string', default: '0' },
    'deep-runs': { type: 'string', default: '5' },
    real: { type: 'boolean', default: false },
    python: { type: 'string' },
    fleet: { type: 'string', default: '2000' },
    'explain-mb': { type: 'string', default: '32' },
    'smi-ms': { type: 'string', default: '110' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    /** another build to measure (an older dist/cli.js, for before/after figures) */
    cli: { type: 'string' },
    prepare: { type: 'string' },
    entry: { type: 'string' },
    /** another build measured in the same rounds (before/after figures): rows marked "(compare)" */
    compare: { type: 'string' },
  },
});
const CLI = path.resolve(opt.cli ?? path.join(repo, 'dist/cli.js'));
if (opt.prepare) {
  await bundleEntry(path.resolve(opt.prepare));
  console.log(`wrote ${opt.prepare}`);
  process.exit(0);
}
if (!fs.existsSync(CLI)) {
  console.error('dist/cli.js not found: run `npm run build` first');
  process.exit(2);
}
const runs = Number(opt.runs);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-speed-'));
const node = process.execPath;
const log = (s) => process.stderr.write(`${s}\n`);
/** temp folders to remove at the end (the tree is built outside `work`) */
const cleanup = [];

// What the TypeScript helpers build (the H200-like tree, the fleet's snapshots).
const entry = opt.entry ? path.resolve(opt.entry) : path.join(work, 'entry.mjs');
if (!opt.entry) await bundleEntry(entry);
process.env.GED_REPO = repo;
const m = await import(entry);

async function bundleEntry(outfile) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(repo, 'bench/speed-entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    define: { __KNOWLEDGE_DIR__: JSON.stringify(new URL('../src/knowledge/', import.meta.url).href) },
    // the fixtures are found from the repository, wherever the bundle is
    banner: {
      js: `import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url); const __dirname = (process.env.GED_REPO ?? process.cwd()) + '/test/fleet';`,
    },
    logLevel: 'warning',
    plugins: [rawTextPlugin],
  });
}

const cmds = [];
const rows = [];
const floors = [];
const add = (c) => (cmds.push(c), c);
const real = opt.real;

// Floors.
add({ id: 'node', label: 'node -e 0', argv: [node, '-e', '0'] });
floors.push('node');
let machineArgs = [];
let machineEnv = process.env;
if (real) {
  add({ id: 'smi', label: 'nvidia-smi -q -x', argv: ['nvidia-smi', '-q', '-x'] });
} else {
  log('building the H200-like tree (bench/machine.ts)…');
  const root = m.buildMachine({ repo });
  const bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  writeStandInSmi(bin, repo, Number(opt['smi-ms']), 25);
  machineArgs = ['--root', root];
  machineEnv = {
    PATH: `${bin}:/opt/torch/.venv/bin:/usr/bin:/bin`,
    HOME: '/root',
    VIRTUAL_ENV: '/opt/torch/.venv',
    LD_LIBRARY_PATH: '/usr/local/nvidia/lib64:/usr/local/nvidia/lib',
    NO_COLOR: '1',
  };
  add({
    id: 'smi',
    label: `nvidia-smi -q -x (stand-in, ${opt['smi-ms']} ms)`,
    argv: [path.join(bin, 'nvidia-smi'), '-q', '-x'],
  });
  cleanup.push(root);
}
floors.push('smi');

// Start-up.
const SHORT_LOG = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
add({ id: 'version', label: '--version', argv: [node, CLI, '--version'] });
rows.push({ id: 'version', label: '--version', floor: ['node'], target: real ? { extraMs: 20 } : { ratio: 1.3 } });
add({
  id: 'explain',
  label: 'explain (27-line log, --no-machine)',
  argv: [node, CLI, 'explain', SHORT_LOG, '--no-machine'],
  expectCodes: [0, 1],
});
rows.push({
  id: 'explain',
  label: 'explain (27-line log, --no-machine)',
  floor: ['node'],
  target: real ? { extraMs: 40 } : { ratio: 2.0 },
});

// check and libs.
add({
  id: 'check',
  label: 'check --json',
  argv: [node, CLI, 'check', '--json', ...machineArgs, ...(opt.python ? ['--python', opt.python] : [])],
  env: machineEnv,
  expectCodes: [0, 1],
});
rows.push({
  id: 'check',
  label: 'check --json',
  floor: ['node', 'smi'],
  target: real ? { extraMs: 50 } : { note: 'H200: ≤ floor + 50 ms' },
});
add({
  id: 'libs',
  label: 'libs --json',
  argv: [node, CLI, 'libs', '--json', ...machineArgs],
  env: machineEnv,
  expectCodes: [0, 1],
});
rows.push({
  id: 'libs',
  label: 'libs --json',
  floor: ['node'],
  target: real ? { ms: 250 } : { note: 'H200: ≤ 250 ms' },
});

// fleet.
const fleetN = Number(opt.fleet);
if (fleetN > 0) {
  log(`writing ${fleetN} snapshots…`);
  const dir = path.join(work, 'fleet');
  const base = { idle: m.realSnapshot('h200-idle.json'), held: m.realSnapshot('h200-memory-held.json') };
  for (let i = 0; i < fleetN; i++) {
    const sub = path.join(dir, `rack-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `${m.nodeName(i)}.json`), JSON.stringify(m.nodeSnapshot(i, base)));
  }
  const parse = path.join(work, 'bare-parse.mjs');
  fs.writeFileSync(
    parse,
    `import * as fs from 'node:fs'; import * as path from 'node:path';\nconst walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name.endsWith('.json')) JSON.parse(fs.readFileSync(p, 'utf8')); } };\nwalk(process.argv[2]);\n`,
  );
  add({ id: 'parse', label: `read + JSON.parse of ${fleetN} files`, argv: [node, parse, dir] });
  floors.push('parse');
  add({
    id: 'fleet',
    label: `fleet of ${fleetN} snapshots`,
    argv: [node, CLI, 'fleet', dir, '--json'],
    expectCodes: [0, 1],
  });
  rows.push({ id: 'fleet', label: `fleet of ${fleetN} snapshots --json`, floor: ['parse'], target: { ratio: 2.5 } });
}

// explain throughput (the explain work's target, shown here beside its floor).
const mb = Number(opt['explain-mb']);
if (mb > 0) {
  const file = path.join(work, 'train.log');
  writeTrainingLog(file, mb * 1024 * 1024, SHORT_LOG);
  const bytes = fs.statSync(file).size;
  const pattern = prefilterPattern(repo);
  add({
    id: 'grep',
    label: `grep -E -i (prefilter words), ${mb} MB`,
    argv: ['grep', '-E', '-i', '-c', pattern, file],
    bytes,
    expectCodes: [0, 1],
  });
  floors.push('grep');
  add({
    id: 'explainBig',
    label: `explain ${mb} MB log`,
    argv: [node, CLI, 'explain', file, '--no-machine', '--json'],
    bytes,
    expectCodes: [0, 1],
  });
  rows.push({
    id: 'explainBig',
    label: `explain ${mb} MB training log`,
    floor: ['grep'],
    target: { ratio: 3, minMbPerS: 500 },
  });
}

// each build keeps the library scan's answer in a cache folder of its own: the kept answer is keyed by the build,
// so builds sharing the user's file would rewrite it for each other and no run would find its own
for (const c of cmds) {
  if (c.argv.includes(CLI)) c.env = { ...(c.env ?? process.env), XDG_CACHE_HOME: path.join(work, 'cache-this') };
}
if (opt.compare) {
  const other = path.resolve(opt.compare);
  for (const row of [...rows]) {
    const c = cmds.find((x) => x.id === row.id);
    if (!c?.argv.includes(CLI)) continue;
    const twin = {
      ...c,
      id: `${c.id}:compare`,
      label: `${c.label} (compare)`,
      argv: c.argv.map((a) => (a === CLI ? other : a)),
      env: { ...c.env, XDG_CACHE_HOME: path.join(work, 'cache-compare') },
    };
    cmds.push(twin);
    rows.push({ ...row, id: twin.id, label: `${row.label} (${opt.compare})` });
  }
}
const START_IDS = new Set(['node', 'smi', 'version', 'explain', 'check', 'libs']);
const isStart = (c) => START_IDS.has(c.id.replace(/:compare$/, ''));
const startRuns = Number(opt['start-runs']) || runs;
const short = cmds.filter(isStart);
const long = cmds.filter((c) => !isStart(c));
log(`measuring ${short.length} short commands, ${startRuns} interleaved rounds…`);
const samples = measure(short, startRuns).samples;
if (long.length > 0) {
  log(`measuring ${long.length} long commands, ${runs} interleaved rounds…`);
  for (const [id, xs] of measure(long, runs).samples) samples.set(id, xs);
}
const results = relate(rows, samples, cmds);
const floorFigures = relate(
  floors.map((id) => ({ id, label: cmds.find((c) => c.id === id).label, floor: [] })),
  samples,
  cmds,
);

// check --deep beside collect_env (GPU machines): few rounds, they take seconds.
if (real && opt.python) {
  const deepCmds = [
    { id: 'collect', label: 'python -m torch.utils.collect_env', argv: [opt.python, '-m', 'torch.utils.collect_env'] },
    {
      id: 'deep',
      label: 'check --deep --json',
      argv: [node, CLI, 'check', '--deep', '--json', '--python', opt.python],
      expectCodes: [0, 1],
    },
  ];
  log(`measuring check --deep and collect_env, ${opt['deep-runs']} rounds…`);
  const d = measure(deepCmds, Number(opt['deep-runs']), { warmup: 1 });
  results.push(
    ...relate(
      [{ id: 'deep', label: 'check --deep --json', floor: ['collect'], target: { ratio: 0.2, ms: 1000 } }],
      d.samples,
      deepCmds,
    ),
  );
  floorFigures.push(
    ...relate([{ id: 'collect', label: 'python -m torch.utils.collect_env', floor: [] }], d.samples, deepCmds),
  );
}

const header = `gpu-env-doctor speed · ${os.hostname()} · ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}) · load ${os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(
    ' ',
  )} · Node ${process.version} · ${startRuns} rounds (short commands), ${runs} (the rest)${real ? '' : ' · check/libs on the H200-like --root tree'}`;
if (opt.json) console.log(JSON.stringify({ header, floors: floorFigures, results }, null, 2));
else console.log(`${header}\n\n${formatTable(results, floorFigures)}`);
if (!opt.keep) for (const p of [work, ...cleanup]) fs.rmSync(p, { recursive: true, force: true });
