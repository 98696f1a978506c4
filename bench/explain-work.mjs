#!/usr/bin/env node
// The work explain does on a log, counted rather than timed (the same figures on a busy machine as on an idle one):
// the lines the prefilter hands on, and every RegExp exec/test call made while reading and diagnosing, by who owns
// the pattern (the signatures, the framework cues, the prefilter's anchors, the environment reader: every call made
// inside its onLine, and the lines handed to it; everything else: normalisation, the analysers), with the patterns used
// at least once (V8 compiles each on its first exec).
// The engine is bundled from src/ as the CLI runs it (scripts/explain-tooling.mjs).
//   node bench/explain-work.mjs [--mb 64] [--top 12] [--json]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleAndImport, repo } from '../scripts/explain-tooling.mjs';
import { writeTrainingLog } from './speed-lib.mjs';

const { values: opt } = parseArgs({
  options: {
    mb: { type: 'string', default: '64' },
    top: { type: 'string', default: '12' },
    json: { type: 'boolean', default: false },
  },
});
const src = (f) => JSON.stringify(path.join(repo, 'src/judge/explain', f));
const { explainStream, registry, EnvReader, ENV_WORDS } = await bundleAndImport([
  `export { explainStream } from ${src('engine.ts')};`,
  `export { registry } from ${src('signatures/index.ts')};`,
  `export { EnvReader } from ${src('env/reader.ts')};`,
  `export { ENV_WORDS } from ${src('env-gate.ts')};`,
]);
const READER = 'environment reader';
const SHORT_LOG = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');

/** who owns a pattern: its source text against the registry's own patterns */
function owners() {
  const reg = registry();
  const own = new Map();
  for (const s of reg.signatures) {
    own.set(s.re.source, 'signatures');
    if (s.needs) own.set(s.needs.source, 'signatures');
  }
  for (const c of reg.cues) own.set(c.re.source, 'framework cues');
  for (const k of ['re', 'scanRe', 'headRe']) own.set(reg.anchors.state()[k], 'prefilter anchors');
  own.set(ENV_WORDS.source, 'environment reader gate');
  return own;
}

async function count(name, chunks) {
  const own = owners();
  const calls = new Map();
  /** the calls made inside the environment reader, by pattern; the lines handed to it */
  const inReader = new Map();
  let readerDepth = 0;
  let readerLines = 0;
  const onLine = EnvReader.prototype.onLine;
  EnvReader.prototype.onLine = function (...a) {
    readerLines++;
    readerDepth++;
    try {
      return onLine.apply(this, a);
    } finally {
      readerDepth--;
    }
  };
  const patched = ['exec', 'test'].map((m) => {
    const orig = RegExp.prototype[m];
    RegExp.prototype[m] = function (s) {
      // test() calls exec(): counted once, as the call the engine made
      if (!this.__inTest) {
        const k = this.source;
        const into = readerDepth > 0 ? inReader : calls;
        into.set(k, (into.get(k) ?? 0) + 1);
      }
      if (m !== 'test') return orig.call(this, s);
      this.__inTest = true;
      try {
        return orig.call(this, s);
      } finally {
        this.__inTest = false;
      }
    };
    return () => {
      RegExp.prototype[m] = orig;
    };
  });
  let d;
  try {
    d = await explainStream([{ name, chunks }], {});
  } finally {
    for (const undo of patched) undo();
    EnvReader.prototype.onLine = onLine;
  }
  const by = new Map();
  const all = [
    ...[...calls].map(([k, v]) => [k, v, own.get(k) ?? 'other (normalisation, analysers)']),
    ...[...inReader].map(([k, v]) => [k, v, READER]),
  ];
  for (const [, v, o] of all) {
    const e = by.get(o) ?? { calls: 0, patterns: 0 };
    e.calls += v;
    e.patterns++;
    by.set(o, e);
  }
  const total = all.reduce((a, [, v]) => a + v, 0);
  const top = all
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(opt.top))
    .map(([k, v, o]) => ({ calls: v, owner: o === READER ? 'env reader' : o.split(' (')[0], pattern: k.slice(0, 90) }));
  return {
    input: name,
    bytes: d.input.bytes,
    lines: d.input.lines,
    causes: d.causes.map((c) => c.id).slice(0, 3),
    regexCalls: total,
    patternsUsed: new Set([...calls.keys(), ...inReader.keys()]).size,
    readerLines,
    byOwner: Object.fromEntries(by),
    top,
  };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-explain-work-'));
try {
  const big = path.join(work, 'train.log');
  writeTrainingLog(big, Number(opt.mb) * 1024 * 1024, SHORT_LOG);
  const runs = [];
  runs.push(await count('27-line H200 log', [fs.readFileSync(SHORT_LOG)]));
  const data = fs.readFileSync(big);
  const chunks = [];
  for (let p = 0; p < data.length; p += 1 << 20) chunks.push(data.subarray(p, Math.min(data.length, p + (1 << 20))));
  runs.push(await count(`${opt.mb} MB training log`, chunks));
  if (opt.json) console.log(JSON.stringify(runs, null, 2));
  else
    for (const r of runs) {
      console.log(`${r.input}: ${r.bytes} bytes, ${r.lines} lines, first causes ${r.causes.join(', ') || '-'}`);
      console.log(
        `  regex calls ${r.regexCalls}, patterns used ${r.patternsUsed}, lines read by the env reader ${r.readerLines}`,
      );
      for (const [o, e] of Object.entries(r.byOwner)) console.log(`    ${o}: ${e.calls} calls, ${e.patterns} patterns`);
      for (const t of r.top) console.log(`    ${String(t.calls).padStart(8)}  ${t.owner.padEnd(18)} ${t.pattern}`);
    }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
