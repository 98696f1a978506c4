#!/usr/bin/env node
// Accuracy of `explain` over the labelled corpus (shared/corpus/dev): top-1 and top-3 per cause, with
// --no-machine, for (a) the log alone and (b) the log plus the reporter's `env` facts appended as an
// issue-template block; and a plain keyword matcher for comparison.
// Run: node scripts/build.mjs && node bench/explain-accuracy.mjs [CORPUS_DIR] [--cases] [--json]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const argv = process.argv.slice(2);
// The shared corpus when it is beside the checkout (it may have grown), else the copy in the test fixtures.
const shared = path.resolve(here, '../../shared/corpus/dev');
const dir = argv.find((a) => !a.startsWith('--')) ?? (fs.existsSync(shared) ? shared : path.resolve(here, '../test/fixtures/corpus/dev'));
const showCases = argv.includes('--cases');

const FW_NAMES = { tensorflow: 'TensorFlow', pytorch: 'PyTorch', jax: 'JAX', keras: 'Keras', other: null };

/** The reporter's facts as users paste them: the lines of the TensorFlow/PyTorch issue templates. */
export function envBlock(c) {
  const e = c.env ?? {};
  const lines = ['', '**System information**'];
  const fwName = FW_NAMES[c.framework] ?? null;
  if (fwName) lines.push(`- ${fwName} version: ${c.framework_version ?? 'unknown'}`);
  else if (c.framework_version) lines.push(`- Framework: ${c.framework_version}`);
  if (e.os) lines.push(`- OS Platform and Distribution: ${e.os}`);
  if (e.python) lines.push(`- Python version: ${e.python}`);
  if (e.install) lines.push(`- Installed using: ${e.install}`);
  if (e.cuda) lines.push(`- CUDA version: ${e.cuda}`);
  if (e.cudnn) lines.push(`- cuDNN version: ${e.cudnn}`);
  if (e.driver) lines.push(`- NVIDIA driver version: ${e.driver}`);
  if (e.gpu) lines.push(`- GPU model and memory: ${e.gpu}`);
  if (e.other) lines.push(`- Other: ${e.other}`);
  if (e.note) lines.push(`- Notes: ${e.note}`);
  return lines.join('\n');
}

function explain(text) {
  const r = spawnSync(process.execPath, [CLI, 'explain', '-', '--json', '--no-machine'], { input: text, encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
  if (r.status !== 0 && r.status !== 1) throw new Error(`explain failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout).causes.map((c) => c.id);
}

/** What a plain keyword matcher does: the first keyword found decides. */
const KEYWORDS = [
  [/out of memory|OutOfMemory|OOM|RESOURCE_EXHAUSTED|ALLOC_FAILED/i, 'gpu_memory_exhausted'],
  [/Loaded runtime CuDNN|cuDNN version incompatibility|cudnn/i, 'cudnn_version_mismatch'],
  [/driver version is insufficient|driver on your system is too old|PTX/i, 'driver_too_old'],
  [/cannot open shared object|Could not load dynamic library|\.dll/i, 'library_missing'],
  [/sm_\d+ is not compatible|no kernel image|ARCH_MISMATCH/i, 'gpu_arch_unsupported'],
  [/No CUDA GPUs|no CUDA-capable device|Found no NVIDIA driver/i, 'no_device_visible'],
  [/ECC|Xid|unspecified launch failure|unknown error/i, 'hardware_or_driver_fault'],
  [/cublas/i, 'gpu_memory_exhausted'],
];
function keyword(text) {
  for (const [re, id] of KEYWORDS) if (re.test(text)) return [id];
  return [];
}

const cases = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
const modes = {
  'log alone': (c) => explain(c.log),
  'log + env block': (c) => explain(`${c.log}\n${envBlock(c)}\n`),
  'keyword baseline (log + env)': (c) => keyword(`${c.log}\n${envBlock(c)}`),
};
const results = {};
const perCase = [];
for (const [mode, run] of Object.entries(modes)) {
  const per = {};
  let top1 = 0, top3 = 0, top1Lenient = 0, top3Lenient = 0;
  for (const c of cases) {
    const ranked = run(c);
    const ok = (ids) => ids.includes(c.label);
    const okL = (ids) => ids.includes(c.label) || (c.secondary != null && ids.includes(c.secondary));
    const p = (per[c.label] ??= { n: 0, top1: 0, top3: 0 });
    p.n++;
    if (ok(ranked.slice(0, 1))) { top1++; p.top1++; }
    if (ok(ranked.slice(0, 3))) { top3++; p.top3++; }
    if (okL(ranked.slice(0, 1))) top1Lenient++;
    if (okL(ranked.slice(0, 3))) top3Lenient++;
    if (mode === 'log + env block') perCase.push({ id: c.id, label: c.label, secondary: c.secondary, got: ranked.slice(0, 3) });
  }
  results[mode] = { n: cases.length, top1: top1 / cases.length, top3: top3 / cases.length, top1Lenient: top1Lenient / cases.length, top3Lenient: top3Lenient / cases.length, per };
}

if (argv.includes('--json')) {
  console.log(JSON.stringify({ corpus: dir, results, cases: perCase }, null, 2));
  process.exit(0);
}
const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);
console.log(`explain accuracy over ${cases.length} labelled reports in ${dir} (--no-machine)`);
console.log('"lenient" also accepts the thread\'s secondary label.\n');
console.log(`${'mode'.padEnd(30)} ${'top-1'.padStart(6)} ${'top-3'.padStart(6)}  ${'top-1 lenient'.padStart(13)} ${'top-3 lenient'.padStart(13)}`);
for (const [mode, r] of Object.entries(results)) console.log(`${mode.padEnd(30)} ${pct(r.top1)} ${pct(r.top3)}  ${pct(r.top1Lenient).padStart(13)} ${pct(r.top3Lenient).padStart(13)}`);
console.log('\nper cause (top-1 / top-3):');
const labels = [...new Set(cases.map((c) => c.label))].sort();
console.log(`${'cause'.padEnd(30)} ${'n'.padStart(3)}  ${Object.keys(results).map((m) => m.slice(0, 22).padStart(22)).join(' ')}`);
for (const l of labels) {
  const cells = Object.values(results).map((r) => { const p = r.per[l] ?? { n: 0, top1: 0, top3: 0 }; return `${p.top1}/${p.top3} of ${p.n}`.padStart(22); });
  console.log(`${l.padEnd(30)} ${String(results['log alone'].per[l]?.n ?? 0).padStart(3)}  ${cells.join(' ')}`);
}
if (showCases) {
  console.log('\nmisses with the env block (top-1):');
  for (const c of perCase) if (c.got[0] !== c.label) console.log(`  ${c.id} label=${c.label}${c.secondary ? `/${c.secondary}` : ''} got=${c.got.join(',') || '(none)'}`);
}
