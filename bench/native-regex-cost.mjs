#!/usr/bin/env node
// What src/base/native-regex.ts's priming exec costs for every pattern of explain's registry (the signatures, their
// `needs` patterns, the framework cues): each is executed once on the priming subject (1,000 line breaks), which
// compiles it to machine code and must fail at once (`.`, \w and letters never take a line break). A pattern that
// backtracks over the whole subject at each position would take milliseconds. Timed here rather than in the tests
// (a timing on a loaded machine is not a test): exit 1 over 100 ms in all or 20 ms for one pattern.
// Measured (this VM, Node 22): ~0.2 ms in all, ~6 µs at most.
//   node bench/native-regex-cost.mjs [--top 5]
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evalModule } from '../scripts/lib/eval-module.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({ options: { top: { type: 'string', default: '5' } } });
const { registry } = await evalModule(path.join(repo, 'src/judge/explain/signatures/index.ts'));
const reg = registry();
const patterns = [
  ...reg.signatures.flatMap((s) =>
    s.needs
      ? [
          [s.id, s.re],
          [`${s.id} (needs)`, s.needs],
        ]
      : [[s.id, s.re]],
  ),
  ...reg.cues.map((c) => [`cue ${c.framework}`, c.re]),
];
const subject = '\n'.repeat(1000);
const times = patterns.map(([id, re]) => {
  const t0 = performance.now();
  re.exec(subject);
  return [id, performance.now() - t0];
});
const total = times.reduce((a, [, t]) => a + t, 0);
times.sort((a, b) => b[1] - a[1]);
console.log(`${patterns.length} patterns primed in ${total.toFixed(2)} ms; the slowest:`);
for (const [id, t] of times.slice(0, Number(opt.top))) console.log(`  ${(t * 1000).toFixed(1).padStart(8)} µs  ${id}`);
if (total >= 100 || times[0][1] >= 20) {
  console.error('native-regex-cost: a pattern backtracks over line breaks (100 ms in all or 20 ms for one)');
  process.exit(1);
}
