#!/usr/bin/env node
// From run.sh's archive to the labelled corpus test/fixtures/repro/LABEL/ID.{log,json}: the jobs that failed as
// staged, with the labeller's decisions (decisions.json beside this script: per job id, `drop` with a reason, or
// a new `label` / a `secondary` with a `note`) applied. A job that did not fail as staged is left out unless a
// decision keeps it. Sidecars keep what run.sh wrote, plus `checked` (the decision's note, or "as staged").
// The machine at the failure (logs/ID.snapshot.json, when run.sh could take it) is kept beside the log as
// ID.snapshot.json, less the sections explain never reads (python, libraries: most of its size).
// Run: node gpu-lab/repro/import.mjs ARCHIVE.tar.gz [--out DIR] [--add]   (--add: keep what DIR holds, add to it)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const argv = process.argv.slice(2);
const archive = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--out');
const add = argv.includes('--add');
const outDir = path.resolve(
  argv[argv.indexOf('--out') + 1] && argv.includes('--out')
    ? argv[argv.indexOf('--out') + 1]
    : path.join(repo, 'test/fixtures/repro'),
);
if (!archive || !fs.existsSync(archive)) {
  console.error('usage: node gpu-lab/repro/import.mjs ARCHIVE.tar.gz [--out DIR]');
  process.exit(2);
}
const decisions = fs.existsSync(path.join(here, 'decisions.json'))
  ? JSON.parse(fs.readFileSync(path.join(here, 'decisions.json'), 'utf8'))
  : {};
// a log longer than this keeps its head and tail (the failure is at the end; the start says what ran)
const MAX_LOG = 64 * 1024;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-repro-import-'));
const tar = spawnSync('tar', ['-xzf', archive, '-C', work], { encoding: 'utf8' });
if (tar.status !== 0) {
  console.error(`import: cannot unpack ${archive}: ${tar.stderr.trim()}`);
  process.exit(2);
}
const logs = path.join(work, 'logs');
if (!add) fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const counts = {};
const left = [];
let snapshots = 0;
for (const f of fs
  .readdirSync(logs)
  .filter((x) => x.endsWith('.json') && !x.endsWith('.snapshot.json'))
  .sort()) {
  const meta = JSON.parse(fs.readFileSync(path.join(logs, f), 'utf8'));
  const dec = decisions[meta.id] ?? {};
  if (dec.drop || (!meta.staged && !dec.keep)) {
    left.push(
      `${meta.id}: ${dec.drop ?? `not staged (exit ${meta.exit}${meta.timed_out ? ', timed out' : ''}, expected text ${meta.expected_seen ? 'seen' : 'not seen'})`}`,
    );
    continue;
  }
  const label = dec.label ?? meta.label;
  const out = {
    ...meta,
    label,
    ...(dec.label && dec.label !== meta.label ? { staged_label: meta.label } : {}),
    ...(dec.secondary ? { secondary: dec.secondary } : {}),
    checked: dec.note ?? 'as staged',
  };
  let text = fs.readFileSync(path.join(logs, f.replace(/\.json$/, '.log')));
  if (text.length > MAX_LOG) {
    text = Buffer.concat([
      text.subarray(0, MAX_LOG / 4),
      Buffer.from(`\n[... ${text.length - MAX_LOG} bytes left out by import.mjs ...]\n`),
      text.subarray(text.length - (3 * MAX_LOG) / 4),
    ]);
    out.cut = true;
  }
  const dir = path.join(outDir, label);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${meta.id}.log`), text);
  fs.writeFileSync(path.join(dir, `${meta.id}.json`), `${JSON.stringify(out, null, 1)}\n`);
  const snap = path.join(logs, f.replace(/\.json$/, '.snapshot.json'));
  if (fs.existsSync(snap)) {
    const { python, libraries, ...kept } = JSON.parse(fs.readFileSync(snap, 'utf8'));
    fs.writeFileSync(path.join(dir, `${meta.id}.snapshot.json`), `${JSON.stringify(kept, null, 1)}\n`);
    snapshots += 1;
  }
  counts[label] = (counts[label] ?? 0) + 1;
}
// a second archive (--add) keeps its summary beside the first one's
const suffix = add ? `-${path.basename(archive).replace(/\.tar\.gz$|\.tgz$/, '')}` : '';
for (const extra of ['summary.txt', 'machine.txt'])
  if (fs.existsSync(path.join(work, extra)))
    fs.copyFileSync(path.join(work, extra), path.join(outDir, extra.replace('.txt', `${suffix}.txt`)));
fs.writeFileSync(path.join(outDir, 'left-out.txt'), `${left.join('\n')}\n`, { flag: add ? 'a' : 'w' });
fs.rmSync(work, { recursive: true, force: true });
console.log(
  `imported into ${path.relative(repo, outDir).startsWith('..') ? outDir : path.relative(repo, outDir)}: ${Object.values(counts).reduce((a, b) => a + b, 0)} logs, ${Object.keys(counts).length} labels`,
);
for (const [l, n] of Object.entries(counts).sort()) console.log(`  ${l.padEnd(30)} ${n}`);
console.log(`with the machine at the failure (ID.snapshot.json): ${snapshots}`);
console.log(`left out: ${left.length} (left-out.txt)`);
