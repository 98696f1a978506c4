#!/usr/bin/env node
// The main thread of a CPU profile (node --cpu-prof) in slices of time: what ran in each (the bundle's function,
// else Node's), and how long the thread sat idle. Shows what lies on `check`'s path: the code loaded before
// nvidia-smi starts (the first spawn), the idle wait for its answer, and what runs after it (parse, checks).
//   node bench/profile-timeline.mjs check.cpuprofile [--slice 10] [--fn runChecks,warmUpChecks]
// --fn: for each function named, its inclusive time (samples with it on the stack) and when it first and last ran.
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values: opt, positionals } = parseArgs({
  options: { slice: { type: 'string', default: '10' }, fn: { type: 'string', default: '' } },
  allowPositionals: true,
});
if (positionals.length !== 1) {
  console.error('usage: node bench/profile-timeline.mjs FILE.cpuprofile [--slice MS] [--fn NAME,NAME]');
  process.exit(2);
}
const slice = Number(opt.slice);
const p = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const file = (url) => url.split('/').pop() ?? '';
/** the innermost frame of the bundle (dist/cli.js, its chunks) on the stack, else the sampled frame itself */
function label(id) {
  const top = byId.get(id).callFrame;
  if (top.functionName === '(idle)') return 'idle';
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const c = byId.get(cur).callFrame;
    if (/\/dist\/|chunks\//.test(c.url)) return `${file(c.url)}:${c.functionName || '(anonymous)'}`;
  }
  return `${top.functionName || '(anonymous)'}@${file(top.url) || 'native'}`;
}
const slices = new Map();
let t = p.startTime;
let firstSpawn = null;
const fns = opt.fn ? opt.fn.split(',') : [];
/** per function named: inclusive ms, first and last sample (ms from the start) */
const inclusive = new Map(fns.map((f) => [f, { ms: 0, first: null, last: null }]));
function onStack(id, name) {
  for (let cur = id; cur !== undefined; cur = parent.get(cur))
    if (byId.get(cur).callFrame.functionName === name) return true;
  return false;
}
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  const ms = (t - p.startTime) / 1000;
  for (const [name, acc] of inclusive) {
    if (!onStack(p.samples[i], name)) continue;
    acc.ms += (p.timeDeltas[i + 1] ?? 0) / 1000;
    acc.first ??= ms;
    acc.last = ms;
  }
  const k = label(p.samples[i]);
  if (firstSpawn === null && /:spawn$|^spawn@/.test(k)) firstSpawn = ms;
  const s = Math.floor(ms / slice);
  if (!slices.has(s)) slices.set(s, new Map());
  const m = slices.get(s);
  m.set(k, (m.get(k) ?? 0) + p.timeDeltas[i] / 1000);
}
console.log(
  `profile ${((p.endTime - p.startTime) / 1000).toFixed(0)} ms; first spawn sampled at ${firstSpawn?.toFixed(0)} ms`,
);
for (const [s, m] of [...slices].sort((a, b) => a[0] - b[0])) {
  const top = [...m].sort((a, b) => b[1] - a[1]).slice(0, 3);
  console.log(`${String(s * slice).padStart(5)} ms  ${top.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' | ')}`);
}
for (const [name, acc] of inclusive)
  console.log(
    acc.first === null
      ? `${name}: not sampled`
      : `${name}: ${acc.ms.toFixed(1)} ms inclusive, sampled from ${acc.first.toFixed(0)} to ${acc.last.toFixed(0)} ms`,
  );
