#!/usr/bin/env node
// Does `explain` read an environment block written in Chinese as well as the same block in English?
// Over the labelled dev corpora (shared/corpus dev + dev2, else the copy in test/fixtures/corpus), each report's
// log is explained twice with --no-machine: with the reporter's facts as the English issue-template block
// (bench/explain-accuracy.mjs's lines) and with the same facts in Chinese phrasing (bench/lib/env-blocks.mjs).
// It prints top-1/top-3 accuracy of both runs, how many rankings are identical, and which facts were read
// differently. A comparison of two runs of today's engine, not fixed numbers: it exits 1 when the Chinese run
// ranks any report differently from the English run (so an engine change that breaks only one of them shows).
// By default the engine (src/judge/explain/engine.ts, explainText: what `explain - --no-machine` runs) is bundled once
// with esbuild and called in this process; --cli spawns the built dist/cli.js per report instead (slow, the same
// answers).
// Run: node bench/explain-zh-env.mjs [CORPUS_DIR…] [--cases] [--json] [--cli]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAndImport } from '../scripts/explain-tooling.mjs';
import { envBlockZh } from './lib/env-blocks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const argv = process.argv.slice(2);
const given = argv.filter((a) => !a.startsWith('--'));
// the shared corpus beside the checkout (a worktree sits one level deeper), else the copy in the test fixtures
const sharedRoots = ['../../shared/corpus', '../../../shared/corpus'].map((r) => path.resolve(here, r));
const sharedRoot = sharedRoots.find((r) => fs.existsSync(path.join(r, 'dev')) && fs.existsSync(path.join(r, 'dev2')));
const dirs =
  given.length > 0
    ? given
    : sharedRoot
      ? ['dev', 'dev2'].map((d) => path.join(sharedRoot, d))
      : ['dev', 'dev2'].map((d) => path.resolve(here, '../test/fixtures/corpus', d)).filter((d) => fs.existsSync(d));

// the engine and the English block exactly as the accuracy bench bundles them (scripts/explain-tooling.mjs)
const src = await bundleAndImport([
  `export { explainText } from ${JSON.stringify(path.resolve(here, '../src/judge/explain/engine.ts'))};`,
  `export { envBlock } from ${JSON.stringify(path.resolve(here, '../src/judge/explain/priors/corpus.ts'))};`,
]);
const engine = argv.includes('--cli') ? null : src;

function explain(text) {
  if (engine) {
    const doc = JSON.parse(JSON.stringify(engine.explainText(text, { sourceName: '-' })));
    return Promise.resolve({ ids: doc.causes.map((c) => c.id), env: facts(doc.environment) });
  }
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, 'explain', '-', '--json', '--no-machine'], {
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`explain failed (${code}): ${err}`));
      const doc = JSON.parse(out);
      resolve({ ids: doc.causes.map((c) => c.id), env: facts(doc.environment) });
    });
    p.stdin.end(text);
  });
}

/** The facts the diagnosis uses, comparable across the two runs (line numbers and quoted text differ). */
function facts(e) {
  const v = (f) => (f ? f.value : null);
  const g = e.gpus?.[0];
  return {
    framework: v(e.framework),
    frameworkVersion: v(e.frameworkVersion),
    buildCuda: v(e.buildCuda),
    cuda: v(e.cuda),
    driverCuda: v(e.driverCuda),
    cudnn: v(e.cudnn),
    driver: v(e.driver),
    python: v(e.python),
    os: v(e.os),
    container: v(e.container) ? 'yes' : null,
    install:
      (e.install ?? [])
        .map((x) => x.value)
        .sort()
        .join(',') || null,
    gpu: g ? g.name : null,
    gpuCc: g?.computeCapability ?? null,
    gpuMiB: g?.totalMiB ?? null,
  };
}

async function pool(items, n, f) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]);
      }
    }),
  );
  return out;
}

const cases = dirs.flatMap((d) =>
  fs
    .readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(d, f), 'utf8'))),
);
const t0 = Date.now();
const runs = await pool(cases, 2, async (c) => {
  const [en, zh] = [await explain(`${c.log}\n${src.envBlock(c)}\n`), await explain(`${c.log}\n${envBlockZh(c)}\n`)];
  return { c, en, zh };
});

const score = (key) => {
  let top1 = 0,
    top3 = 0;
  for (const r of runs) {
    if (r[key].ids[0] === r.c.label) top1++;
    if (r[key].ids.slice(0, 3).includes(r.c.label)) top3++;
  }
  return { top1: top1 / runs.length, top3: top3 / runs.length };
};
const en = score('en');
const zh = score('zh');
const sameRanking = runs.filter((r) => r.en.ids.join() === r.zh.ids.join()).length;
const sameTop1 = runs.filter((r) => r.en.ids[0] === r.zh.ids[0]).length;
const factDiffs = [];
const perField = {};
for (const r of runs) {
  for (const k of Object.keys(r.en.env)) {
    if (r.c.env && Object.keys(r.c.env).length === 0 && r.en.env[k] === r.zh.env[k]) continue;
    if (String(r.en.env[k]) !== String(r.zh.env[k])) {
      perField[k] = (perField[k] ?? 0) + 1;
      factDiffs.push({ id: r.c.id, fact: k, en: r.en.env[k], zh: r.zh.env[k] });
    }
  }
}
const rankDiffs = runs
  .filter((r) => r.en.ids.join() !== r.zh.ids.join())
  .map((r) => ({ id: r.c.id, label: r.c.label, en: r.en.ids.slice(0, 3), zh: r.zh.ids.slice(0, 3) }));

if (argv.includes('--json')) {
  console.log(
    JSON.stringify(
      {
        corpora: dirs,
        reports: runs.length,
        en,
        zh,
        sameRanking,
        sameTop1,
        factDifferences: perField,
        rankDiffs,
        factDiffs,
      },
      null,
      2,
    ),
  );
} else {
  const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);
  console.log(
    `explain with the environment block in English and in Chinese phrasing, ${runs.length} labelled reports (${dirs.join(', ')}), --no-machine, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  console.log(`${'env block'.padEnd(10)} ${'top-1'.padStart(6)} ${'top-3'.padStart(6)}`);
  console.log(`${'English'.padEnd(10)} ${pct(en.top1)} ${pct(en.top3)}`);
  console.log(`${'Chinese'.padEnd(10)} ${pct(zh.top1)} ${pct(zh.top3)}`);
  console.log(`identical rankings: ${sameRanking} of ${runs.length}; same top cause: ${sameTop1} of ${runs.length}`);
  console.log(
    `facts read differently (report × fact): ${factDiffs.length}${
      factDiffs.length
        ? ` (${Object.entries(perField)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')})`
        : ''
    }`,
  );
  if (argv.includes('--cases') || rankDiffs.length > 0)
    for (const d of rankDiffs)
      console.log(`  ranking differs: ${d.id} label=${d.label} en=${d.en.join(',')} zh=${d.zh.join(',')}`);
  if (argv.includes('--cases'))
    for (const d of factDiffs)
      console.log(`  fact differs: ${d.id} ${d.fact}: en=${JSON.stringify(d.en)} zh=${JSON.stringify(d.zh)}`);
}
process.exit(rankDiffs.length > 0 ? 1 : 0);
