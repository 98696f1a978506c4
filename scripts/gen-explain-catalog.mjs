#!/usr/bin/env node
// Generates src/judge/explain/catalog/generated.json (not committed: scripts/lib/explain-catalog.mjs says from what).
// `npm run build` does it too. Run: node scripts/gen-explain-catalog.mjs [--check] [--check-bundle [--dist DIR]]
//   --check          exit 1 when the file on disk is not what the sources give now
//   --check-bundle   exit 1 when the bundle's catalog (DIR/explain/catalog.json, default dist/) is not what the
//                    build makes of the sources now: what CI runs to prove the shipped catalog is the generated one
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOG_FILE, generateCatalog, writeCatalog } from './lib/explain-catalog.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const distArg = argv.indexOf('--dist');
const dist = distArg >= 0 ? path.resolve(argv[distArg + 1] ?? '') : path.join(repo, 'dist');
for (const [i, a] of argv.entries()) {
  if (a.startsWith('--') && !['--check', '--check-bundle', '--dist'].includes(a)) {
    console.error(`gen-explain-catalog: unknown option ${a} (use --check, --check-bundle, --dist DIR)`);
    process.exit(2);
  }
  if (!a.startsWith('--') && argv[i - 1] !== '--dist') {
    console.error(`gen-explain-catalog: unexpected argument ${a}`);
    process.exit(2);
  }
}

try {
  if (argv.includes('--check-bundle')) {
    const { catalogAsBundled } = await import('./build.mjs');
    const { json } = await generateCatalog();
    const shipped = path.join(dist, 'explain', 'catalog.json');
    const now = fs.existsSync(shipped) ? fs.readFileSync(shipped, 'utf8') : null;
    if (now !== (await catalogAsBundled(json))) {
      console.error(`${shipped} is not what the catalog's sources give now: run npm run build`);
      process.exit(1);
    }
    console.log(`${path.relative(repo, shipped) || shipped}: the catalog the sources give`);
  } else if (argv.includes('--check')) {
    const { json } = await generateCatalog();
    const now = fs.existsSync(CATALOG_FILE) ? fs.readFileSync(CATALOG_FILE, 'utf8') : '';
    if (now !== json) {
      console.error(`${path.relative(repo, CATALOG_FILE)} is out of date: run node scripts/gen-explain-catalog.mjs`);
      process.exit(1);
    }
    console.log(`${JSON.parse(json).signatures.length} signatures, up to date`);
  } else {
    const { signatures, changed } = await writeCatalog();
    console.log(`${signatures} signatures from the catalog${changed ? '' : ' (unchanged)'}`);
  }
} catch (err) {
  console.error(`gen-explain-catalog: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
