#!/usr/bin/env node
// Regroups src/ by the code's flow (scripts/regroup/mapping.mjs), as a script so that it can be re-run on a tree
// that other branches changed meanwhile:
//   node scripts/regroup/regroup.mjs --dry-run   prints the plan (moves, rewritten files, unmapped files)
//   node scripts/regroup/regroup.mjs             does it: `git mv` for each move, then rewrites the references
//   node scripts/regroup/regroup.mjs --rules     prints the mapping as a Markdown table
// References rewritten: every relative specifier ('./x.js', '../y.json', './z.py?raw', `import('../a.js')`,
// `new URL('../b/', …)`) in src/, test/, bench/, scripts/, gpu-lab/ and the vitest configs, whose target is a file
// or folder of the tree; every path written from the repository root (`src/a/b.ts`, `src\/a\/b\.ts` and
// `[\\/]src[\\/]a[\\/]` in regexes) there and in tsconfig.json, package.json, .ci/run and docs/ARCHITECTURE.md.
// A reference is rewritten only when what it names exists, so text that merely looks like a path stays.
// Idempotent: on a regrouped tree no rule matches an existing file and nothing changes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from './mapping.mjs';

const P = path.posix;
const SELF = P.join('scripts', 'regroup');
const CODE_EXT = /\.(?:ts|mts|cts|mjs|js|cjs)$/;
const ROOT_FILES = new Set([
  'vitest.config.ts',
  'vitest.bench.config.ts',
  'tsconfig.json',
  'package.json',
  '.ci/run',
  'docs/ARCHITECTURE.md',
  'biome.json',
]);

// ---- the mapping ------------------------------------------------------------------------------------------------

/** The new place of a path relative to src/ (a file, or a folder when `dir`), or null when no rule covers it. */
export function mapInSrc(rel, dir = false) {
  let best = null;
  for (const [from, to] of RULES) {
    const hit = from.endsWith('/') ? (dir ? `${rel}/` : rel).startsWith(from) : !dir && rel === from;
    if (hit && (!best || from.length > best[0].length)) best = [from, to];
  }
  if (!best) return null;
  const [from, to] = best;
  if (!from.endsWith('/')) return to;
  const rest = (dir ? `${rel}/` : rel).slice(from.length);
  const out = to + rest;
  return dir ? out.replace(/\/$/, '') : out;
}

/** The new place of a path relative to the repository (identity outside src/ and for unmapped files). */
export function mapRepoPath(p, dir = false) {
  if (p === 'src' || !p.startsWith('src/')) return p;
  const m = mapInSrc(p.slice(4), dir);
  return m === null ? p : m === '' ? 'src' : `src/${m}`;
}

// ---- the tree ---------------------------------------------------------------------------------------------------

function listFiles(repo) {
  const out = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const files = [...new Set(out.split('\0').filter(Boolean))].filter(
    (f) => fs.existsSync(path.join(repo, f)) && fs.statSync(path.join(repo, f)).isFile(),
  );
  const tracked = new Set(
    execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter(Boolean),
  );
  const dirs = new Set();
  for (const f of files) for (let d = P.dirname(f); d !== '.'; d = P.dirname(d)) dirs.add(d);
  return { files: new Set(files), tracked, dirs };
}

function scanned(f) {
  if (f.startsWith(`${SELF}/`)) return false; // the mapping names the old paths on purpose
  if (ROOT_FILES.has(f)) return true;
  if (f.startsWith('test/fixtures/')) return false; // captured data
  // the READMEs and data beside the code: only paths that exist are rewritten (the catalog's generated.json says
  // which folder it was generated from)
  if (f.startsWith('src/') && (f.endsWith('.md') || f.endsWith('.json'))) return true;
  if (f.startsWith('src/') || f.startsWith('test/') || f.startsWith('bench/') || f.startsWith('scripts/'))
    return CODE_EXT.test(f) || f.endsWith('.sh');
  if (f.startsWith('gpu-lab/')) return CODE_EXT.test(f) || f.endsWith('.sh');
  return false;
}

// ---- rewriting references -----------------------------------------------------------------------------------------

/** What a path relative to the repository names in the old tree: a file (with the .js→.ts of the specifiers), a folder, or nothing. */
function resolveOld(tree, p) {
  const bare = p.replace(/\/$/, '');
  if (tree.files.has(bare)) return { kind: 'file', path: bare, js: false };
  if (bare.endsWith('.js') && tree.files.has(bare.replace(/\.js$/, '.ts')))
    return { kind: 'file', path: bare.replace(/\.js$/, '.ts'), js: true };
  if (tree.dirs.has(bare)) return { kind: 'dir', path: bare, js: false };
  return null;
}

