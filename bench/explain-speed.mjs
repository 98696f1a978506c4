#!/usr/bin/env node
// explain's two speed targets (issue 29) alone, in a few minutes: the short explain (27-line H200 log, --no-machine)
// beside `node -e 0` (target ≤ node + 40 ms), and a training log of --mb MB beside `grep -E -i -c` of the prefilter's
// words (target ≤ 3× grep and ≥ 500 MB/s), with the peak RSS of each explain of the big log (flat memory: it must not
// grow with --mb). Interleaved rounds (bench/speed-lib.mjs); --compare OTHER/cli.js measures another build in the
// same rounds. Output: the table, or --json.
// --varied: the training log's warnings hold the step and a memory figure that changes, so that no line repeats (the
// engine remembers lines of no use by their text: src/judge/explain/collect.ts; this is the log where that never helps).
//   npm run build && node bench/explain-speed.mjs [--runs 15] [--mb 64] [--varied] [--compare OTHER/dist/cli.js] [--json]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTable, measure, prefilterPattern, relate, writeTrainingLog } from './speed-lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    'big-runs': { type: 'string', default: '5' },
    mb: { type: 'string', default: '64' },
    varied: { type: 'boolean', default: false },
    cli: { type: 'string' },
    compare: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const CLI = path.resolve(opt.cli ?? path.join(repo, 'dist/cli.js'));
const SHORT_LOG = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const node = process.execPath;
const builds = [{ cli: CLI, tag: '' }, ...(opt.compare ? [{ cli: path.resolve(opt.compare), tag: ' (compare)' }] : [])];
for (const b of builds) {
  if (!fs.existsSync(b.cli)) {
    console.error(`${b.cli} not found: run \`npm run build\` first`);
    process.exit(2);
  }
}

// 1. the short explain beside node's own start (exit 1: it finds a cause)
const shortCmds = [
  { id: 'node', label: 'node -e 0', argv: [node, '-e', '0'] },
  ...builds.map((b, i) => ({
    id: `short${i}`,
    label: `explain (27-line log, --no-machine)${b.tag}`,
    argv: [node, b.cli, 'explain', SHORT_LOG, '--no-machine'],
    expectCodes: [1],
  })),
];
const short = measure(shortCmds, Number(opt.runs), { warmup: 2 });
const shortRows = builds.map((_, i) => ({
  id: `short${i}`,
  label: shortCmds[i + 1].label,
  floor: ['node'],
  target: { extraMs: 40 },
}));

// 2. a training log: explain against grep, and each explain's peak RSS
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-explain-speed-'));
try {
  const mb = Number(opt.mb);
  const file = path.join(work, 'train.log');
  writeTrainingLog(file, mb * 1024 * 1024, SHORT_LOG, { varied: opt.varied });
  const bytes = fs.statSync(file).size;
  const bigCmds = [
    {
      id: 'grep',
      label: `grep -E -i (prefilter words), ${mb} MB`,
      argv: ['grep', '-E', '-i', '-c', prefilterPattern(repo), file],
      bytes,
    },
    ...builds.map((b, i) => ({
      id: `big${i}`,
      label: `explain ${mb} MB training log${opt.varied ? ' (varied)' : ''}${b.tag}`,
      argv: [node, b.cli, 'explain', file, '--no-machine', '--json'],
      expectCodes: [1],
      bytes,
    })),
  ];
  const big = measure(bigCmds, Number(opt['big-runs']), { warmup: 1 });
  const bigRows = builds.map((_, i) => ({
    id: `big${i}`,
    label: bigCmds[i + 1].label,
    floor: ['grep'],
    target: { ratio: 3, minMbPerS: 500 },
  }));
  const rss = [];
  for (const b of builds)
    rss.push({ build: b.cli, peakMiB: await peakRss([node, b.cli, 'explain', file, '--no-machine', '--json']) });

  const samples = new Map([...short.samples, ...big.samples]);
  const cmds = [...shortCmds, ...bigCmds];
  const results = relate([...shortRows, ...bigRows], samples, cmds);
  const floors = relate(
    cmds.filter((c) => c.id === 'node' || c.id === 'grep').map((c) => ({ id: c.id, label: c.label, floor: [] })),
    samples,
    cmds,
  );
  const header = `explain speed · ${os.cpus().length} CPUs · load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} · Node ${process.version} · ${opt.runs} rounds (big log: ${opt['big-runs']})`;
  if (opt.json) console.log(JSON.stringify({ header, floors, results, rss }, null, 2));
  else {
    console.log(header);
    console.log(formatTable(results, floors));
    for (const r of rss) console.log(`peak RSS of explain of the ${mb} MB log: ${r.peakMiB} MiB (${r.build})`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

/** a command's peak resident memory (VmHWM, polled from /proc while it runs), in MiB */
function peakRss(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'ignore' });
    let hwm = 0;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwm = Math.max(hwm, Number(m[1]));
      } catch {}
    }, 10);
    child.on('error', reject);
    child.on('close', () => {
      clearInterval(poll);
      resolve(Math.round(hwm / 1024));
    });
  });
}
