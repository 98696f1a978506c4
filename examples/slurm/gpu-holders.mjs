#!/usr/bin/env node
// Reads `gpu-env-doctor check --json` on stdin and prints one line per process that holds memory (or has the
// device open) on the given GPUs, for the Slurm prolog/epilog. Node is there already: gpu-env-doctor runs on it.
//
//   gpu-env-doctor check --json | node gpu-holders.mjs --gpus 0,2 [--user alice] [--ignore-pid N]
//
// Output, one line each:  GPU <i>: PID <pid> <user> <verdict>, <MiB> MiB: <command line>
// Exit code: 0 none found, 3 some found, 2 the input was not check --json / snapshot JSON.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const gpus = new Set(
  (opt('--gpus') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^\d+$/.test(s))
    .map(Number),
);
const user = opt('--user');
const ignore = new Set((opt('--ignore-pid') ?? '').split(',').filter(Boolean).map(Number));

let doc;
try {
  doc = JSON.parse(readFileSync(0, 'utf8'));
} catch (err) {
  console.error(`gpu-holders: the input is not JSON (${err.message.split('\n')[0]})`);
  process.exit(2);
}
const snap = doc && typeof doc === 'object' && 'snapshot' in doc ? doc.snapshot : doc;
if (!snap || !snap.processes || !Array.isArray(snap.processes.list)) {
  console.error('gpu-holders: the input is not gpu-env-doctor check --json output');
  process.exit(2);
}

// The verdict, as gpu-env-doctor's procs would say it (src/procs/verdict.ts), from the snapshot's facts.
function verdict(p) {
  if (!p.visible) return 'not visible here (another container or namespace)';
  if (p.state === 'zombie' || p.state === 'dead') return 'zombie';
  if (p.state === 'stopped' || p.state === 'tracing-stop') return 'stopped';
  if (p.orphaned) return 'orphaned: its parent is gone';
  return p.state ?? 'running';
}

const oneLine = (s) => String(s).replace(/[\r\n\t]+/g, ' ');
let found = 0;
for (const p of snap.processes.list) {
  if (p.isSelfOrAncestor || ignore.has(p.pid)) continue;
  if (user !== undefined && p.user !== user && String(p.uid) !== user) continue;
  // A process holding only /dev/nvidia* open (no memory listed) has no GPU index: it counts on every GPU asked.
  const on =
    p.gpus.length > 0 ? p.gpus.filter((g) => gpus.size === 0 || gpus.has(g)) : p.holdsDeviceFiles ? [...gpus] : [];
  if (on.length === 0) continue;
  const cmd = Array.isArray(p.cmdline) && p.cmdline.length > 0 ? p.cmdline.join(' ') : (p.name ?? '?');
  const mem = p.usedMiB === null || p.usedMiB === undefined ? '?' : String(p.usedMiB);
  console.log(
    oneLine(
      `GPU ${on.join(',')}: PID ${p.pid} ${p.user ?? p.uid ?? '?'} ${verdict(p)}, ${mem} MiB: ${cmd.length > 200 ? `${cmd.slice(0, 199)}…` : cmd}`,
    ),
  );
  found++;
}
process.exit(found > 0 ? 3 : 0);
