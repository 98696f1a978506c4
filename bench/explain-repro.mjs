#!/usr/bin/env node
// Accuracy of `explain` on the reproduced benchmark: failures caused on purpose on a GPU machine
// (gpu-lab/repro/run.sh), one log per job with a JSON sidecar naming its root cause (test/fixtures/repro).
// Each log is explained as `explain FILE --json --no-machine` does (the built engine's explainStream, the shipped
// priors, no machine facts). Prints per-class precision, recall and F1 of the first cause, macro-F1 over the classes
// the corpus has, top-3 recall, how often nothing was found, and the confusion matrix (rows: label; columns: first
// cause). The misses are listed by class with --cases.
// A sidecar may name a `secondary` label where the log alone cannot tell two causes apart: counted in the lenient
// accuracy only, never in precision/recall/F1.
// Run: node bench/explain-repro.mjs [--dir DIR ...] [--json] [--cases]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleAndImport, repo } from '../scripts/explain-tooling.mjs';
import { scoreRows } from './lib/repro-score.mjs';

const argv = process.argv.slice(2);
const dirArgs = argv.flatMap((a, i) => (argv[i - 1] === '--dir' ? [path.resolve(a)] : []));
const dirs = dirArgs.length > 0 ? dirArgs : [path.join(repo, 'test/fixtures/repro')];
for (const a of argv) {
  if (a.startsWith('--') && !['--dir', '--json', '--cases'].includes(a)) {
    console.error(`explain-repro: unknown option ${a} (use --dir DIR, --json, --cases)`);
    process.exit(2);
  }
}

/** The engine as the CLI runs it: src/judge/explain/engine.ts bundled once (the knowledge tables read from src/knowledge). */
function loadEngine() {
  return bundleAndImport([
    `export { explainStream } from ${JSON.stringify(path.join(repo, 'src/judge/explain/engine.ts'))};`,
  ]);
}

/** The labelled logs: every ID.json with a label beside its ID.log, sorted by id (folders read recursively). */
function readCases(roots) {
  const cases = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) {
        const meta = JSON.parse(fs.readFileSync(p, 'utf8'));
        const log = p.replace(/\.json$/, '.log');
        if (typeof meta.label !== 'string' || !fs.existsSync(log)) continue;
        cases.push({ ...meta, id: meta.id ?? path.basename(p, '.json'), file: log });
      }
    }
  };
  for (const r of roots) {
    if (!fs.existsSync(r)) {
      console.error(`explain-repro: no corpus at ${path.relative(process.cwd(), r) || r}`);
      process.exit(2);
    }
    walk(r);
  }
  return cases;
}

const ABBR = {
  gpu_memory_exhausted: 'exh',
  memory_held_by_other_process: 'held',
  framework_preallocation: 'prea',
  allocator_fragmentation: 'frag',
  cudnn_version_mismatch: 'cdnn',
  cuda_toolkit_mismatch: 'tkit',
  driver_too_old: 'drv',
  library_missing: 'miss',
  library_conflict: 'conf',
  gpu_arch_unsupported: 'arch',
  no_device_visible: 'nodv',
  hardware_or_driver_fault: 'hwf',
  framework_bug: 'bug',
  configuration_invalid: 'cfg',
  other: 'oth',
  none: '—',
};
const abbr = (id) => ABBR[id] ?? id.slice(0, 4);
/** a corpus folder as shown: relative to the repository when inside it */
const shownDir = (d) => (path.relative(repo, d).startsWith('..') ? d : path.relative(repo, d));

async function main() {
  const cases = readCases(dirs);
  if (cases.length === 0) {
    console.error(`explain-repro: no labelled logs (ID.json with a label beside ID.log) under ${dirs.join(', ')}`);
    process.exit(2);
  }
  const { explainStream } = await loadEngine();
  const rows = [];
  for (const c of cases) {
    const d = await explainStream([{ name: path.basename(c.file), chunks: [fs.readFileSync(c.file)] }], {});
    const ids = d.causes.map((x) => x.id);
    rows.push({
      id: c.id,
      label: c.label,
      secondary: c.secondary ?? null,
      framework: c.framework ?? 'unknown',
      first: ids[0],
      confidence: d.causes[0]?.confidence ?? 0,
      top3: ids.slice(0, 3),
    });
  }
  const all = scoreRows(rows);
  const byFramework = Object.fromEntries(
    [...new Set(rows.map((r) => r.framework))].sort().map((f) => {
      const s = scoreRows(rows.filter((r) => r.framework === f));
      return [f, { n: s.n, accuracy: s.accuracy, macroF1: s.macroF1 }];
    }),
  );
  const misses = rows
    .filter((r) => r.first !== r.label)
    .map((r) => ({
      id: r.id,
      label: r.label,
      framework: r.framework,
      first: r.first ?? 'none',
      confidence: r.confidence,
      top3: r.top3,
    }));

  if (argv.includes('--json')) {
    console.log(JSON.stringify({ corpora: dirs.map(shownDir), ...all, byFramework, misses }, null, 1));
    return;
  }
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `explain on the reproduced benchmark: ${all.n} logs, ${all.classes} classes (${dirs.map(shownDir).join(', ')}), as explain --json --no-machine\n`,
  );
  console.log(
    `macro-F1 ${all.macroF1.toFixed(3)}   accuracy (first cause) ${pct(all.accuracy)}   (or its secondary label ${pct(all.lenient)})   top-3 ${pct(all.top3)}   nothing ${pct(all.nothing)}\n`,
  );
  console.log(
    `${'class'.padEnd(30)} ${'n'.padStart(4)} ${'precision'.padStart(10)} ${'recall'.padStart(8)} ${'F1'.padStart(7)} ${'top-3'.padStart(7)}`,
  );
  for (const [l, s] of Object.entries(all.perClass)) {
    console.log(
      `${l.padEnd(30)} ${String(s.support).padStart(4)} ${s.precision.toFixed(3).padStart(10)} ${s.recall.toFixed(3).padStart(8)} ${s.f1.toFixed(3).padStart(7)} ${pct(s.top3).padStart(7)}`,
    );
  }
  console.log(
    `\nby framework: ${Object.entries(byFramework)
      .map(([f, s]) => `${f} ${s.n}: ${pct(s.accuracy)}`)
      .join(', ')}`,
  );
  console.log('\nconfusion matrix (rows: label; columns: first cause):');
  console.log(`${''.padEnd(6)}${all.columns.map((c) => abbr(c).padStart(6)).join('')}`);
  for (const l of Object.keys(all.matrix))
    console.log(`${abbr(l).padEnd(6)}${all.columns.map((c) => String(all.matrix[l][c] || '.').padStart(6)).join('')}`);
  console.log(`\n(${all.columns.map((c) => `${abbr(c)} ${c}`).join(', ')})`);
  if (argv.includes('--cases')) {
    console.log('\nmisses (label -> first cause, confidence, top-3):');
    for (const m of misses)
      console.log(`  ${m.id}: ${m.label} -> ${m.first} ${m.confidence.toFixed(2)} [${m.top3.join(', ')}]`);
  }
}

await main();
