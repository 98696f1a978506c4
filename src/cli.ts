#!/usr/bin/env node
// The executable, dist/cli.js: CommonJS (dist/package.json says so), since a main file that is an ES module makes
// Node start its ES module loader first (~10 M instructions), which a short explain, CommonJS throughout, never
// needs. It answers --version itself (nothing else needs loading for that), turns on V8's compile cache (Node 22.1
// and later; NODE_DISABLE_COMPILE_CACHE=1 turns it off) and loads the rest: for a command line naming explain,
// explain's own tree with a code cache of its own made after a run (./cli/explain-load.ts, dist/explain-load.cjs);
// for any other, the shared tree's entry (./cli/entry.ts, dist/entries/cli.js). Only ever run bundled.

/** explain's own tree (src/cli/explain-start.ts) and what loads it, beside this file */
const EXPLAIN_START = ['explain-tree', 'start.js'];
const EXPLAIN_LOAD = './explain-load.cjs';
/** the shared tree's entry: a path the bundler leaves as is */
const ENTRY = './entries/cli.js';

/** package.json's version, written in by scripts/build.mjs (so --version loads no other file); a test keeps it
 *  equal to src/base/tool-version.ts. */
declare const __TOOL_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === 'version')) {
  // write(2) on fd 1, not process.stdout (its stream costs more than the rest of --version)
  (require('node:fs') as typeof import('node:fs')).writeSync(1, `${__TOOL_VERSION__}\n`);
} else {
  enableCompileCache();
  if (argv.includes('explain')) {
    const { join } = require('node:path') as typeof import('node:path');
    const { loadExplainTree } = require(EXPLAIN_LOAD) as typeof import('./cli/explain-load.js');
    const tree = loadExplainTree(require, join(__dirname, ...EXPLAIN_START), __TOOL_VERSION__, argv);
    tree.start(argv, tree.ended);
  } else {
    void (import(ENTRY) as Promise<typeof import('./cli/entry.js')>).then((entry) => entry.run(argv));
  }
}

function enableCompileCache(): void {
  // Node 20 has no compile cache: there the split bundle alone keeps the start small.
  const enable = (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable();
  } catch {
    /* an unwritable cache folder only costs the speed-up */
  }
}
