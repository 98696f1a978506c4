#!/usr/bin/env node
// Every command × format over the fixtures and examples the CLI accepts, one file per case, so that a change that
// must not change any output (a regrouping of src/, a formatter run) can be proved byte-identical:
//   node scripts/compare-outputs.mjs OUT                 writes OUT/<case>.txt for every case
//   node scripts/compare-outputs.mjs OUT --against DIR   then compares OUT with DIR (exit 1 when any case differs)
//   node scripts/compare-outputs.mjs OUT --against DIR --no-run   compares two folders already written
// Options: --cli FILE (default dist/cli.js of this checkout), --jobs N (default 2).
// Each case runs the built CLI with a scrubbed environment (PATH, NO_COLOR, LANG=C.UTF-8, TZ=UTC, COLUMNS=80),
// --no-color, and a fixed clock (Date.now and new Date() preloaded to one instant), so that "taken 3 h ago" reads
// the same on every run. Each file holds the arguments, the exit code, stdout, stderr and the file written by
// --html; the checkout's path and the temporary folder are replaced by <REPO> and <TMP>.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXED_NOW = Date.UTC(2026, 11, 3, 12, 0, 0);
const CLOCK = `const FIXED = ${FIXED_NOW};
const RealDate = Date;
class FixedDate extends RealDate {
  constructor(...a) { if (a.length === 0) super(FIXED); else super(...a); }
  static now() { return FIXED; }
}
globalThis.Date = FixedDate;
`;

function usage(msg) {
  console.error(
    `compare-outputs: ${msg}\nusage: node scripts/compare-outputs.mjs OUT [--against DIR] [--no-run] [--cli FILE] [--jobs N]`,
  );
  process.exit(2);
}

function parse(argv) {
  const o = { out: null, against: null, run: true, cli: path.join(repo, 'dist/cli.js'), jobs: 2 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--against') o.against = argv[++i] ?? usage('--against needs a folder');
    else if (a === '--no-run') o.run = false;
    else if (a === '--cli') o.cli = path.resolve(argv[++i] ?? usage('--cli needs a file'));
    else if (a === '--jobs') o.jobs = Number(argv[++i]);
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else if (o.out === null) o.out = a;
    else usage(`one output folder only (${a})`);
  }
  if (o.out === null) usage('no output folder');
  if (!Number.isInteger(o.jobs) || o.jobs < 1) usage('--jobs needs a positive whole number');
  return o;
}

function listDir(d, re) {
  const abs = path.join(repo, d);
  return fs.existsSync(abs)
    ? fs
        .readdirSync(abs)
        .filter((f) => re.test(f))
        .sort()
        .map((f) => path.join(d, f))
    : [];
}

