#!/usr/bin/env node
// Generates src/judge/explain/catalog/generated.json: the message catalog (catalog/messages, catalog/installed.json)
// turned into signatures by src/judge/explain/catalog/generate.ts, with the project's notes (catalog/notes.json).
// Run: node scripts/gen-explain-catalog.mjs [--check]   (--check: exit 1 when the file is not up to date)
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-catalog-'));
try {
  const out = path.join(work, 'gen.mjs');
  await build({
    entryPoints: [path.join(repo, 'src/judge/explain/catalog/build.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const { buildCatalog } = await import(pathToFileURL(out).href);
  const { json, problems } = buildCatalog(path.join(repo, 'src/judge/explain/catalog'));
  if (problems.length > 0) {
    console.error(`${problems.length} catalog entries could not become signatures:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  const target = path.join(repo, 'src/judge/explain/catalog/generated.json');
  if (process.argv.includes('--check')) {
    const now = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (now !== json) {
      console.error(
        'src/judge/explain/catalog/generated.json is out of date: run node scripts/gen-explain-catalog.mjs',
      );
      process.exit(1);
    }
  } else fs.writeFileSync(target, json);
  console.log(`${JSON.parse(json).signatures.length} signatures from the catalog`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
