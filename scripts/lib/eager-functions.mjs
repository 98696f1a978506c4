// explain's start file, rewritten for a short explain's first moments (the build's last step; the sources stay as
// they are, and the step checks that the rewritten build prints what the build printed):
// - The functions a short explain runs compiled with the file, not at their first call. V8 compiles a function when
//   it is first called, unless it is a parenthesised function expression; Node's compile cache is made when a file is
//   compiled, before it runs, so it holds only what was compiled then: every other function a run calls is compiled
//   again in every process (a 3,000-statement function: several ms at each start). The build asks a short explain
//   which top-level functions of dist/explain-tree/start.js it runs (V8's --log-function-events) and rewrites each
//   `function f(…) {…}` as `var f = (function f(…) {…});` at the head of the file, where a hoisted declaration's
//   value is already there: code that runs while the file loads sees each function as before.
// - Its text in ASCII: esbuild leaves non-ASCII characters in regular expressions and comments (the Chinese
//   wordings), and one of them makes the whole 450 kB source a two-byte string (read, hashed and scanned at every
//   start at twice the size). Each UTF-16 unit above 0x7f becomes \uXXXX, which means the same in a string, a
//   template, a regular expression (with or without the u flag: a pair of escaped surrogates is one code point
//   there), an identifier and a comment.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `source` with the named top-level function declarations (a line starting `function NAME(`, ended by the first
 * line that is `}`, or a declaration on one line) turned into parenthesised expressions assigned at the head of the
 * file (after a "use strict" first line), in their order. Returns the text and the names moved.
 */
export function parenthesise(source, names) {
  const lines = source.split('\n');
  const kept = [];
  const moved = [];
  const head = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^function (\w+)\(/.exec(lines[i]);
    if (!m || !names.has(m[1])) {
      kept.push(lines[i]);
      continue;
    }
    let end = i;
    if (!lines[i].endsWith('}')) {
      end = lines.indexOf('}', i + 1);
      if (end === -1) throw new Error(`function ${m[1]}: no closing line`);
    }
    head.push(`var ${m[1]} = (${lines.slice(i, end + 1).join('\n')});`);
    moved.push(m[1]);
    i = end;
  }
  // a directive prologue ("use strict" of a CommonJS file) stays first, where it applies to the whole file
  const prologue = kept.length > 0 && /^(['"])use strict\1;?$/.test(kept[0]) ? kept.splice(0, 1) : [];
  return { text: [...prologue, ...head, ...kept].join('\n'), moved };
}

/** `source` with every UTF-16 unit above 0x7f written as \uXXXX, upper case as esbuild writes its own escapes (see
 *  the head of this file). */
export function asciiSource(source) {
  return source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** The names of the functions of `file` that the command runs, from V8's function events. */
function functionsRun(node, argv, file, env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-eager-'));
  try {
    const logfile = path.join(dir, 'v8.log');
    const r = spawnSync(node, ['--log-function-events', `--logfile=${logfile}`, '--no-logfile-per-isolate', ...argv], {
      encoding: 'utf8',
      env,
    });
    const events = fs
      .readFileSync(logfile, 'utf8')
      .split('\n')
      .map((l) => l.split(','));
    const url = pathToFileURL(file).href;
    const script = events.find((f) => f[0] === 'script-details' && (f[2] === file || f[2] === url))?.[1];
    const names = events
      .filter((f) => f[0] === 'function' && f[1] === 'first-execution' && f[2] === script)
      .map((f) => f[7]);
    return { names, stdout: r.stdout, status: r.status };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Rewrites `outdir`'s explain start file for the runs `argvs` (each an explain command line after dist/cli.js).
 * Throws when a rewritten build prints anything else than the build did; returns the names moved.
 */
export function eagerExplainStart(outdir, startFile, argvs, node = process.execPath) {
  const cli = path.join(outdir, 'cli.js');
  // no compile cache: the runs must compile the file from its text, and leave no cache of a file about to change
  const env = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1', NO_COLOR: '1', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
  const names = new Set();
  const before = argvs.map((argv) => {
    const r = functionsRun(node, [cli, ...argv], startFile, env);
    for (const n of r.names) names.add(n);
    return r;
  });
  const original = fs.readFileSync(startFile, 'utf8');
  const { text, moved } = parenthesise(asciiSource(original), names);
  fs.writeFileSync(startFile, text);
  for (const [i, argv] of argvs.entries()) {
    const r = spawnSync(node, [cli, ...argv], { encoding: 'utf8', env });
    if (r.stdout !== before[i].stdout || r.status !== before[i].status) {
      fs.writeFileSync(startFile, original);
      throw new Error(`the rewritten start file changes what \`explain ${argv.slice(1).join(' ')}\` prints`);
    }
  }
  return moved;
}
