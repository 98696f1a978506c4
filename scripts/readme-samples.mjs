#!/usr/bin/env node
// The README's two sample outputs, rendered by the built CLI from the inputs its own text names (the example
// snapshot and the H200 log), so the README cannot drift from what the tool prints. The clock is pinned 4h 22m
// after the snapshot was taken (as docs/zh/README.md, scripts/zh-readme.mjs), 80 columns, no colour.
//   npm run build && node scripts/readme-samples.mjs           rewrite the two code blocks in README.md
//   node scripts/readme-samples.mjs --check                    exit 1 when README.md differs from what the CLI prints
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedCli } from './lib/pinned-cli.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILE = path.join(ROOT, 'README.md');
const readme = fs.readFileSync(FILE, 'utf8');
const SNAPSHOT = /gpu-env-doctor check --from (examples\/snapshots\/[\w.-]+\.json)/.exec(readme)?.[1];
const LOG = /explain (test\/fixtures\/[\w./-]+) --no-machine/.exec(readme)?.[1];
if (!SNAPSHOT || !LOG) {
  console.error(
    'README.md: the sample commands (check --from examples/snapshots/…, explain test/fixtures/… --no-machine) were not found',
  );
  process.exit(2);
}
const cli = pinnedCli(ROOT, SNAPSHOT, 'en_US.UTF-8');

/** `text` with the first ``` block after the line holding `marker` replaced by `body`. */
function replaceBlockAfter(text, marker, body) {
  const at = text.indexOf(marker);
  const open = text.indexOf('\n```\n', at);
  const close = text.indexOf('\n```\n', open + 5);
  if (at < 0 || open < 0 || close < 0) throw new Error(`README.md: no code block after "${marker}"`);
  return `${text.slice(0, open)}\n\`\`\`\n${body}${text.slice(close)}`;
}

let next = replaceBlockAfter(readme, `gpu-env-doctor check --from ${SNAPSHOT}`, cli(['check', '--from', SNAPSHOT]));
next = replaceBlockAfter(next, `explain ${LOG} --no-machine`, cli(['explain', LOG, '--no-machine']));
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error('README.md: the sample outputs differ from what the CLI prints now: node scripts/readme-samples.mjs');
    process.exit(1);
  }
  console.log('README.md: the sample outputs are current');
} else {
  fs.writeFileSync(FILE, next);
  console.log(`README.md: samples from ${SNAPSHOT} and ${LOG}`);
}
