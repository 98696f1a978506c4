#!/usr/bin/env node
// Accuracy of `explain` on the labelled real reports (test/fixtures/corpus dev + dev2, or --corpus DIR...), by
// k-fold cross-validation: the reports are split into k folds by a hash of their id; for each fold the priors
// (message groups, framework/era, strength, context weight, calibration: src/judge/explain/priors/fit.ts) are fitted on
// the other folds only, and the fold is scored with them. Nothing fitted on a fold is used to score it.
// Scored twice: the log alone, and the log with the reporter's environment block (issue-template lines).
// Prints top-1/top-3, how often nothing was found, the expected calibration error with its reliability table,
// and the per-cause confusion matrix. The in-sample figure (fit on all, score all) is shown for contrast only.
// Scored a second time with the folds drawn by repository (a by-source split: every thread of tensorflow/tensorflow
// on the same side), so that wording shared within one project's threads cannot carry a rule from fitting to scoring.
// The held-out proxy: priors fitted on dev + dev2 only, every dev3 report scored with them (the rules are what they
// are: dev3 was read while writing some, so this is an upper bound of a first read, but no prior comes from dev3).
// Leave one framework group out: each group's reports scored with priors fitted on the other groups only (no
// framework/era prior, no message-group count from that framework's threads), a proxy for a framework never seen.
// --misses: the env misses by confusion cell, each with the other reports that share one of its message groups and
// their labels; a miss is a label split when such a report is labelled with the miss's first cause (the same message
// decided the other way elsewhere), which no rule reading that message can fix for both.
// Run: node bench/explain-accuracy.mjs [--k 10] [--corpus DIR ...] [--cases] [--misses] [--json] [--dump FILE]
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { CORPUS_DIRS, loadTooling, readCorpora, repo } from '../scripts/explain-tooling.mjs';

const argv = process.argv.slice(2);
const k = Number(argv[argv.indexOf('--k') + 1] ?? 10) || 10;
const corpusArgs = argv.flatMap((a, i) => (argv[i - 1] === '--corpus' ? [path.resolve(a)] : []));
const dirs = corpusArgs.length > 0 ? corpusArgs : CORPUS_DIRS;
const t = await loadTooling();
const cases = readCorpora(dirs);
const MODES = ['env', 'log'];
const MODE_NAME = { env: 'with the environment block', log: 'the log alone' };

