// The explain catalog's signatures (src/judge/explain/catalog/generated.json) are built from their sources, not
// committed: catalog/messages/*.json, additions.json, installed.json, notes.json and ../signatures/families.json,
// turned into signatures by src/judge/explain/catalog/generate.ts. The build (scripts/build.mjs, so also the tests'
// global setup and `npm ci`) and the explain tooling write it here first; the same sources give the same bytes.
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CATALOG_DIR = path.join(repo, 'src/judge/explain/catalog');
export const CATALOG_FILE = path.join(CATALOG_DIR, 'generated.json');

/** The catalog's JSON text from its sources, and the entries that could not become signatures. */
export async function generateCatalog() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-catalog-'));
  try {
    const out = path.join(work, 'gen.mjs');
    await build({
      entryPoints: [path.join(CATALOG_DIR, 'build.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    const { buildCatalog } = await import(pathToFileURL(out).href);
    return buildCatalog(CATALOG_DIR);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Writes generated.json when its content differs (a file left as it is keeps its time); throws on a bad entry. */
export async function writeCatalog() {
  const { json, problems } = await generateCatalog();
  if (problems.length > 0)
    throw new Error(`${problems.length} catalog entries could not become signatures:\n  ${problems.join('\n  ')}`);
  const before = fs.existsSync(CATALOG_FILE) ? fs.readFileSync(CATALOG_FILE, 'utf8') : null;
  if (before !== json) fs.writeFileSync(CATALOG_FILE, json);
  return { json, changed: before !== json, signatures: JSON.parse(json).signatures.length };
}