function newPathOf(target) {
  const m = mapRepoPath(target.path, target.kind === 'dir');
  return target.js ? m.replace(/\.ts$/, '.js') : m;
}

const REL_LITERAL = /(['"`])(\.\.?\/[^'"`\s$]*)\1/g;
const MD_LINK = /\]\((\.\.?\/[^)\s#]+)/g;
// `src/…` written from the repository root, not inside another path (aten/src/…, jax/_src/…)
const ROOT_PATH = /(?<![\w@$-])(?<![\w-]\/)src\/((?:[\w.-]+\/)*[\w.-]*)/g;
// the same in a regex: src\/a\/b\.ts or [\\/]src[\\/]a[\\/]
const RE_PATH = /src((?:\\\/|\[\\\\\/\])[\w-]+(?:\\\.\w+)?)+/g;

function rewriteRelative(spec, oldFile, newFile, tree) {
  const q = spec.indexOf('?');
  const bare = q < 0 ? spec : spec.slice(0, q);
  const query = q < 0 ? '' : spec.slice(q);
  if (!/[\w-]/.test(bare)) return null; // './', '../': a folder of its own, not a name
  const target = P.normalize(P.join(P.dirname(oldFile), bare));
  if (target.startsWith('..')) return null;
  const t = resolveOld(tree, target);
  if (!t) return null;
  const to = newPathOf(t);
  if (oldFile === newFile && to === (t.js ? t.path.replace(/\.ts$/, '.js') : t.path)) return null;
  let rel = P.relative(P.dirname(newFile), to);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (bare.endsWith('/')) rel += '/';
  return rel === bare ? null : rel + query;
}

function rewriteRootPath(captured, tree) {
  const trail = /[.]+$/.exec(captured)?.[0] ?? ''; // a sentence's full stop is not part of the path
  const rel = captured.slice(0, captured.length - trail.length);
  if (rel === '' || rel === '/') return null;
  const t = resolveOld(tree, `src/${rel}`);
  if (!t) return null;
  const to = newPathOf(t);
  const now = `src/${rel.replace(/\/$/, '')}`;
  if (to === now) return null;
  return `${to.slice(4)}${rel.endsWith('/') ? '/' : ''}${trail}`;
}

function rewriteRegexPath(match, tree) {
  const sep = match.slice(3).startsWith('\\/') ? '\\/' : '[\\\\/]';
  const segs = match
    .slice(3)
    .split(sep)
    .slice(1)
    .map((s) => s.replace(/\\\./g, '.'));
  for (let n = segs.length; n > 0; n--) {
    const t = resolveOld(tree, ['src', ...segs.slice(0, n)].join('/'));
    if (!t) continue;
    const to = newPathOf(t).split('/');
    const now = ['src', ...segs.slice(0, n)];
    if (to.join('/') === now.join('/')) return null;
    const esc = (s) => s.replace(/\./g, '\\.');
    return [...to, ...segs.slice(n)].map(esc).join(sep);
  }
  return null;
}

/** The file's text with its references rewritten, and how many were. */
export function rewriteText(text, oldFile, newFile, tree) {
  let n = 0;
  let out = text;
  const isMd = oldFile.endsWith('.md');
  const isCode = CODE_EXT.test(oldFile);
  if (isCode) {
    out = out.replace(REL_LITERAL, (m, quote, spec) => {
      const r = rewriteRelative(spec, oldFile, newFile, tree);
      if (r === null) return m;
      n++;
      return `${quote}${r}${quote}`;
    });
  }
  if (isMd) {
    out = out.replace(MD_LINK, (m, spec) => {
      const r = rewriteRelative(spec, oldFile, newFile, tree);
      if (r === null) return m;
      n++;
      return `](${r}`;
    });
  }
  out = out.replace(ROOT_PATH, (m, captured) => {
    const r = rewriteRootPath(captured, tree);
    if (r === null) return m;
    n++;
    return `src/${r}`;
  });
  if (isCode) {
    out = out.replace(RE_PATH, (m) => {
      const r = rewriteRegexPath(m, tree);
      if (r === null) return m;
      n++;
      return r;
    });
  }
  return { text: out, count: n };
}

// ---- the plan and its execution -------------------------------------------------------------------------------------

export function plan(repo) {
  const tree = listFiles(repo);
  const moves = [];
  const unmapped = [];
  for (const f of [...tree.files].sort()) {
    if (!f.startsWith('src/')) continue;
    if (mapInSrc(f.slice(4)) === null) {
      unmapped.push(f);
      continue;
    }
    const to = mapRepoPath(f);
    if (to !== f) moves.push([f, to]);
  }
  const dest = new Map();
  const leaving = new Set(moves.map(([f]) => f));
  const problems = [];
  for (const [f, to] of moves) {
    if (dest.has(to)) problems.push(`${f} and ${dest.get(to)} would both become ${to}`);
    dest.set(to, f);
    if (tree.files.has(to) && !leaving.has(to)) problems.push(`${f} → ${to}: a file is already there`);
  }
  const newOf = new Map(moves);
  const rewrites = [];
  for (const f of [...tree.files].sort()) {
    if (!scanned(f)) continue;
    const text = fs.readFileSync(path.join(repo, f), 'utf8');
    const to = newOf.get(f) ?? f;
    const r = rewriteText(text, f, to, tree);
    if (r.count > 0) rewrites.push({ from: f, to, count: r.count, text: r.text });
  }
  return { tree, moves, unmapped, problems, rewrites };
}

function removeEmptyDirs(dir) {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) removeEmptyDirs(path.join(dir, e.name));
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

export function apply(repo, p) {
  for (const [from, to] of p.moves) {
    fs.mkdirSync(path.dirname(path.join(repo, to)), { recursive: true });
    if (p.tree.tracked.has(from)) execFileSync('git', ['mv', '--', from, to], { cwd: repo, stdio: 'inherit' });
    else fs.renameSync(path.join(repo, from), path.join(repo, to));
  }
  for (const r of p.rewrites) fs.writeFileSync(path.join(repo, r.to), r.text);
  removeEmptyDirs(path.join(repo, 'src'));
  // the rewritten files staged with their moves, so `git status` shows renames
  const staged = p.rewrites
    .map((r) => r.to)
    .filter((f) => p.tree.tracked.has(f) || p.moves.some(([a, b]) => b === f && p.tree.tracked.has(a)));
  for (let i = 0; i < staged.length; i += 200)
    execFileSync('git', ['add', '--', ...staged.slice(i, i + 200)], { cwd: repo });
}

function main(argv) {
  const dry = argv.includes('--dry-run') || argv.includes('-n');
  const unknown = argv.filter((a) => !['--dry-run', '-n', '--rules'].includes(a));
  if (unknown.length > 0) {
    console.error(
      `regroup: unknown argument ${unknown[0]} (usage: node scripts/regroup/regroup.mjs [--dry-run | --rules])`,
    );
    process.exit(2);
  }
  if (argv.includes('--rules')) {
    // the mapping as a Markdown table, for the notes
    console.log('| from (src/) | to (src/) | why |\n| --- | --- | --- |');
    for (const [from, to, why] of RULES)
      if (from !== to) console.log(`| \`${from}\` | \`${to}\` | ${why.replace(/\|/g, '\\|')} |`);
    return;
  }
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const p = plan(repo);
  if (p.problems.length > 0) {
    console.error(`regroup: the plan has conflicts, nothing was changed:\n  ${p.problems.join('\n  ')}`);
    process.exit(1);
  }
  const specs = p.rewrites.reduce((a, r) => a + r.count, 0);
  if (dry) {
    for (const [from, to] of p.moves) console.log(`move     ${from} → ${to}`);
    for (const r of p.rewrites)
      console.log(
        `rewrite  ${r.to}${r.to === r.from ? '' : ` (was ${r.from})`}: ${r.count} reference${r.count === 1 ? '' : 's'}`,
      );
  }
  for (const f of p.unmapped) console.log(`UNMAPPED ${f}: no rule in scripts/regroup/mapping.mjs; left where it is`);
  if (p.moves.length === 0 && specs === 0) {
    console.log('regroup: nothing to do (the tree is already regrouped)');
    return;
  }
  console.log(
    `regroup: ${p.moves.length} files moved, ${specs} references rewritten in ${p.rewrites.length} files${dry ? ' (dry run: nothing changed)' : ''}`,
  );
  if (!dry) apply(repo, p);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
