// The published package is dist/cli.js and its docs: it has nothing to build on install. `prepare` (which
// builds dist/ after `npm ci` in a clone) must not travel in it: npm counts it as an install script of a
// package installed from a tarball, warns, and would run a scripts/ folder the package does not have.
// `npm pack` / `npm publish` run `prepack` (build, then this script with "strip") and `postpack` ("restore").
import { readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';

const mode = process.argv[2];
const BACKUP = 'package.json.pack-backup';
if (mode === 'strip') {
  const text = readFileSync('package.json', 'utf8');
  writeFileSync(BACKUP, text);
  const pkg = JSON.parse(text);
  for (const k of ['prepare', 'prepack', 'postpack', 'build', 'test', 'test:unit', 'typecheck'])
    delete pkg.scripts?.[k];
  if (pkg.scripts && Object.keys(pkg.scripts).length === 0) delete pkg.scripts;
  delete pkg.devDependencies;
  delete pkg.allowScripts;
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(BACKUP)) renameSync(BACKUP, 'package.json');
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
