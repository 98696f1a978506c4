#!/usr/bin/env node
// The experiment behind the build's step (scripts/lib/eager-functions.mjs, which now does this to every build, at the
// head of the file): run on a build made without that step, it shows what the step is worth.
// How much of a short explain is V8 compiling functions at their first call. Node's
// compile cache is made when a file is compiled, before it runs, so it holds only the functions compiled with the file
// (the top level, and parenthesised function expressions); every other function the run calls is compiled again in
// every process. This copies a build (the folder holding dist/, with its package.json) to OUT, and in OUT's
// dist/explain-tree/start.js parenthesises every top-level function declaration the short explain runs (found with
// V8's --log-function-events): `function f(…) {…}` becomes `var f = (function f(…) {…});`. A function called before
// its declaration while the file loads would break (the copy's output is compared with the build's: it says so).
// Then: node bench/explain-instructions.mjs --cli OUT/dist/cli.js --compare BUILD/dist/cli.js
//   node bench/explain-eager.mjs BUILD OUT [--node /tmp/node22/node]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt, positionals } = parseArgs({
  options: { node: { type: 'string', default: process.execPath } },
  allowPositionals: true,
});
if (positionals.length !== 2) {
  console.error('usage: node bench/explain-eager.mjs BUILD OUT [--node NODE]   (BUILD holds dist/ and package.json)');
  process.exit(2);
}
const [build, out] = positionals.map((p) => path.resolve(p));
const LOG = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const START = 'dist/explain-tree/start.js';
const explain = (root) =>
  spawnSync(opt.node, [path.join(root, 'dist/cli.js'), 'explain', LOG, '--no-machine'], { encoding: 'utf8' }).stdout;

// the functions of start.js the run executes, by name
const logfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ged-eager-')), 'v8.log');
spawnSync(opt.node, [
  '--log-function-events',
  `--logfile=${logfile}`,
  '--no-logfile-per-isolate',
  path.join(build, 'dist/cli.js'),
  'explain',
  LOG,
  '--no-machine',
]);
const v8log = fs.readFileSync(logfile, 'utf8').split('\n');
const script = v8log.map((l) => l.split(',')).find((f) => f[0] === 'script-details' && f[2]?.endsWith(START))?.[1];
const names = new Set(
  v8log
    .map((l) => l.split(','))
    .filter((f) => f[0] === 'function' && f[1] === 'first-execution' && f[2] === script)
    .map((f) => f[7]),
);
fs.rmSync(path.dirname(logfile), { recursive: true, force: true });

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.cpSync(path.join(build, 'dist'), path.join(out, 'dist'), { recursive: true });
fs.copyFileSync(path.join(build, 'package.json'), path.join(out, 'package.json'));
const lines = fs.readFileSync(path.join(out, START), 'utf8').split('\n');
let wrapped = 0;
let open = false;
for (let i = 0; i < lines.length; i++) {
  const m = /^function (\w+)\(/.exec(lines[i]);
  if (m && names.has(m[1]) && !lines[i].endsWith('}')) {
    lines[i] = `var ${m[1]} = (${lines[i]}`;
    open = true;
    wrapped++;
  } else if (open && lines[i] === '}') {
    lines[i] = '});';
    open = false;
  }
}
fs.writeFileSync(path.join(out, START), lines.join('\n'));
const same = explain(out) === explain(build);
console.log(`${names.size} functions of ${START} run; ${wrapped} top-level declarations parenthesised in ${out}`);
console.log(same ? 'output: the same as the build' : 'output: DIFFERS from the build (a function used while loading?)');
process.exit(same ? 0 : 1);
