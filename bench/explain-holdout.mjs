#!/usr/bin/env node
// Accuracy of `explain` on reports it was not fitted on: the priors are fitted on --fit corpora only, then every
// report of --score is diagnosed with them. This is the figure for a corpus read for the first time (no rule and no
// prior came from it). Prints aggregates only (no report's text), so running it does not mean reading the corpus.
// Modes: the log alone; the log with the environment written as issue templates ask (`env` fields); the log with
// the reporter's own environment lines (`env_text`, where the corpus has them).
// Run: node bench/explain-holdout.mjs --fit DIR [--fit DIR ...] --score DIR [--json]
import * as path from 'node:path';
import { loadTooling, readCorpora } from '../scripts/explain-tooling.mjs';

const argv = process.argv.slice(2);
const dirsOf = (flag) => argv.flatMap((a, i) => (argv[i - 1] === flag ? [path.resolve(a)] : []));
const fitDirs = dirsOf('--fit');
const scoreDirs = dirsOf('--score');
if (fitDirs.length === 0 || scoreDirs.length === 0) {
  console.error('usage: node bench/explain-holdout.mjs --fit DIR [--fit DIR ...] --score DIR [--json]');
  process.exit(2);
}
const t = await loadTooling();
const fitCases = readCorpora(fitDirs);
const scoreCases = readCorpora(scoreDirs);
const priors = new t.PriorModel(
  t.fitPriors(
    fitCases.map((c) => t.fitReport(c, 'env')),
    ['holdout'],
    fitCases.map((c) => t.fitReport(c, 'log')),
  ),
);

/** the reporter's verbatim environment lines after the log, as they would paste them */
const withEnvText = (c) => ({ ...c, log: c.env_text ? `${c.log}\n\n${c.env_text}\n` : c.log });
const MODES = {
  log: (c) => t.fitReport(c, 'log'),
  env: (c) => t.fitReport(c, 'env'),
  env_text: (c) => t.fitReport(withEnvText(c), 'log'),
};

function score(rows) {
  let top1 = 0,
    top3 = 0,
    none = 0;
  const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, right: 0 }));
  for (const { c, d } of rows) {
    const ids = d.causes.map((x) => x.id);
    const right = ids[0] === c.label;
    if (right) top1++;
    if (ids.slice(0, 3).includes(c.label)) top3++;
    if (ids.length === 0) none++;
    const conf = d.causes[0]?.confidence ?? 0;
    const b = bins[Math.min(9, Math.floor(conf * 10))];
    b.n++;
    b.conf += conf;
    b.right += right ? 1 : 0;
  }
  const n = rows.length;
  const ece = bins.reduce((a, b) => a + (b.n === 0 ? 0 : (b.n / n) * Math.abs(b.right / b.n - b.conf / b.n)), 0);
  return {
    n,
    top1: top1 / n,
    top3: top3 / n,
    nothing: none / n,
    ece,
    bins: bins.map((b, i) => ({ lo: i / 10, n: b.n, conf: b.n ? b.conf / b.n : 0, right: b.n ? b.right / b.n : 0 })),
  };
}

const out = {};
for (const [mode, read] of Object.entries(MODES)) {
  const rows = scoreCases.map((c) => ({ c, d: read(c).diagnose(priors) }));
  const byLang = {};
  for (const lang of [...new Set(scoreCases.map((c) => c.lang ?? 'en'))])
    byLang[lang] = score(rows.filter((r) => (r.c.lang ?? 'en') === lang));
  out[mode] = { all: score(rows), byLang };
}
if (argv.includes('--json')) {
  console.log(JSON.stringify({ fit: fitDirs, score: scoreDirs, n: scoreCases.length, modes: out }, null, 1));
  process.exit(0);
}
const pct = (x) => `${(x * 100).toFixed(1)}%`;
console.log(`explain on ${scoreCases.length} reports it was not fitted on (fitted on ${fitCases.length})`);
for (const [mode, r] of Object.entries(out)) {
  const s = r.all;
  console.log(
    `${mode.padEnd(9)} top-1 ${pct(s.top1)}  top-3 ${pct(s.top3)}  nothing ${pct(s.nothing)}  ECE ${s.ece.toFixed(3)}   ` +
      Object.entries(r.byLang)
        .map(([l, x]) => `${l} (${x.n}): ${pct(x.top1)} / ${pct(x.top3)}`)
        .join('  '),
  );
}
console.log('\nreliability, env mode (confidence bin: reports, mean confidence, right):');
for (const b of out.env.all.bins)
  if (b.n > 0)
    console.log(`  ${b.lo.toFixed(1)}  ${String(b.n).padStart(4)}  ${b.conf.toFixed(2)}  ${b.right.toFixed(2)}`);
