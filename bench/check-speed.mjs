#!/usr/bin/env node
// Times `check` (no --deep), `check --deep` and `python -m torch.utils.collect_env` side by side, in one
// run on one machine, and prints the figures and the targets:
//   check --json            median under 1000 ms
//   check --deep --json     median at most a third of collect_env's median
//
//   node bench/check-speed.mjs [--runs 10] [--deep-runs 3] [--python /opt/torch/.venv/bin/python3] [--json]
//
// Run from the repository root after a build (dist/cli.js). --python defaults to the python3 on PATH; the
// same interpreter runs collect_env, and is passed to check as --python so both look at the same
// environment. collect_env is skipped (and said so) when torch does not import there.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'deep-runs': { type: 'string', default: '3' },
    python: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const deepRuns = Number(values['deep-runs']);
if (!existsSync('dist/cli.js')) {
  console.error('dist/cli.js not found: run `npm run build` in the repository root first');
  process.exit(2);
}
const python =
  values.python ??
  (spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout || '').trim();

function time(label, cmd, args, n) {
  const ms = [];
  let last = null;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    last = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 600_000 });
    ms.push(performance.now() - t0);
    if (last.error) break;
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const median =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return {
    label,
    runs: ms.length,
    medianMs: Math.round(median),
    minMs: Math.round(sorted[0]),
    maxMs: Math.round(sorted[sorted.length - 1]),
    exit: last?.status ?? null,
    error: last?.error ? String(last.error.message) : null,
    stdout: last?.stdout ?? '',
  };
}

const pyArgs = python ? ['--python', python] : [];
const results = [];
// One warm-up, so the first run's disk cache misses do not count against either side.
spawnSync(process.execPath, ['dist/cli.js', 'check', '--json', ...pyArgs], { encoding: 'utf8' });
results.push(time('check --json', process.execPath, ['dist/cli.js', 'check', '--json', ...pyArgs], runs));
const deep = time(
  'check --deep --json',
  process.execPath,
  ['dist/cli.js', 'check', '--deep', '--json', ...pyArgs],
  deepRuns,
);
results.push(deep);

let collect = null;
const hasTorch = python && spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
if (hasTorch) {
  collect = time('python -m torch.utils.collect_env', python, ['-m', 'torch.utils.collect_env'], deepRuns);
  results.push(collect);
}

// What the deep run found, so a fast run that probed nothing is not mistaken for a fast probe.
let probed = '?';
try {
  const out = JSON.parse(deep.stdout);
  probed =
    (out.snapshot.python?.environments ?? [])
      .flatMap((e) =>
        e.probes.map((p) => `${p.framework}:${p.conv.map((c) => (c.ok ? 'ok' : 'fail')).join('/') || 'no-conv'}`),
      )
      .join(' ') || 'none';
} catch {
  probed = 'unreadable output';
}

const verdicts = [];
verdicts.push(`check under 1000 ms: ${results[0].medianMs < 1000 ? 'yes' : 'NO'} (median ${results[0].medianMs} ms)`);
if (collect) {
  const ratio = deep.medianMs / collect.medianMs;
  verdicts.push(
    `check --deep at most 1/3 of collect_env: ${ratio <= 1 / 3 ? 'yes' : 'NO'} (${deep.medianMs} / ${collect.medianMs} ms = ${ratio.toFixed(2)})`,
  );
} else verdicts.push(`collect_env: skipped, torch does not import under ${python || '(no python3)'}`);

if (values.json) {
  console.log(JSON.stringify({ python, results: results.map(({ stdout, ...r }) => r), probed, verdicts }, null, 2));
} else {
  console.log(
    `machine: ${spawnSync('hostname', { encoding: 'utf8' }).stdout.trim()}, node ${process.version}, python ${python || '-'}`,
  );
  for (const r of results)
    console.log(
      `${r.label.padEnd(36)} median ${String(r.medianMs).padStart(6)} ms  min ${String(r.minMs).padStart(6)}  max ${String(r.maxMs).padStart(6)}  (${r.runs} runs, exit ${r.exit}${r.error ? `, ${r.error}` : ''})`,
    );
  console.log(`frameworks probed by --deep: ${probed}`);
  for (const v of verdicts) console.log(v);
}
