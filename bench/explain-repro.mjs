#!/usr/bin/env node
// Accuracy of `explain` on the reproduced benchmark: failures caused on purpose on a GPU machine
// (gpu-lab/repro/run.sh), one log per job with a JSON sidecar naming its root cause (test/fixtures/repro).
// Each log is explained as `explain FILE --json --no-machine` does (the built engine's explainStream, the shipped
// priors, no machine facts). Prints per-class precision, recall and F1 of the first cause, macro-F1 over the classes
// the corpus has, top-3 recall, how often nothing was found, and the confusion matrix (rows: label; columns: first
// cause). The misses are listed by class with --cases.
// A sidecar may name a `secondary` label where the log alone cannot tell two causes apart: counted in the lenient
// accuracy only, never in precision/recall/F1.
// --machine: each log also with the machine at its failure, as `explain FILE --from ID.snapshot.json --json` does
// (the snapshot gpu-lab/repro/run.sh took beside the job's log); a log without one is read as the log alone there
// too, and counted apart. Prints both tables, log alone and with the machine, each with its confusion matrix.
// Run: node bench/explain-repro.mjs [--dir DIR ...] [--machine] [--json] [--cases]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleAndImport, repo } from '../scripts/explain-tooling.mjs';
import { scoreRows } from './lib/repro-score.mjs';

const argv = process.argv.slice(2);
const dirArgs = argv.flatMap((a, i) => (argv[i - 1] === '--dir' ? [path.resolve(a)] : []));
const dirs = dirArgs.length > 0 ? dirArgs : [path.join(repo, 'test/fixtures/repro')];
for (const a of argv) {
  if (a.startsWith('--') && !['--dir', '--json', '--cases', '--machine'].includes(a)) {
    console.error(`explain-repro: unknown option ${a} (use --dir DIR, --machine, --json, --cases)`);
    process.exit(2);
  }
}

/** The engine as the CLI runs it: src/judge/explain/engine.ts bundled once (the knowledge tables read from src/knowledge),
 *  and the snapshot reader `--from` uses. */
function loadEngine() {
  return bundleAndImport([
    `export { explainStream } from ${JSON.stringify(path.join(repo, 'src/judge/explain/engine.ts'))};`,
    `export { parseSnapshotText } from ${JSON.stringify(path.join(repo, 'src/gather/snapshot/load.ts'))};`,
  ]);
}