/** Every case: [name, argv, htmlFile?] with paths relative to the repository (the cases run there). */
function cases(tmp) {
  const out = [];
  const add = (name, argv, html = false) => out.push({ name, argv, html });
  const snaps = [
    ...listDir('examples/snapshots', /\.json$/),
    ...listDir('test/fixtures/snapshots', /\.json$/),
    ...listDir('test/fixtures/redact', /\.json$/),
  ];
  const logs = [
    ...listDir('test/fixtures/h200/logs', /\.txt$/),
    ...listDir('test/fixtures/logs-extra', /\.log$/),
    ...listDir('test/fixtures/logs-zh', /\.log$/),
    ...listDir('test/fixtures/gather', /\.txt$/),
  ];
  const base = (p) => p.replace(/[\\/]/g, '_').replace(/\.(json|txt|log)$/, '');
  const formats = [
    ['term', []],
    ['json', ['--json']],
    ['md', ['--markdown']],
    ['zh', ['--lang', 'zh']],
    ['v', ['-v']],
  ];
  for (const s of snaps) {
    const b = base(s);
    for (const [f, extra] of formats) add(`check-${b}-${f}`, ['check', '--from', s, ...extra]);
    add(`check-${b}-redact`, ['check', '--from', s, '--redact']);
    add(`check-${b}-quiet`, ['check', '--from', s, '-q']);
    add(`check-${b}-prom`, ['check', '--from', s, '--format', 'prometheus']);
    add(`check-${b}-html`, ['check', '--from', s, '--html', '<HTML>'], true);
    add(`check-${b}-html-zh`, ['check', '--from', s, '--lang', 'zh', '--html', '<HTML>'], true);
    for (const [f, extra] of [
      ['term', []],
      ['json', ['--json']],
      ['v', ['-v']],
      ['zh', ['--lang', 'zh']],
    ])
      add(`libs-${b}-${f}`, ['libs', '--from', s, ...extra]);
    for (const [f, extra] of [
      ['term', []],
      ['json', ['--json']],
      ['zh', ['--lang', 'zh']],
      ['redact', ['--redact']],
    ])
      add(`procs-${b}-${f}`, ['procs', '--from', s, ...extra]);
    for (const [f, extra] of [
      ['term', []],
      ['json', ['--json']],
      ['zh', ['--lang', 'zh']],
    ])
      add(`fix-${b}-${f}`, ['fix', '--dry-run', '--from', s, ...extra]);
    add(`snapshot-${b}`, ['snapshot', '--from', s]);
    add(`snapshot-${b}-redact`, ['snapshot', '--from', s, '--redact']);
    for (const spec of ['torch==2.1.0+cu121', 'tensorflow==2.12', 'jax[cuda12]==0.4.30']) {
      add(`compat-${b}-${spec}`, ['compat', spec, '--from', s]);
      add(`compat-${b}-${spec}-json`, ['compat', spec, '--from', s, '--json']);
    }
  }
  for (const spec of [
    'torch==2.1.0+cu121',
    'torch==2.5.1',
    'tensorflow==2.12',
    'jax[cuda12]==0.4.30',
    'paddlepaddle-gpu==2.6.1.post120',
    'paddle==3.0.0',
    'torch==9.9.9',
    'nonsense',
  ]) {
    for (const [f, extra] of formats) add(`compat-nomachine-${spec}-${f}`, ['compat', spec, '--no-machine', ...extra]);
    add(`compat-nomachine-${spec}-windows`, ['compat', spec, '--no-machine', '--platform', 'windows']);
  }
  for (const l of logs) {
    const b = base(l);
    for (const [f, extra] of formats) add(`explain-${b}-${f}`, ['explain', l, '--no-machine', ...extra]);
    add(`explain-${b}-html`, ['explain', l, '--no-machine', '--html', '<HTML>'], true);
    add(`explain-${b}-redact`, ['explain', l, '--no-machine', '--redact']);
  }
  for (const l of logs.slice(0, 8)) {
    for (const s of snaps.slice(0, 3)) add(`explain-${base(l)}-from-${base(s)}`, ['explain', l, '--from', s]);
  }
  for (let i = 0; i < snaps.length; i++) {
    for (let j = 0; j < snaps.length; j++) {
      if (i === j) continue;
      const b = `${base(snaps[i])}--${base(snaps[j])}`;
      add(`diff-${b}-term`, ['diff', snaps[i], snaps[j]]);
      if (j === i + 1) {
        for (const [f, extra] of [
          ['json', ['--json']],
          ['md', ['--markdown']],
          ['zh', ['--lang', 'zh']],
          ['all', ['--all']],
        ])
          add(`diff-${b}-${f}`, ['diff', snaps[i], snaps[j], ...extra]);
      }
    }
  }
  const fleetDir = path.join(tmp, 'fleet');
  fs.mkdirSync(fleetDir, { recursive: true });
  snaps.forEach((s, i) => fs.copyFileSync(path.join(repo, s), path.join(fleetDir, `node-${i}.json`)));
  for (const [f, extra] of [...formats, ['redact', ['--redact']]]) add(`fleet-${f}`, ['fleet', fleetDir, ...extra]);
  add('fleet-html', ['fleet', fleetDir, '--html', '<HTML>'], true);
  for (const fw of ['torch', 'tensorflow', 'jax']) add(`preamble-${fw}`, ['preamble', '--framework', fw]);
  for (const sh of ['bash', 'zsh', 'fish']) add(`completion-${sh}`, ['completion', sh]);
  add('help', ['--help']);
  add('help-zh', ['--help', '--lang', 'zh']);
  add('version', ['--version']);
  for (const c of [
    'check',
    'explain',
    'run',
    'libs',
    'procs',
    'compat',
    'fix',
    'preamble',
    'snapshot',
    'diff',
    'fleet',
    'completion',
    'serve',
  ]) {
    add(`help-${c}`, [c, '--help']);
    add(`help-${c}-zh`, [c, '--help', '--lang', 'zh']);
  }
  // usage errors: one line, exit 2
  add('error-unknown-command', ['frobnicate']);
  add('error-unknown-option', ['check', '--frobnicate']);
  add('error-missing-from', ['check', '--from', 'no/such/file.json']);
  add('error-bad-snapshot', ['check', '--from', 'package.json']);
  add('error-preamble', ['preamble', '--framework', 'caffe']);
  add('error-compat-none', ['compat']);
  add('error-zh', ['check', '--frobnicate', '--lang', 'zh']);
  return out;
}

