#!/usr/bin/env node
// A generalization check of `explain` that is not the labelled corpus: the shared message catalog
// (../shared/messages/*.json: each message with its source, format, rendered example and the causes it can have).
// Each message's rendered example (or its format with plausible values in its placeholders) is explained alone and
// behind the prefix styles real logs put before a message: a Python traceback, TensorFlow/absl's `E0000 …` prefix,
// a Windows path (a warning's location), a Chinese wrapper line. Scored: the first cause is one of the message's own
// causes (top-1), its first stated cause is among the first three (top-3), and how often nothing was found.
// A status text with no word of its caller (the CUDA runtime's error strings, NVML's) is put behind its caller's
// prefix first, as logs print it.
// Messages whose only cause is `other` (a wrapper whose appended text decides, a status with no cause) are not
// scored; what the engine says for them is counted apart. Messages the project's catalog copy lacks (added to the
// shared catalog later) are scored apart too: they are the unseen part.
// Each text is explained as `explain FILE --json --no-machine` does (the built engine's explainStream, the shipped
// priors). Run: node bench/explain-messages.mjs [--dir DIR] [--text example|format] [--json] [--cases] [--style NAME]
// [--dump FILE]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleAndImport, repo } from '../scripts/explain-tooling.mjs';

const argv = process.argv.slice(2);
const KNOWN = ['--dir', '--json', '--cases', '--style', '--dump', '--text'];
for (const [i, a] of argv.entries()) {
  if (a.startsWith('--') && !KNOWN.includes(a)) {
    console.error(`explain-messages: unknown option ${a} (use ${KNOWN.join(', ')})`);
    process.exit(2);
  }
  if (
    ['--dir', '--style', '--dump', '--text'].includes(a) &&
    (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))
  ) {
    console.error(`explain-messages: ${a} needs a value`);
    process.exit(2);
  }
}
const valueOf = (flag) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
/** the shared catalog beside the checkout (../shared), or beside the worktrees' parent */
const dir = path.resolve(
  valueOf('--dir') ??
    [path.join(repo, '../shared/messages'), path.join(repo, '../../shared/messages')].find((d) => fs.existsSync(d)) ??
    path.join(repo, '../shared/messages'),
);
if (!fs.existsSync(dir)) {
  console.error(`explain-messages: no message catalog at ${dir} (use --dir DIR)`);
  process.exit(2);
}

// Plausible values for a placeholder, by its name, then by the literal text around it. Kept neutral: a value never
// names a cause of its own (no "out of memory" in a string placeholder), so the message's words decide.
const BY_NAME = [
  [/lib|dso|dll|so_?name|library/i, 'libcudnn.so.8'],
  [/path|file|dir/i, '/usr/local/cuda/lib64'],
  [/ver|release|major|minor/i, '12'],
  [/sym/i, 'cudnnCreate'],
  [/dev|gpu|ordinal|rank|idx|index/i, '0'],
  [/name|type|op|kernel|func/i, 'conv2d'],
  [/arch|sm|cap/i, 'sm_90'],
];
function strValue(name, before, after) {
  for (const [re, v] of BY_NAME) if (name && re.test(name)) return v;
  if (/^\.so|^\.dll/i.test(after)) return 'cudnn';
  if (/backend:?\s*'?$|platform:?\s*'?$/i.test(before)) return 'cuda';
  if (/lib$/i.test(before)) return 'cudnn';
  if (/version\s*:?\s*$|v$/i.test(before)) return '12.1';
  if (/(sm_|compute_)$/.test(before)) return '90';
  if (/\bdevice\s*:?\s*$|gpu\s*:?\s*$/i.test(before)) return '0';
  return 'conv2d';
}
/**
 * The value a generic check's entry stands for, where its `versions` text states it (one entry per status of a
 * check such as THC's "cuda runtime error (%d) : %s": "this entry: error 8 = 'invalid device function'", "text
 * 'resource allocation failed' stands for CUBLAS_STATUS_ALLOC_FAILED"): the check prints that number and text.
 */
function statedValue(e) {
  const m = /this entry: error (\d+) = '([^']+)'/.exec(e.versions ?? '');
  if (m) return { int: m[1], str: m[2] };
  const s = /text '([^']+)' stands for/.exec(e.versions ?? '');
  return s ? { str: s[1] } : {};
}
/** glibc's loader prints the object's file name before its error ("NAME: invalid ELF header") */
const LOADER = /^bminor\/glibc$/;
function render(lines, stated = {}, loader = false) {
  return lines
    .map((line) =>
      line
        .map((p, i) => {
          if ('lit' in p) return p.lit;
          if ('raw' in p) return p.example ?? ' ';
          const before = line[i - 1] && 'lit' in line[i - 1] ? line[i - 1].lit : '';
          const after = line[i + 1] && 'lit' in line[i + 1] ? line[i + 1].lit : '';
          if (loader && i === 0 && /^: /.test(after)) return 'libcudnn.so.8';
          if (p.ph === 'int' && stated.int) return stated.int;
          if (p.ph !== 'int' && p.ph !== 'hex' && p.ph !== 'float' && stated.str) return stated.str;
          if (p.ph === 'int') return /version\s*:?\s*$/i.test(before) ? '8902' : '2';
          if (p.ph === 'hex') return '0x1f';
          if (p.ph === 'float') return '1.50';
          return strValue(p.name, before, after);
        })
        .join(''),
    )
    .join('\n');
}

