// Bundles the CLI into one file, dist/cli.js. Type checking is separate (`tsc --noEmit`).
// `?raw` imports (the Python probe, shipped inside the bundle) become strings, as Vite does in tests.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const rawPlugin = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.replace(/\?raw$/, '')),
      namespace: 'raw',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  plugins: [rawPlugin],
  legalComments: 'none',
  logLevel: 'warning',
});
