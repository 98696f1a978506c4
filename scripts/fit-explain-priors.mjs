#!/usr/bin/env node
// Fits explain's priors on the labelled corpora (test/fixtures/corpus/dev and dev2) and writes
// src/judge/explain/priors/fitted.json. The fit is deterministic: rerunning it on the same data gives the same file
// (a test checks). Run after changing the catalog, the signatures or the corpora:
//   node scripts/gen-explain-catalog.mjs && node scripts/fit-explain-priors.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORPUS_DIRS, loadTooling, readCorpora, repo } from './explain-tooling.mjs';

const t = await loadTooling();
const cases = readCorpora(CORPUS_DIRS);
const reports = cases.map((c) => t.fitReport(c, 'env'));
// the logs alone calibrate the confidences too (explain reads both kinds of input)
const fitted = t.fitPriors(
  reports,
  CORPUS_DIRS.map((d) => path.relative(repo, d)),
  cases.map((c) => t.fitReport(c, 'log')),
);
const doc = {
  $comment:
    'Fitted by scripts/fit-explain-priors.mjs (src/judge/explain/priors/fit.ts) on the labelled reports named in fittedOn. Do not edit by hand.',
  ...fitted,
};
fs.writeFileSync(path.join(repo, 'src/judge/explain/priors/fitted.json'), `${JSON.stringify(doc, null, 1)}\n`);
console.log(
  `fitted on ${fitted.fittedOn.reports} reports: strength ${fitted.strength}, context ${fitted.context}, calibration ${JSON.stringify(fitted.calibration)}, ${Object.keys(fitted.groups).length} message groups`,
);
