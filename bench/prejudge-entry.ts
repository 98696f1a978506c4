// What bench/prejudge.mjs measures in a fresh process (bundled by it): the checks on a snapshot, cold, or begun
// on the snapshot so far (src/commands/shared/prejudge.ts) and finished on the whole one. Prints one JSON line.
import * as fs from 'node:fs';
import { ALL_CHECKS } from '../src/judge/checks/index.js';
import { runChecks } from '../src/judge/checks/run-checks.js';
import { Prejudge } from '../src/commands/shared/prejudge.js';
import { NOT_YET_ANSWERED } from '../src/gather/snapshot/collect.js';
import type { Snapshot } from '../src/gather/snapshot/schema.js';

const [mode, file] = process.argv.slice(2);
const whole = JSON.parse(fs.readFileSync(file!, 'utf8')) as Snapshot;
/** CPU milliseconds (user + system) of f */
function cpu(f: () => unknown): number {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}
if (mode === 'cold') {
  console.log(JSON.stringify({ mode, afterMs: cpu(() => runChecks(ALL_CHECKS, whole)) }));
} else {
  // as collect.ts builds it: the same sections, but for what needs nvidia-smi's answer
  const soFar: Snapshot = {
    ...whole,
    ...NOT_YET_ANSWERED,
    probes: [],
    ...(whole.libraries ? { libraries: { ...whole.libraries, loaded: [], processes: [] } } : {}),
  };
  const p = new Prejudge(ALL_CHECKS);
  const c = process.cpuUsage();
  // "early": the whole wait; "early-N": nvidia-smi answers after N ms of the early run's CPU time (this VM's
  // wall clock is its load)
  const windowMs = mode === 'early' ? Infinity : Number(mode!.slice('early-'.length));
  const spent = () => {
    const u = process.cpuUsage(c);
    return (u.user + u.system) / 1000;
  };
  await p.beginChecks(soFar, () => spent() >= windowMs);
  const d = process.cpuUsage(c);
  const afterMs = cpu(() => p.finishChecks(whole));
  const { ranEarly, kept } = p.stats();
  console.log(JSON.stringify({ mode, earlyMs: (d.user + d.system) / 1000, afterMs, ranEarly, kept }));
}
