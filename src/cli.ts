#!/usr/bin/env node
// The executable. It answers --version itself (nothing else needs loading for that), turns on V8's compile
// cache and loads the rest: the code after this file is compiled once and then read from the cache (Node 22.1
// and later; NODE_DISABLE_COMPILE_CACHE=1 turns it off). The rest is split per command (scripts/build.mjs).
// explain's own tree is loaded with a code cache of its own, made after a run (./cli/explain-load.ts, bundled as
// dist/explain-load.cjs: a module imported here would make this file import esbuild's helper chunk, --version too).
import * as nodeModule from 'node:module';

declare const __GED_BUNDLE__: boolean | undefined;
/** explain's own tree of the bundle (src/cli/explain-start.ts), beside this file: a path the bundler leaves as is */
const EXPLAIN_START = './explain-tree/start.js';
/** what loads it (src/cli/explain-load.ts), one CommonJS file beside this one */
const EXPLAIN_LOAD = './explain-load.cjs';

/** package.json's version, written in by scripts/build.mjs (so --version loads no other file); a test keeps it
 *  equal to src/base/tool-version.ts. */
declare const __TOOL_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === 'version')) {
  // write(2) on fd 1, not process.stdout (its stream costs more than the rest of --version); node:fs through
  // require, not an ES import (which would build node:fs's whole ES facade, loading fs/promises and streams)
  const fs = nodeModule.createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  fs.writeSync(1, `${__TOOL_VERSION__}\n`);
} else {
  enableCompileCache();
  // check's nvidia-smi (~0.1 s on a datacenter GPU) started before the program loads (./cli/early.ts says when;
  // never for explain, whose short path loads one file)
  const early = argv.includes('explain') ? undefined : await import('./cli/early.js');
  early?.startNvidiaFirst(argv);
  // a command line naming explain loads explain's own tree (one file for the short path); any other, the shared
  // chunks. Both trees hold the whole program: the choice is one of speed only.
  if (typeof __GED_BUNDLE__ !== 'undefined' && argv.includes('explain')) {
    const require = nodeModule.createRequire(import.meta.url);
    const { fileURLToPath } = require('node:url') as typeof import('node:url');
    const { loadExplainTree } = require(EXPLAIN_LOAD) as typeof import('./cli/explain-load.js');
    const tree = loadExplainTree(
      require,
      fileURLToPath(new URL(EXPLAIN_START, import.meta.url)),
      __TOOL_VERSION__,
      argv,
    );
    tree.start(argv, tree.ended);
  } else {
    const { start } = await (import('./cli/start.js') as Promise<typeof import('./cli/start.js')>).catch(
      (err: unknown) => {
        // a start that cannot load must not wait for the nvidia-smi begun above
        early?.endUnclaimed();
        throw err;
      },
    );
    start(argv, early?.endUnclaimed);
  }
}

function enableCompileCache(): void {
  // Node 20 has no compile cache: there the split bundle alone keeps the start small.
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable();
  } catch {
    /* an unwritable cache folder only costs the speed-up */
  }
}
