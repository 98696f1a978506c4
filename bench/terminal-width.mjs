#!/usr/bin/env node
// How many terminal lines are wider than the terminal: every input the terminal views are measured on, rendered by
// the built CLI at COLUMNS=60, 80 and 100, in English and Chinese, and each line's display width (a wide CJK
// character counts two, colour codes none) compared with the width.
// Inputs: every corpus report (test/fixtures/corpus dev, dev2, dev3: the log alone, and with its environment
// block, as bench/explain-accuracy.mjs reads them) and the captured logs (test/fixtures/h200/logs, logs-extra,
// logs-zh) through `explain --no-machine`; the captured logs again with `--from` the held snapshot; the repro logs
// that have a snapshot beside them through `explain LOG --from SNAPSHOT`; every snapshot of test/fixtures/snapshots
// and examples/snapshots through `check --from`, `check --from -v` and `libs --from`; `fleet` over both folders.
// A line over the width is counted as a command (after "$ ", or after a command's line ending in " \\") or as text.
// Run: npm run build && node bench/terminal-width.mjs [--cli FILE] [--jobs N] [--widths 60,80,100] [--show N]
//   --show N prints the first N lines over the width (English; at --show-width W, default 80) with their input.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTooling } from '../scripts/explain-tooling.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
const CLI = path.resolve(opt('--cli', path.join(repo, 'dist/cli.js')));
const JOBS = Number(opt('--jobs', '2'));
const WIDTHS = opt('--widths', '60,80,100').split(',').map(Number);
const SHOW = Number(opt('--show', '0'));
const SHOW_WIDTH = Number(opt('--show-width', '80'));

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
function isWide(cp) {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}
/** the same count as src/report/layout.ts displayWidth (kept apart: this script measures the built CLI only) */
function displayWidth(s) {
  let w = 0;
  for (const ch of s.replace(SGR, '')) {
    const cp = ch.codePointAt(0);
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x300 && cp < 0x370) || cp === 0x200b) continue;
    w += isWide(cp) ? 2 : 1;
  }
  return w;
}

/** the environment block of a report, as the accuracy bench writes it (src/judge/explain/priors/corpus.ts textOf) */
const { textOf } = await loadTooling();
const withEnv = (c) => textOf(c, 'env');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'terminal-width-'));
const list = (d, re) =>
  fs.existsSync(path.join(repo, d)) && fs.statSync(path.join(repo, d)).isDirectory()
    ? fs
        .readdirSync(path.join(repo, d))
        .filter((f) => re.test(f))
        .sort()
        .map((f) => path.join(repo, d, f))
    : [];

/** [name, args] for every case */
const cases = [];
for (const dir of ['dev', 'dev2', 'dev3']) {
  for (const f of list(`test/fixtures/corpus/${dir}`, /\.json$/)) {
    const c = JSON.parse(fs.readFileSync(f, 'utf8'));
    const id = `${dir}-${path.basename(f, '.json')}`;
    const log = path.join(tmp, `${id}.log`);
    fs.writeFileSync(log, String(c.log ?? ''));
    const env = path.join(tmp, `${id}.env.log`);
    fs.writeFileSync(env, withEnv(c));
    cases.push([`${id} log`, ['explain', log, '--no-machine']]);
    cases.push([`${id} env`, ['explain', env, '--no-machine']]);
  }
}
const held = path.join(repo, 'test/fixtures/snapshots/h200-memory-held.json');
for (const f of ['test/fixtures/h200/logs', 'test/fixtures/logs-extra', 'test/fixtures/logs-zh'].flatMap((d) =>
  list(d, /\.(txt|log)$/),
)) {
  cases.push([path.relative(repo, f), ['explain', f, '--no-machine']]);
  cases.push([`${path.relative(repo, f)} --from held`, ['explain', f, '--from', held]]);
}
for (const d of fs.readdirSync(path.join(repo, 'test/fixtures/repro')).sort()) {
  for (const snap of list(`test/fixtures/repro/${d}`, /\.snapshot\.json$/)) {
    const log = snap.replace(/\.snapshot\.json$/, '.log');
    if (fs.existsSync(log)) cases.push([path.relative(repo, log), ['explain', log, '--from', snap]]);
  }
}
const snaps = ['test/fixtures/snapshots', 'examples/snapshots'].flatMap((d) => list(d, /\.json$/));
for (const s of snaps) {
  const r = path.relative(repo, s);
  cases.push([`check ${r}`, ['check', '--from', s]]);
  cases.push([`check -v ${r}`, ['check', '--from', s, '-v']]);
  cases.push([`libs ${r}`, ['libs', '--from', s]]);
}
for (const d of ['test/fixtures/snapshots', 'examples/snapshots'])
  cases.push([`fleet ${d}`, ['fleet', path.join(repo, d)]]);

function run(args, lang, width) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args, '--lang', lang], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', COLUMNS: String(width), TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('close', () => resolve(out));
  });
}

const COMMAND = /^\s*(?:\S+\s+)?\$ /;
const jobs = [];
for (const [name, args] of cases)
  for (const lang of ['en', 'zh']) for (const width of WIDTHS) jobs.push({ name, args, lang, width });
const tally = {}; // `${lang} ${width}` -> { lines, text, command, outputs }
const shown = [];
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const j = jobs[next++];
    const out = await run(j.args, j.lang, j.width);
    const t = (tally[`${j.lang} ${j.width}`] ??= { lines: 0, text: 0, command: 0, outputs: 0, longest: 0 });
    let any = false;
    let continued = false; // the line before ended a command's line with " \\"
    for (const line of out.split('\n')) {
      t.lines++;
      const command = continued || COMMAND.test(line.replace(SGR, ''));
      continued = command && line.endsWith(' \\');
      const w = displayWidth(line);
      if (w <= j.width) continue;
      any = true;
      t.longest = Math.max(t.longest, w);
      if (command) t.command++;
      else t.text++;
      if (j.lang === 'en' && j.width === SHOW_WIDTH && shown.length < SHOW) shown.push(`${j.name}: ${line}`);
    }
    if (any) t.outputs++;
  }
}
await Promise.all(Array.from({ length: JOBS }, worker));
fs.rmSync(tmp, { recursive: true, force: true });

console.log(`${cases.length} inputs, ${jobs.length} runs of ${path.relative(process.cwd(), CLI) || CLI}`);
console.log('| lang | width | lines | over: text | over: "$ " command | outputs with a line over | longest |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const lang of ['en', 'zh'])
  for (const w of WIDTHS) {
    const t = tally[`${lang} ${w}`];
    console.log(`| ${lang} | ${w} | ${t.lines} | ${t.text} | ${t.command} | ${t.outputs} | ${t.longest} |`);
  }
for (const s of shown) console.log(s);
