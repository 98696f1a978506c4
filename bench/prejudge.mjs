#!/usr/bin/env node
// check's judging begun while nvidia-smi works (src/commands/shared/prejudge.ts): the CPU time of the checks after
// the answer, cold (all of them, as before) against begun early on the snapshot so far (what is left: the checks
// whose reads changed, run again on warm code), in fresh processes, interleaved.
//   node bench/prejudge.mjs [--runs 9] [SNAPSHOT.json ...]   (default: test/fixtures/snapshots/h200-full-*.json)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { median } from './speed-lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '9' } },
  allowPositionals: true,
});
const files =
  positionals.length > 0
    ? positionals
    : ['h200-full-idle.json', 'h200-full-held.json'].map((f) => path.join(repo, 'test/fixtures/snapshots', f));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-prejudge-'));
const entry = path.join(work, 'entry.mjs');
await build({
  entryPoints: [path.join(repo, 'bench/prejudge-entry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  define: { __KNOWLEDGE_DIR__: JSON.stringify(new URL('../src/knowledge/', import.meta.url).href) },
  banner: { js: `import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);` },
  logLevel: 'warning',
  plugins: [
    {
      name: 'raw',
      setup(b) {
        b.onResolve({ filter: /\?raw$/ }, (a) => ({
          path: path.resolve(a.resolveDir, a.path.replace(/\?raw$/, '')),
          namespace: 'raw',
        }));
        b.onLoad({ filter: /.*/, namespace: 'raw' }, (a) => ({
          contents: fs.readFileSync(a.path, 'utf8'),
          loader: 'text',
        }));
      },
    },
  ],
});
try {
  for (const file of files) {
    const rows = { cold: [], early: [] };
    for (let i = 0; i < Number(opt.runs); i++)
      for (const mode of ['cold', 'early']) {
        const r = spawnSync(process.execPath, [entry, mode, file], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`${mode} ${file}: ${r.stderr}`);
        rows[mode].push(JSON.parse(r.stdout));
      }
    const m = (xs, k) => median(xs.map((x) => x[k])).toFixed(1);
    const e = rows.early[0];
    console.log(`${path.basename(file)} (${opt.runs} runs each, median CPU ms):`);
    console.log(`  cold: all checks after the answer ${m(rows.cold, 'afterMs')}`);
    console.log(
      `  begun early: ${m(rows.early, 'earlyMs')} before the answer, ${m(rows.early, 'afterMs')} after it ` +
        `(${e.kept} of ${e.ranEarly} checks kept their early findings)`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
