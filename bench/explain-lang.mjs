#!/usr/bin/env node
// Does the output language change what explain concludes? Every report of the labelled dev corpora (shared/corpus
// dev + dev2, else the copy in test/fixtures/corpus) is explained by the built CLI twice, with --lang en and
// --lang zh (-v: the root-cause ids and confidences of the ranking), and the two rankings are compared. The
// wording comes from the catalog; the ranking must not depend on it. Exits 1 when any ranking differs.
// Run: npm run build && node bench/explain-lang.mjs [CORPUS_DIR…]   (about 3 min for 168 reports on 2 shared cores)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const given = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const sharedRoot = ['../../shared/corpus', '../../../shared/corpus']
  .map((r) => path.resolve(here, r))
  .find((r) => fs.existsSync(path.join(r, 'dev')));
const dirs =
  given.length > 0
    ? given
    : sharedRoot
      ? ['dev', 'dev2'].map((d) => path.join(sharedRoot, d))
      : ['dev', 'dev2'].map((d) => path.resolve(here, '../test/fixtures/corpus', d)).filter((d) => fs.existsSync(d));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'explain-lang-'));

function ranking(file, lang) {
  const r = spawnSync(process.execPath, [CLI, 'explain', file, '--no-machine', '-v', '--lang', lang], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1' },
  });
  const ids = [...r.stdout.matchAll(/\[([a-z_]+)\]/g)].map((m) => m[1]);
  const pcts = [...r.stdout.matchAll(/(\d+)%/g)].map((m) => m[1]);
  return `${ids.join(',')}|${pcts.join(',')}`;
}

let n = 0;
const differ = [];
for (const d of dirs) {
  for (const f of fs
    .readdirSync(d)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const report = JSON.parse(fs.readFileSync(path.join(d, f), 'utf8'));
    const file = path.join(tmp, `${f}.log`);
    fs.writeFileSync(file, String(report.log ?? ''));
    n++;
    const en = ranking(file, 'en');
    const zh = ranking(file, 'zh');
    if (en !== zh) differ.push(`${f}: en ${en} / zh ${zh}`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(
  `explain --lang en vs --lang zh, ${n} reports (${dirs.join(', ')}): identical rankings and confidences ${n - differ.length} of ${n}`,
);
for (const d of differ) console.log(`  differs: ${d}`);
process.exit(differ.length > 0 ? 1 : 0);
