#!/usr/bin/env node
// Does `explain` say only what is true of its input? Over every input the project holds (the labelled reports of
// test/fixtures/corpus dev, dev2 and dev3, each as the log alone and with the reporter's environment block; the
// H200 captures in test/fixtures/h200/logs and test/fixtures/logs-extra), in English and in Chinese, each cause's
// readings (meaning and reason), fix (text, commands, manual steps) and test are searched for words the input does
// not support:
//   framework   a framework, or a component only one framework has (libtorch_*, DataLoader, TF_*, jaxlib, FLAGS_*,
//               CuPy's pool…), that is not the framework the diagnosis detected (XLA and StreamExecutor belong to
//               both TensorFlow and JAX); with no framework detected, a text that names exactly one framework
//               (a list of several, each with its own setting, is neutral)
//   cuda        a pip wheel's CUDA suffix (nvidia-*-cuNN, jax[cudaNN]) that is none of the CUDA majors the input names
//               (not counted where the same fix also offers the input's own major: then the other is a choice)
//   cudnn       a cuDNN major in a command or library name (nvidia-cudnn-cuNN==M, cudnn64_M.dll, libcudnn.so.M)
//               that is none of the cuDNN majors the input names, where it names one
//   tfWheel     nvidia-* pip wheels for a TensorFlow whose stated version is before 2.14 (those releases load the
//               system's CUDA and cuDNN through LD_LIBRARY_PATH/PATH, never pip's nvidia wheels)
// Prints the count of inputs (× language) with at least one such text, by kind and field; --cases lists them.
// Run: node bench/explain-words.mjs [--cases] [--kind framework|cuda|cudnn|tfWheel]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleAndImport, readCorpora, repo } from '../scripts/explain-tooling.mjs';
import { FAMILY_OF, frameworkProblem } from './lib/framework-words.mjs';

const argv = process.argv.slice(2);
const showCases = argv.includes('--cases');
const onlyKind = argv.includes('--kind') ? argv[argv.indexOf('--kind') + 1] : null;
const m = await bundleAndImport([
  `export { explainText } from ${JSON.stringify(path.join(repo, 'src/judge/explain/engine.ts'))};`,
  `export { textOf } from ${JSON.stringify(path.join(repo, 'src/judge/explain/priors/corpus.ts'))};`,
  `export { setLang } from ${JSON.stringify(path.join(repo, 'src/base/i18n/index.ts'))};`,
]);

/** every input: [name, text] */
const inputs = [];
for (const d of ['dev', 'dev2', 'dev3'])
  for (const c of readCorpora([path.join(repo, 'test/fixtures/corpus', d)])) {
    inputs.push([`${c.id}`, m.textOf(c, 'log')]);
    inputs.push([`${c.id}+env`, m.textOf(c, 'env')]);
  }
for (const d of ['test/fixtures/h200/logs', 'test/fixtures/logs-extra'])
  for (const f of fs
    .readdirSync(path.join(repo, d))
    .filter((x) => /\.(txt|log)$/.test(x))
    .sort())
    inputs.push([f, fs.readFileSync(path.join(repo, d, f), 'utf8')]);

