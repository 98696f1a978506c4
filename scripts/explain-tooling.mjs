// Shared by scripts/fit-explain-priors.mjs and the explain benches: bundles parts of the explain engine once with
// esbuild, as the CLI runs them, and reads the labelled corpora.
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCatalog } from './lib/explain-catalog.mjs';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `lines` (export statements over src/ files) bundled once with esbuild and imported, as the CLI would run them;
 * the generated catalog is written first (it is built, not committed), and the knowledge tables are read from
 * their JSON files at first use (src/knowledge/index.ts): from where they are here.
 */
export async function bundleAndImport(lines) {
  await writeCatalog();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-explain-'));
  const entry = path.join(work, 'entry.ts');
  fs.writeFileSync(entry, lines.join('\n'));
  const out = path.join(work, 'entry.mjs');
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    define: { __KNOWLEDGE_DIR__: JSON.stringify(pathToFileURL(path.join(repo, 'src/knowledge/')).href) },
    banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  });
  const mod = await import(pathToFileURL(out).href);
  fs.rmSync(work, { recursive: true, force: true });
  return mod;
}

/** The fitting entry points of the explain engine (src/judge/explain/priors/*). */
export function loadTooling() {
  return bundleAndImport([
    `export { fitPriors, countPriors, STRENGTH_GRID, CONTEXT_GRID } from ${JSON.stringify(path.join(repo, 'src/judge/explain/priors/fit.ts'))};`,
    `export { PriorModel } from ${JSON.stringify(path.join(repo, 'src/judge/explain/priors/model.ts'))};`,
    `export { fitReport, textOf, envBlock } from ${JSON.stringify(path.join(repo, 'src/judge/explain/priors/corpus.ts'))};`,
  ]);
}

/** the labelled reports of the corpora, sorted by id */
export function readCorpora(dirs) {
  const cases = [];
  for (const d of dirs)
    for (const f of fs
      .readdirSync(d)
      .filter((x) => x.endsWith('.json'))
      .sort())
      cases.push(JSON.parse(fs.readFileSync(path.join(d, f), 'utf8')));
  return cases;
}

export const CORPUS_DIRS = ['test/fixtures/corpus/dev', 'test/fixtures/corpus/dev2', 'test/fixtures/corpus/dev3'].map(
  (d) => path.join(repo, d),
);
