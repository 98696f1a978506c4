// esbuild: an import ending in `?raw` (the Python probe's source) becomes that file's text, as the build does
// (scripts/build.mjs keeps its own variant, which also shrinks JSON and leaves the knowledge tables out).
import fs from 'node:fs';
import path from 'node:path';

export const rawTextPlugin = {
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
};
