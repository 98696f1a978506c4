#!/usr/bin/env node
// check's judging begun while nvidia-smi works (src/commands/shared/prejudge.ts): the CPU time of the checks after
// the answer, cold (all of them, as before) against begun early on the snapshot so far (what is left: the checks
// whose reads changed, run again on warm code), in fresh processes, interleaved.
// --window 10,20: also with nvidia-smi answering that many ms into the early run (a short wait: the rest after it).
//   node bench/prejudge.mjs [--runs 9] [--window 10,20] [SNAPSHOT.json ...]
//   (default snapshots: test/fixtures/snapshots/h200-full-*.json)
//   node bench/prejudge.mjs --prepare .gpu-lab/prejudge-entry.mjs   (here: bundles the entry, so that a machine
//                                                                   without node_modules can run --entry FILE)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './speed-lib.mjs';
import { rawTextPlugin } from '../scripts/lib/raw-text-plugin.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    window: { type: 'string', default: '' },
    prepare: { type: 'string' },
    entry: { type: 'string' },
  },
  allowPositionals: true,
});
const files =
  positionals.length > 0
    ? positionals
    : ['h200-full-idle.json', 'h200-full-held.json'].map((f) => path.join(repo, 'test/fixtures/snapshots', f));
if (opt.prepare) {
  await bundle(path.resolve(opt.prepare));
  console.log(`wrote ${opt.prepare}`);
  process.exit(0);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-prejudge-'));
const entry = opt.entry ? path.resolve(opt.entry) : path.join(work, 'entry.mjs');
if (!opt.entry) await bundle(entry);

async function bundle(outfile) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(repo, 'bench/prejudge-entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // the tables found from the bundle's place (resolved against its URL), wherever the checkout is
    define: {
      __KNOWLEDGE_DIR__: JSON.stringify(`${path.relative(path.dirname(outfile), path.join(repo, 'src/knowledge'))}/`),
    },
    banner: { js: `import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);` },
    logLevel: 'warning',
    plugins: [rawTextPlugin],
  });
}
try {
  for (const file of files) {
    const windows = opt.window ? opt.window.split(',').map((w) => `early-${w}`) : [];
    const rows = Object.fromEntries(['cold', 'early', ...windows].map((m) => [m, []]));
    for (let i = 0; i < Number(opt.runs); i++)
      for (const mode of Object.keys(rows)) {
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
    for (const w of windows) {
      const r = rows[w];
      console.log(
        `  answer ${w.slice('early-'.length)} ms into it: ${m(r, 'earlyMs')} before, ${m(r, 'afterMs')} after ` +
          `(${median(r.map((x) => x.ranEarly))} checks begun, ${median(r.map((x) => x.kept))} kept)`,
      );
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