/** The labelled logs: every ID.json with a label beside its ID.log, sorted by id (folders read recursively). */
function readCases(roots) {
  const cases = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json') && !e.name.endsWith('.snapshot.json')) {
        const meta = JSON.parse(fs.readFileSync(p, 'utf8'));
        const log = p.replace(/\.json$/, '.log');
        if (typeof meta.label !== 'string' || !fs.existsSync(log)) continue;
        const snap = p.replace(/\.json$/, '.snapshot.json');
        cases.push({
          ...meta,
          id: meta.id ?? path.basename(p, '.json'),
          file: log,
          snapshotFile: fs.existsSync(snap) ? snap : null,
        });
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

/** A row per case: its label and the causes explain gave (with `snapshot`: as `--from` gives it). */
async function rowOf(explainStream, c, snapshot) {
  const d = await explainStream(
    [{ name: path.basename(c.file), chunks: [fs.readFileSync(c.file)] }],
    snapshot ? { snapshot } : {},
  );
  const ids = d.causes.map((x) => x.id);
  return {
    id: c.id,
    label: c.label,
    secondary: c.secondary ?? null,
    framework: c.framework ?? 'unknown',
    first: ids[0],
    confidence: d.causes[0]?.confidence ?? 0,
    top3: ids.slice(0, 3),
  };
}

/** the figures of a set of rows: overall, by framework, and the misses */
function figuresOf(rows) {
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
  return { ...all, byFramework, misses };
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

function printFigures(title, f) {
  console.log(`${title}\n`);
  console.log(
    `macro-F1 ${f.macroF1.toFixed(3)}   accuracy (first cause) ${pct(f.accuracy)}   (or its secondary label ${pct(f.lenient)})   top-3 ${pct(f.top3)}   nothing ${pct(f.nothing)}\n`,
  );
  console.log(
    `${'class'.padEnd(30)} ${'n'.padStart(4)} ${'precision'.padStart(10)} ${'recall'.padStart(8)} ${'F1'.padStart(7)} ${'top-3'.padStart(7)}`,
  );
  for (const [l, s] of Object.entries(f.perClass)) {
    console.log(
      `${l.padEnd(30)} ${String(s.support).padStart(4)} ${s.precision.toFixed(3).padStart(10)} ${s.recall.toFixed(3).padStart(8)} ${s.f1.toFixed(3).padStart(7)} ${pct(s.top3).padStart(7)}`,
    );
  }
  console.log(
    `\nby framework: ${Object.entries(f.byFramework)
      .map(([fw, s]) => `${fw} ${s.n}: ${pct(s.accuracy)}`)
      .join(', ')}`,
  );
  console.log('\nconfusion matrix (rows: label; columns: first cause):');
  console.log(`${''.padEnd(6)}${f.columns.map((c) => abbr(c).padStart(6)).join('')}`);
  for (const l of Object.keys(f.matrix))
    console.log(`${abbr(l).padEnd(6)}${f.columns.map((c) => String(f.matrix[l][c] || '.').padStart(6)).join('')}`);
  console.log(`\n(${f.columns.map((c) => `${abbr(c)} ${c}`).join(', ')})`);
  if (argv.includes('--cases')) {
    console.log('\nmisses (label -> first cause, confidence, top-3):');
    for (const m of f.misses)
      console.log(`  ${m.id}: ${m.label} -> ${m.first} ${m.confidence.toFixed(2)} [${m.top3.join(', ')}]`);
  }
}

async function main() {
  const cases = readCases(dirs);
  if (cases.length === 0) {
    console.error(`explain-repro: no labelled logs (ID.json with a label beside ID.log) under ${dirs.join(', ')}`);
    process.exit(2);
  }
  const { explainStream, parseSnapshotText } = await loadEngine();
  const machine = argv.includes('--machine');
  const rows = [];
  const withMachine = [];
  let snapshots = 0;
  const unreadable = [];
  for (const c of cases) {
    const alone = await rowOf(explainStream, c, null);
    rows.push(alone);
    if (!machine) continue;
    let snapshot = null;
    if (c.snapshotFile) {
      try {
        snapshot = parseSnapshotText(fs.readFileSync(c.snapshotFile, 'utf8'), c.snapshotFile);
        snapshots += 1;
      } catch (e) {
        unreadable.push(`${c.id}: ${e.message.split('\n')[0]}`);
      }
    }
    withMachine.push(snapshot ? { ...(await rowOf(explainStream, c, snapshot)), machine: true } : alone);
  }
  const logAlone = figuresOf(rows);
  const atFailure = machine ? figuresOf(withMachine) : null;
  // the logs that had their machine, alone and with it: what the machine changed where it was there to read
  const subset = machine ? withMachine.filter((r) => r.machine).map((r) => r.id) : [];
  const onSubset = (rs) => figuresOf(rs.filter((r) => subset.includes(r.id)));

  if (argv.includes('--json')) {
    console.log(
      JSON.stringify(
        {
          corpora: dirs.map(shownDir),
          ...logAlone,
          ...(atFailure
            ? {
                machine: {
                  snapshots,
                  withoutSnapshot: cases.length - snapshots,
                  unreadable,
                  ...atFailure,
                  subset: subset.length > 0 ? { logAlone: onSubset(rows), withMachine: onSubset(withMachine) } : null,
                },
              }
            : {}),
        },
        null,
        1,
      ),
    );
    return;
  }
  const where = dirs.map(shownDir).join(', ');
  printFigures(
    `explain on the reproduced benchmark: ${logAlone.n} logs, ${logAlone.classes} classes (${where}), as explain --json --no-machine`,
    logAlone,
  );
  if (!atFailure) return;
  console.log(`\n${'-'.repeat(100)}\n`);
  printFigures(
    `with the machine at the failure: ${snapshots} of ${cases.length} logs with their snapshot, as explain --json --from ID.snapshot.json; ${cases.length - snapshots} without one read as the log alone${unreadable.length > 0 ? ` (${unreadable.length} unreadable: ${unreadable.join('; ')})` : ''}`,
    atFailure,
  );
  if (subset.length > 0) {
    const a = onSubset(rows);
    const m = onSubset(withMachine);
    console.log(
      `\nthe ${subset.length} logs with a snapshot: log alone macro-F1 ${a.macroF1.toFixed(3)}, first cause ${pct(a.accuracy)}; with the machine ${m.macroF1.toFixed(3)}, ${pct(m.accuracy)}`,
    );
  }
}

await main();