// A status text (the CUDA runtime's and driver's error strings, NVML's) is printed by a caller after its own prefix,
// never bare (catalog/notes.json statusContext): rendered as PyTorch's and pynvml's wrappers print it, whose own words
// name no cause.
const STATUS_WRAP = [
  [/^cuda-/, /cud|\bgpu\b|nccl|\bdevice\b/i, (m) => `CUDA error: ${m}`],
  [/^(py)?nvml-/, /nvml|nvidia|\bgpu\b/i, (m) => `pynvml.nvml.NVMLError: ${m}`],
];
// NCCL prints its own messages through its WARN macro ("host:pid:tid [dev] NCCL WARN …", src/include/debug.h); the
// texts of ncclGetErrorString (src/init.cc: one per ncclResult_t) reach a log through a caller: PyTorch's
// ProcessGroupNCCL, the most common
const NCCL_RESULT_IDS = [
  'unhandled-cuda-error',
  'unhandled-system-error',
  'internal-error',
  'invalid-usage',
  'invalid-argument',
  'remote-error',
  'in-progress',
  'timeout',
  'unknown-result',
];
const NCCL_RESULTS = new RegExp(`^nccl-(?:old-)?(?:${NCCL_RESULT_IDS.join('|')})$`);
const NCCL_WARN = (m) => `node1:1234:1290 [0] NCCL WARN ${m}`;
const NCCL_RESULT = (m) =>
  `RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, ${m}, NCCL version 2.18.1`;
function asPrinted(e, text) {
  if (/^nccl-/.test(e.id) && !/nccl/i.test(text)) return NCCL_RESULTS.test(e.id) ? NCCL_RESULT(text) : NCCL_WARN(text);
  for (const [id, words, wrap] of STATUS_WRAP) if (id.test(e.id) && !words.test(text)) return wrap(text);
  return text;
}

/** the prefix styles: each turns a message (one or more lines) into the text a log shows */
const exceptionLine = (m) => (/^[A-Za-z_.]*(Error|Exception|Warning)\b:? /.test(m) ? m : `RuntimeError: ${m}`);
const STYLES = {
  alone: (m) => m,
  traceback: (m) =>
    [
      'Traceback (most recent call last):',
      '  File "train.py", line 42, in <module>',
      '    model = model.cuda()',
      exceptionLine(m),
    ].join('\n'),
  absl: (m) => `E0000 00:00:1712345678.123456   12345 gpu_util.cc:123] ${m}`,
  windows: (m) =>
    `C:\\Users\\user\\anaconda3\\envs\\py310\\lib\\site-packages\\torch\\cuda\\__init__.py:128: UserWarning: ${m}`,
  zh: (m) => `运行训练脚本时报错如下：\n${m}`,
};
const styleArg = valueOf('--style');
if (styleArg && !STYLES[styleArg]) {
  console.error(`explain-messages: unknown style ${styleArg} (${Object.keys(STYLES).join(', ')})`);
  process.exit(2);
}
const styles = styleArg ? [styleArg] : Object.keys(STYLES);
// --text format: the format with plausible values even where the catalog has a rendered example (the generator
// checks each signature against that example; other values test the pattern itself)
const textArg = valueOf('--text') ?? 'example';
if (!['example', 'format'].includes(textArg)) {
  console.error(`explain-messages: unknown text ${textArg} (example, format)`);
  process.exit(2);
}

/** the ids of the project's copy of the catalog (catalog/messages, additions, installed) */
function projectIds() {
  const cat = path.join(repo, 'src/judge/explain/catalog');
  const ids = new Set();
  for (const f of fs.readdirSync(path.join(cat, 'messages')).filter((x) => x.endsWith('.json')))
    for (const e of JSON.parse(fs.readFileSync(path.join(cat, 'messages', f), 'utf8'))) ids.add(e.id);
  for (const f of ['additions.json', 'installed.json'])
    for (const e of JSON.parse(fs.readFileSync(path.join(cat, f), 'utf8')).entries) ids.add(e.id);
  return ids;
}