function runCase(c, o, tmp, clockUrl) {
  return new Promise((resolve) => {
    const htmlFile = path.join(tmp, `${c.name}.html`);
    const argv = c.argv.map((a) => (a === '<HTML>' ? htmlFile : a));
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      COLUMNS: '80',
      HOME: path.join(tmp, 'home'),
    };
    const child = spawn(process.execPath, ['--import', clockUrl, o.cli, ...argv, '--no-color'], {
      cwd: repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const scrub = (s) => s.split(tmp).join('<TMP>').split(repo).join('<REPO>');
      let text = `$ gpu-env-doctor ${c.argv.join(' ')} --no-color\nexit: ${code ?? signal}\n--- stdout\n${Buffer.concat(out).toString('utf8')}\n--- stderr\n${Buffer.concat(err).toString('utf8')}\n`;
      if (c.html)
        text += `--- html\n${fs.existsSync(htmlFile) ? fs.readFileSync(htmlFile, 'utf8') : '(not written)'}\n`;
      fs.writeFileSync(path.join(o.out, `${c.name.replace(/[^\w.=+-]/g, '_')}.txt`), scrub(text));
      resolve();
    });
  });
}

async function runAll(o) {
  if (!fs.existsSync(o.cli)) usage(`${o.cli} does not exist (npm run build first)`);
  fs.mkdirSync(o.out, { recursive: true });
  for (const f of fs.readdirSync(o.out)) if (f.endsWith('.txt')) fs.rmSync(path.join(o.out, f));
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ged-compare-')));
  fs.mkdirSync(path.join(tmp, 'home'));
  const clock = path.join(tmp, 'clock.mjs');
  fs.writeFileSync(clock, CLOCK);
  const all = cases(tmp);
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: o.jobs }, async () => {
      while (next < all.length) await runCase(all[next++], o, tmp, pathToFileURL(clock).href);
    }),
  );
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`compare-outputs: ${all.length} cases written to ${o.out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function compare(a, b) {
  const names = (d) => new Set(fs.readdirSync(d).filter((f) => f.endsWith('.txt')));
  const A = names(a);
  const B = names(b);
  const all = [...new Set([...A, ...B])].sort();
  const differ = [];
  for (const n of all) {
    if (!A.has(n) || !B.has(n)) {
      differ.push(`${n}: only in ${A.has(n) ? a : b}`);
      continue;
    }
    const x = fs.readFileSync(path.join(a, n));
    const y = fs.readFileSync(path.join(b, n));
    if (!x.equals(y)) {
      const xl = x.toString('utf8').split('\n');
      const yl = y.toString('utf8').split('\n');
      let i = 0;
      while (i < xl.length && xl[i] === yl[i]) i++;
      differ.push(`${n}: line ${i + 1}\n    - ${(xl[i] ?? '').slice(0, 160)}\n    + ${(yl[i] ?? '').slice(0, 160)}`);
    }
  }
  console.log(`compare-outputs: ${all.length} cases, ${differ.length} differ`);
  for (const d of differ) console.log(`  ${d}`);
  return differ.length === 0;
}

const o = parse(process.argv.slice(2));
if (o.run) await runAll(o);
if (o.against !== null && !compare(o.against, o.out)) process.exit(1);