/** a CUDA major as a library's file name writes it: cudart64_110 → 11, cudart64_101 → 10, cublas64_12 → 12 */
function cudaMajorOfTag(tag) {
  if (tag.length >= 3) return String(Number(tag.slice(0, 2)));
  const n = Number(tag);
  return n <= 13 ? String(n) : String(Math.floor(n / 10));
}
const CUDA_IN = [
  /\b(?:lib)?cu(?:dart|blas|blasLt|fft|solver|sparse|rand)(?:64_|\.so\.)(\d+)/gi,
  /\bCUDA(?:\s+Version|\s+version|\s+toolkit|\s+runtime)?\s*[:=]?\s*v?(\d+)\.\d/gi,
  /\bcuda[-_ ]?(\d+)\.\d/gi,
  /\+cu(\d{2,3})\b/g,
  /\bcu(\d{3})\b/g,
  /xla_cuda(\d\d)|jax\[cuda(\d\d)|nvidia-[a-z-]+-cu(\d\d)\b|cuda(1[0-3])(?:-plugin|_plugin|\b)/gi,
];
function cudaMajorsIn(text) {
  const out = new Set();
  for (const re of CUDA_IN)
    for (const mm of text.matchAll(re)) {
      const v = mm.slice(1).find((x) => x !== undefined);
      if (!v) continue;
      out.add(re.source.includes('64_') ? cudaMajorOfTag(v) : String(Number(v.length === 3 ? v.slice(0, 2) : v)));
    }
  return out;
}
const CUDNN_IN = [
  /libcudnn(?:_\w+)?\.so\.(\d+)/gi,
  /cudnn\w*64_(\d+)\.dll/gi,
  /cu[dD][nN][nN](?:\s+version|\s+library)?\s*[:=]?\s*v?(\d)\.\d/gi,
  /\bcudnn[-_ ]?v?(\d)\b/gi,
  /cuDNN version (\d)\d{4}\b/gi,
  /CuDNN library:\s*(\d)/gi,
];
function cudnnMajorsIn(text) {
  const out = new Set();
  for (const re of CUDNN_IN) for (const mm of text.matchAll(re)) out.add(String(Number(mm[1])));
  return out;
}
/** the cuDNN majors an output's commands and library names state */
function cudnnStated(s) {
  const out = new Set();
  for (const mm of s.matchAll(/nvidia-cudnn-cu\d\d==(\d+)/g)) out.add(mm[1]);
  for (const mm of s.matchAll(/cudnn\w*64_(\d+)\.dll/gi)) out.add(mm[1]);
  for (const mm of s.matchAll(/libcudnn\w*\.so\.(\d+)/gi)) out.add(mm[1]);
  return out;
}
function cudaStated(s) {
  const out = new Set();
  for (const mm of s.matchAll(/nvidia-[a-z-]+-cu(\d\d)\b|jax\[cuda(\d\d)(?:_pip|_local)?\]|jax-cuda(\d\d)-/g))
    out.add(String(Number(mm.slice(1).find((x) => x !== undefined))));
  return out;
}
const versionBefore = (v, major, minor) => {
  const mm = /(\d+)\.(\d+)/.exec(v ?? '');
  if (!mm) return null;
  return Number(mm[1]) < major || (Number(mm[1]) === major && Number(mm[2]) < minor);
};

const KINDS = ['framework', 'cuda', 'cudnn', 'tfWheel'];
const FIELDS = ['reading', 'fix', 'test'];

function problemsOf(text, d) {
  const fw = d.environment?.framework?.value;
  const fam = fw ? (FAMILY_OF[fw] ?? null) : null;
  const fwVersion = d.environment?.frameworkVersion?.value;
  const inputCuda = cudaMajorsIn(text);
  const inputCudnn = cudnnMajorsIn(text);
  // a TensorFlow before 2.14: its stated version, or its loader's source path (tensorflow/stream_executor/ up to
  // 2.11, tensorflow/core/platform/ in 1.x; later releases print tsl/ and xla/ paths)
  const tfOld =
    versionBefore(fwVersion, 2, 14) ||
    (/tensorflow\/(?:stream_executor|core\/platform)\/[\w/]*dso_loader/.test(text) ? 'stream_executor path' : null);
  const out = [];
  d.causes.forEach((c, i) => {
    const fields = {
      reading: (c.readings ?? []).flatMap((r) => [r.meaning, r.reason ?? '']),
      fix: [c.fix.text, ...c.fix.commands, ...(c.fix.manual ?? [])],
      test: c.test ? [c.test.text, c.test.command ?? ''] : [],
    };
    // a fix that also offers the input's own CUDA major gives another one as a choice, with its reason
    const offersInput = [...cudaStated(fields.fix.join(' '))].some((v) => inputCuda.has(v));
    for (const [field, texts] of Object.entries(fields)) {
      // with no framework known, a fix or a test is judged whole: a command per framework, each marked, is neutral
      if (!fam && field !== 'reading') {
        const whole = texts.filter(Boolean).join(' | ');
        const f = frameworkProblem(whole, fam, c.id);
        if (f)
          out.push({ kind: 'framework', field, cause: `${i + 1}.${c.id}`, what: `${f} (input: none)`, text: whole });
      }
      for (const s of texts) {
        if (!s) continue;
        const push = (kind, what) => out.push({ kind, field, cause: `${i + 1}.${c.id}`, what, text: s });
        const f = fam || field === 'reading' ? frameworkProblem(s, fam, c.id) : null;
        if (f) push('framework', `${f} (input: ${fw ?? 'none'})`);
        if (field === 'reading') continue;
        const cu = [...cudaStated(s)].filter((v) => inputCuda.size > 0 && !inputCuda.has(v) && !offersInput);
        if (cu.length > 0) push('cuda', `cu${cu.join(',')} (input: ${[...inputCuda].join(',')})`);
        const dn = [...cudnnStated(s)].filter((v) => inputCudnn.size > 0 && !inputCudnn.has(v));
        if (dn.length > 0) push('cudnn', `cuDNN ${dn.join(',')} (input: ${[...inputCudnn].join(',')})`);
        if (fam === 'tf' && tfOld && /nvidia-[a-z-]+-cu\d\d/.test(s)) push('tfWheel', `TF ${fwVersion ?? tfOld}`);
      }
    }
  });
  return out.filter((p) => !onlyKind || p.kind === onlyKind);
}

const total = { inputs: 0 };
const byKind = Object.fromEntries(KINDS.map((k) => [k, { inputs: 0, texts: 0, byField: {} }]));
const cases = [];
for (const lang of ['en', 'zh']) {
  m.setLang(lang);
  for (const [name, text] of inputs) {
    total.inputs++;
    const d = m.explainText(text, { sourceName: name });
    const ps = problemsOf(text, d);
    for (const k of KINDS) {
      const mine = ps.filter((p) => p.kind === k);
      if (mine.length === 0) continue;
      byKind[k].inputs++;
      const seen = new Set(mine.map((p) => `${p.field}|${p.text}`));
      byKind[k].texts += seen.size;
      for (const p of mine) byKind[k].byField[p.field] = (byKind[k].byField[p.field] ?? 0) + 1;
    }
    if (ps.length > 0) cases.push({ name, lang, ps });
  }
}
m.setLang('en');
const any = cases.length;
console.log(
  `explain: words not true of the input, over ${inputs.length} inputs × en/zh = ${total.inputs} answers ` +
    '(corpus dev+dev2+dev3 log and log+env, h200 logs, logs-extra)',
);
console.log(`  answers with any: ${any}`);
for (const k of KINDS) {
  const b = byKind[k];
  const fields = FIELDS.filter((f) => b.byField[f])
    .map((f) => `${f} ${b.byField[f]}`)
    .join(', ');
  console.log(
    `  ${k.padEnd(10)} answers ${String(b.inputs).padStart(4)}   texts ${String(b.texts).padStart(4)}   ${fields}`,
  );
}
if (showCases)
  for (const c of cases)
    for (const p of c.ps)
      console.log(`${c.name} [${c.lang}] ${p.cause} ${p.field} ${p.kind}: ${p.what}\n    ${p.text.slice(0, 200)}`);