async function main() {
  const { explainStream, parseFormat } = await bundleAndImport([
    `export { explainStream } from ${JSON.stringify(path.join(repo, 'src/judge/explain/engine.ts'))};`,
    `export { parseFormat } from ${JSON.stringify(path.join(repo, 'src/judge/explain/catalog/format.ts'))};`,
  ]);
  const seen = projectIds();
  const entries = [];
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort())
    for (const e of JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
      entries.push({ ...e, file: f.replace(/\.json$/, '') });
  const rows = [];
  for (const e of entries) {
    const causes = e.causes.map((c) => c.id);
    const otherOnly = causes.every((c) => c === 'other');
    const rendered = textArg === 'format' ? null : e.rendered_example;
    const text = asPrinted(
      e,
      rendered ?? render(parseFormat(e.format), statedValue(e), LOADER.test(e.source?.repo ?? '')),
    );
    for (const s of styles) {
      const d = await explainStream([{ name: 'message.log', chunks: [STYLES[s](text)] }], {});
      const ids = d.causes.map((c) => c.id);
      rows.push({
        id: e.id,
        file: e.file,
        style: s,
        seen: seen.has(e.id),
        otherOnly,
        causes,
        first: ids[0] ?? null,
        confidence: d.causes[0]?.confidence ?? 0,
        top3: ids.slice(0, 3),
        text,
      });
    }
  }
  const score = (rs) => {
    const scored = rs.filter((r) => !r.otherOnly);
    const n = scored.length;
    const top1 = scored.filter((r) => r.first && r.causes.includes(r.first)).length;
    const first = scored.filter((r) => r.first === r.causes[0]).length;
    const top3 = scored.filter((r) => r.top3.includes(r.causes[0])).length;
    const nothing = scored.filter((r) => !r.first).length;
    return { n, top1: top1 / n, first: first / n, top3: top3 / n, nothing: nothing / n };
  };
  const bySplit = (pred) =>
    Object.fromEntries(styles.map((s) => [s, score(rows.filter((r) => r.style === s && pred(r)))]));
  const result = {
    catalog: dir,
    text: textArg,
    messages: entries.length,
    scored: entries.filter((e) => !e.causes.every((c) => c.id === 'other')).length,
    all: bySplit(() => true),
    seen: bySplit((r) => r.seen),
    unseen: bySplit((r) => !r.seen),
    byFile: Object.fromEntries(
      [...new Set(entries.map((e) => e.file))].map((f) => [f, score(rows.filter((r) => r.file === f))]),
    ),
    otherOnly: Object.fromEntries(
      styles.map((s) => {
        const rs = rows.filter((r) => r.style === s && r.otherOnly);
        const counts = {};
        for (const r of rs) counts[r.first ?? 'nothing'] = (counts[r.first ?? 'nothing'] ?? 0) + 1;
        return [s, counts];
      }),
    ),
  };
  if (valueOf('--dump'))
    fs.writeFileSync(
      valueOf('--dump'),
      `${rows.map((r) => `${r.id}\t${r.style}\t${r.causes.join(',')}\t${r.top3.join(',') || '-'}`).join('\n')}\n`,
    );
  if (argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 1));
    return;
  }
  const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(7);
  console.log(
    `explain on the shared message catalog: ${result.messages} messages (${result.scored} with a cause other than 'other'), ${dir}\n` +
      `each message's ${textArg === 'format' ? 'format with plausible values' : 'rendered example (else its format with plausible values)'}\n` +
      "top-1: the first cause is one of the message's causes; first: it is the message's first cause; top-3: the first cause is among the first three\n",
  );
  for (const [split, label] of [
    ['all', 'all messages'],
    ['seen', "in the project's catalog copy"],
    ['unseen', 'not in it (added to the shared catalog later)'],
  ]) {
    if (result[split][styles[0]].n === 0) continue;
    console.log(`${label}:`);
    console.log(
      `  ${'style'.padEnd(10)} ${'n'.padStart(5)} ${'top-1'.padStart(7)} ${'first'.padStart(7)} ${'top-3'.padStart(7)} ${'nothing'.padStart(7)}`,
    );
    for (const s of styles) {
      const x = result[split][s];
      console.log(
        `  ${s.padEnd(10)} ${String(x.n).padStart(5)} ${pct(x.top1)} ${pct(x.first)} ${pct(x.top3)} ${pct(x.nothing)}`,
      );
    }
  }
  console.log('\nby catalog file (all styles):');
  for (const [f, x] of Object.entries(result.byFile))
    console.log(
      `  ${f.padEnd(16)} ${String(x.n).padStart(5)} ${pct(x.top1)} ${pct(x.first)} ${pct(x.top3)} ${pct(x.nothing)}`,
    );
  console.log("\nmessages whose only cause is 'other' (not scored), the engine's first cause:");
  for (const s of styles)
    console.log(
      `  ${s.padEnd(10)} ${Object.entries(result.otherOnly[s])
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${n}`)
        .join(', ')}`,
    );
  if (argv.includes('--cases')) {
    console.log('\nmisses (style: id [causes] -> first cause, confidence | text):');
    for (const r of rows) {
      if (r.otherOnly || (r.first && r.causes.includes(r.first))) continue;
      const t = r.text.replace(/\n/g, ' ⏎ ').slice(0, 110);
      console.log(
        `  ${r.style}: ${r.id}${r.seen ? '' : ' (unseen)'} [${r.causes.join(',')}] -> ${r.first ?? 'nothing'} ${r.confidence.toFixed(2)} | ${t}`,
      );
    }
  }
}

await main();