const hashFold = (key) => createHash('sha256').update(key).digest()[0] % k;
/** the GitHub repository a report's thread is in (threads of one project share wording, habits and maintainers) */
const repoOf = (c) => {
  const m = /^https:\/\/github\.com\/([^/]+\/[^/#?]+)/.exec(c.source ?? '');
  return m ? m[1].toLowerCase() : (c.source ?? c.id);
};
// each report is read once per mode; diagnosed with each fold's priors
const reads = Object.fromEntries(MODES.map((m) => [m, cases.map((c) => t.fitReport(c, m))]));

/** k-fold cross-validation where `keyOf` decides the fold: the report's id, or its repository (a by-source split) */
function crossValidate(keyOf) {
  const foldOf = (c) => hashFold(keyOf(c));
  const out = Object.fromEntries(MODES.map((m) => [m, []]));
  for (let f = 0; f < k; f++) {
    const inTrain = (_, i) => foldOf(cases[i]) !== f;
    const fitted = t.fitPriors(reads.env.filter(inTrain), ['cv'], reads.log.filter(inTrain));
    const priors = new t.PriorModel(fitted);
    for (const m of MODES) {
      reads[m].forEach((r, i) => {
        if (foldOf(cases[i]) !== f) return;
        const d = r.diagnose(priors);
        out[m].push({ c: cases[i], d, fold: f, fitted: { strength: fitted.strength, context: fitted.context } });
      });
    }
  }
  return out;
}
/** cross-validation with one fold per value of `groupOf` (scored only where `scoreGroup` holds, if given) */
function leaveGroupOut(groupOf, scoreGroup = () => true) {
  const groups = [...new Set(cases.map(groupOf))].filter(scoreGroup);
  const out = Object.fromEntries(MODES.map((m) => [m, []]));
  for (const g of groups) {
    const inTrain = (_, i) => groupOf(cases[i]) !== g;
    const priors = new t.PriorModel(t.fitPriors(reads.env.filter(inTrain), ['cv'], reads.log.filter(inTrain)));
    for (const m of MODES)
      reads[m].forEach((r, i) => {
        if (groupOf(cases[i]) === g) out[m].push({ c: cases[i], d: r.diagnose(priors), group: g });
      });
  }
  return out;
}
const corpusOf = new Map(dirs.flatMap((d) => readCorpora([d]).map((c) => [c.id, path.basename(d)])));
/** the framework family of a report's thread (Keras with TensorFlow; the rest, each too few alone, together) */
const FRAMEWORK_GROUP = { keras: 'tensorflow', paddlepaddle: 'paddle' };
const frameworkGroupOf = (c) => {
  const f = FRAMEWORK_GROUP[c.framework] ?? c.framework;
  return ['pytorch', 'tensorflow', 'jax', 'paddle'].includes(f) ? f : 'other';
};
const results = crossValidate((c) => c.id);
// by source: no repository has reports on both sides of a fold (all tensorflow/tensorflow threads together…)
const byRepo = crossValidate(repoOf);
// for contrast: fitted on everything, scored on the same reports
const all = new t.PriorModel(t.fitPriors(reads.env, ['all'], reads.log));
const inSample = Object.fromEntries(
  MODES.map((m) => [m, reads[m].map((r, i) => ({ c: cases[i], d: r.diagnose(all) }))]),
);

function score(rows) {
  let top1 = 0,
    top3 = 0,
    none = 0,
    lenient = 0;
  for (const { c, d } of rows) {
    const ids = d.causes.map((x) => x.id);
    if (ids[0] === c.label) top1++;
    if (ids.slice(0, 3).includes(c.label)) top3++;
    if (ids[0] === c.label || (c.secondary && ids[0] === c.secondary)) lenient++;
    if (ids.length === 0) none++;
  }
  const n = rows.length;
  return { n, top1: top1 / n, top3: top3 / n, top1Lenient: lenient / n, nothing: none / n };
}

/** expected calibration error of the first cause's confidence, 10 equal-width bins (a report with no cause: confidence 0, wrong) */
function calibration(rows) {
  const bins = Array.from({ length: 10 }, (_, i) => ({ lo: i / 10, hi: (i + 1) / 10, n: 0, conf: 0, right: 0 }));
  for (const { c, d } of rows) {
    const conf = d.causes[0]?.confidence ?? 0;
    const right = d.causes[0]?.id === c.label ? 1 : 0;
    const b = bins[Math.min(9, Math.floor(conf * 10))];
    b.n++;
    b.conf += conf;
    b.right += right;
  }
  const n = rows.length;
  const ece = bins.reduce((a, b) => a + (b.n === 0 ? 0 : (b.n / n) * Math.abs(b.right / b.n - b.conf / b.n)), 0);
  return { ece, bins };
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
  configuration_invalid: 'cfg',
  framework_bug: 'bug',
  other: 'oth',
};
function confusion(rows) {
  const labels = Object.keys(ABBR);
  const m = Object.fromEntries(labels.map((l) => [l, Object.fromEntries([...labels, 'none'].map((p) => [p, 0]))]));
  for (const { c, d } of rows) m[c.label][d.causes[0]?.id ?? 'none']++;
  return m;
}

// dev+dev2 -> dev3 only where the three corpora are the ones read
const heldOut = dirs.some((d) => path.basename(d) === 'dev3')
  ? leaveGroupOut(
      (c) => (corpusOf.get(c.id) === 'dev3' ? 'dev3' : 'fit'),
      (g) => g === 'dev3',
    )
  : null;
const byFramework = leaveGroupOut(frameworkGroupOf);
const summary = Object.fromEntries(MODES.map((m) => [m, { ...score(results[m]), ...calibration(results[m]) }]));
const summaryByRepo = Object.fromEntries(MODES.map((m) => [m, { ...score(byRepo[m]), ...calibration(byRepo[m]) }]));
// --dump FILE: each report's cross-validated first three causes per mode, by id folds, by repository folds
// (`repo-env`, `repo-log`), a framework group left out (`framework-*`) and dev+dev2 -> dev3 (`dev3-*`), to diff two
// runs case by case
if (argv.includes('--dump')) {
  const firstThree = (list) =>
    Object.fromEntries(list.map(({ c, d }) => [c.id, { label: c.label, got: d.causes.slice(0, 3).map((x) => x.id) }]));
  const rows = Object.fromEntries([
    ...MODES.map((m) => [m, firstThree(results[m])]),
    ...MODES.map((m) => [`repo-${m}`, firstThree(byRepo[m])]),
    ...MODES.map((m) => [`framework-${m}`, firstThree(byFramework[m])]),
    ...(heldOut ? MODES.map((m) => [`dev3-${m}`, firstThree(heldOut[m])]) : []),
  ]);
  (await import('node:fs')).writeFileSync(argv[argv.indexOf('--dump') + 1], JSON.stringify(rows, null, 1));
}
if (argv.includes('--json')) {
  console.log(
    JSON.stringify(
      {
        corpora: dirs.map((d) => path.relative(repo, d)),
        k,
        summary,
        summaryByRepo,
        inSample: Object.fromEntries(MODES.map((m) => [m, score(inSample[m])])),
        confusion: confusion(results.env),
        heldOut:
          heldOut && Object.fromEntries(MODES.map((m) => [m, { ...score(heldOut[m]), ...calibration(heldOut[m]) }])),
        byFramework: Object.fromEntries(
          MODES.map((m) => [m, { ...score(byFramework[m]), ...calibration(byFramework[m]) }]),
        ),
      },
      null,
      1,
    ),
  );
  process.exit(0);
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
console.log(
  `explain accuracy: ${cases.length} labelled reports (${dirs.map((d) => path.relative(repo, d)).join(', ')}), ${k}-fold cross-validation`,
);
console.log(
  'priors fitted on the other folds only; each fold scored with them (strength/context per fold: ' +
    [...new Set(results.env.map((r) => `${r.fitted.strength}/${r.fitted.context}`))].join(', ') +
    ')\n',
);
console.log(
  `${'mode'.padEnd(30)} ${'top-1'.padStart(7)} ${'top-3'.padStart(7)} ${'top-1 (or 2nd label)'.padStart(21)} ${'nothing'.padStart(8)} ${'ECE'.padStart(6)}`,
);
for (const m of MODES) {
  const s = summary[m];
  console.log(
    `${MODE_NAME[m].padEnd(30)} ${pct(s.top1).padStart(7)} ${pct(s.top3).padStart(7)} ${pct(s.top1Lenient).padStart(21)} ${pct(s.nothing).padStart(8)} ${s.ece.toFixed(3).padStart(6)}`,
  );
}
for (const m of MODES) {
  const s = summaryByRepo[m];
  console.log(
    `${`by repository, ${m === 'env' ? 'env' : 'log alone'}`.padEnd(30)} ${pct(s.top1).padStart(7)} ${pct(s.top3).padStart(7)} ${pct(s.top1Lenient).padStart(21)} ${pct(s.nothing).padStart(8)} ${s.ece.toFixed(3).padStart(6)}`,
  );
}
const line = (name, rows) => {
  const s = { ...score(rows), ...calibration(rows) };
  const cells = [pct(s.top1).padStart(7), pct(s.top3).padStart(7), pct(s.top1Lenient).padStart(21)];
  console.log(`${name.padEnd(30)} ${cells.join(' ')} ${pct(s.nothing).padStart(8)} ${s.ece.toFixed(3).padStart(6)}`);
};
if (heldOut) for (const m of MODES) line(`dev+dev2 -> dev3, ${m === 'env' ? 'env' : 'log alone'}`, heldOut[m]);
for (const m of MODES) line(`by framework, ${m === 'env' ? 'env' : 'log alone'}`, byFramework[m]);
for (const m of MODES) {
  const s = score(inSample[m]);
  console.log(
    `${`(in-sample, ${m === 'env' ? 'env' : 'log'}: not a measure)`.padEnd(30)} ${pct(s.top1).padStart(7)} ${pct(s.top3).padStart(7)}`,
  );
}
console.log('\nby corpus (cross-validated, top-1 / top-3):');
for (const d of dirs) {
  const name = path.basename(d);
  const ids = new Set(readCorpora([d]).map((c) => c.id));
  const cells = MODES.map((m) => {
    const s = score(results[m].filter((r) => ids.has(r.c.id)));
    return `${MODE_NAME[m]}: ${pct(s.top1)} / ${pct(s.top3)}`;
  });
  console.log(`  ${`${name} (${ids.size})`.padEnd(12)} ${cells.join('   ')}`);
}
if (heldOut) {
  console.log('\ndev+dev2 -> dev3 by language (env top-1 / top-3, ECE):');
  for (const lang of [...new Set(heldOut.env.map((r) => r.c.lang ?? 'en'))]) {
    const rows = heldOut.env.filter((r) => (r.c.lang ?? 'en') === lang);
    const s = { ...score(rows), ...calibration(rows) };
    console.log(`  ${`${lang} (${rows.length})`.padEnd(12)} ${pct(s.top1)} / ${pct(s.top3)}  ECE ${s.ece.toFixed(3)}`);
  }
  console.log(
    '  reliability (env): ' +
      calibration(heldOut.env)
        .bins.filter((b) => b.n > 0)
        .map((b) => `${b.lo.toFixed(1)}: ${b.n} at ${(b.conf / b.n).toFixed(2)} right ${(b.right / b.n).toFixed(2)}`)
        .join(', '),
  );
}
console.log('\nleave one framework group out (env top-1 / top-3 of the group scored with priors fitted without it):');
console.log(
  '  ' +
    [...new Set(byFramework.env.map((r) => r.group))]
      .map((g) => {
        const s = score(byFramework.env.filter((r) => r.group === g));
        return `${g} (${s.n}) ${pct(s.top1)} / ${pct(s.top3)}`;
      })
      .join('   '),
);
console.log('\nby language of the report (cross-validated, top-1 / top-3; `lang`, else English):');
for (const lang of [...new Set(cases.map((c) => c.lang ?? 'en'))]) {
  const cells = MODES.map((m) => {
    const s = score(results[m].filter((r) => (r.c.lang ?? 'en') === lang));
    return `${MODE_NAME[m]}: ${pct(s.top1)} / ${pct(s.top3)}`;
  });
  console.log(
    `  ${`${lang} (${cases.filter((c) => (c.lang ?? 'en') === lang).length})`.padEnd(12)} ${cells.join('   ')}`,
  );
}
for (const m of MODES) {
  console.log(`\nreliability of the first cause's confidence, ${MODE_NAME[m]} (cross-validated):`);
  console.log(
    `  ${'confidence'.padEnd(11)} ${'reports'.padStart(7)} ${'mean conf.'.padStart(10)} ${'right'.padStart(7)}`,
  );
  for (const b of summary[m].bins)
    if (b.n > 0)
      console.log(
        `  ${`${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`.padEnd(11)} ${String(b.n).padStart(7)} ${(b.conf / b.n).toFixed(2).padStart(10)} ${(b.right / b.n).toFixed(2).padStart(7)}`,
      );
}
const cm = confusion(results.env);
const cols = [...Object.keys(ABBR), 'none'];
console.log('\nconfusion matrix, with the environment block (rows: label; columns: first cause; cross-validated):');
console.log(`  ${''.padEnd(29)} ${cols.map((c) => (ABBR[c] ?? c).padStart(4)).join(' ')}   top-1  top-3`);
for (const l of Object.keys(ABBR)) {
  const rows = results.env.filter((r) => r.c.label === l);
  if (rows.length === 0) continue;
  const s = score(rows);
  console.log(
    `  ${`${l} (${rows.length})`.padEnd(29)} ${cols.map((c) => (cm[l][c] ? String(cm[l][c]) : '.').padStart(4)).join(' ')}   ${pct(s.top1).padStart(5)}  ${pct(s.top3).padStart(5)}`,
  );
}
if (argv.includes('--cases')) {
  for (const m of MODES) {
    console.log(`\nmisses (${MODE_NAME[m]}):`);
    for (const { c, d } of results[m]) {
      const ids = d.causes.map((x) => x.id);
      if (ids[0] !== c.label)
        console.log(
          `  ${c.id} ${c.framework ?? ''} label=${c.label} got=${ids.slice(0, 3).join(',') || '(none)'} | ${c.log.replace(/\s+/g, ' ').slice(0, 150)}`,
        );
    }
  }
}

if (argv.includes('--misses')) {
  // message groups only: the families (family.*) say what kind of text it is, not which message
  const messageGroups = (i) => reads.env[i].sample.groups.filter((g) => !g.startsWith('family.'));
  const index = new Map(cases.map((c, i) => [c.id, i]));
  const byGroup = new Map();
  cases.forEach((_, i) => {
    for (const g of messageGroups(i)) byGroup.set(g, [...(byGroup.get(g) ?? []), i]);
  });
  const kinds = { split: [], nothing: [], lone: [] };
  const cells = new Map();
  for (const { c, d } of results.env) {
    const got = d.causes[0]?.id ?? 'none';
    if (got === c.label) continue;
    const i = index.get(c.id);
    const peers = [...new Set(messageGroups(i).flatMap((g) => byGroup.get(g)))].filter((j) => j !== i);
    const split = peers.filter((j) => cases[j].label === got);
    const kind = got === 'none' ? 'nothing' : split.length > 0 ? 'split' : 'lone';
    kinds[kind].push(c.id);
    const cell = `${c.label} -> ${got}`;
    const peerText = peers.map((j) => `${cases[j].id}:${ABBR[cases[j].label]}`).join(' ');
    cells.set(cell, [
      ...(cells.get(cell) ?? []),
      `    ${c.id.padEnd(7)} ${kind.padEnd(7)} ${messageGroups(i).slice(0, 3).join(',') || '-'} | same message: ${peerText || '-'}`,
    ]);
  }
  console.log(
    '\nmisses by cell (with the environment block; split = the same message group labelled with the first cause elsewhere):',
  );
  for (const [cell, lines] of [...cells].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${cell} (${lines.length})`);
    for (const l of lines) console.log(l);
  }
  const n = Object.values(kinds).reduce((a, l) => a + l.length, 0);
  console.log(
    `\n${n} misses: ${kinds.split.length} label splits, ${kinds.nothing.length} nothing read, ${kinds.lone.length} alone`,
  );
  console.log(`  alone (no other report of the same message says the first cause): ${kinds.lone.join(' ')}`);
}
