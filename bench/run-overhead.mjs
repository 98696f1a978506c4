#!/usr/bin/env node
// What `gpu-env-doctor run -- CMD` costs the job: the same command with and without `run`, interleaved
// (plain, run, plain, run, ...) so drift hits both alike; median wall time of each and the overhead in %.
//
//   node bench/run-overhead.mjs [--reps N] [--interval MS] [--fake-smi] [-- CMD ARGS...]
//
// Default CMD: a CPU-bound Node loop of about a second. On the GPU machine pass a GPU job, e.g.
//   node bench/run-overhead.mjs --reps 7 -- python3 test/fixtures/h200/conv.py 0 64
// --fake-smi puts a looping fake nvidia-smi on PATH (for machines without one), so the sampler's two
// loops run as they would on a GPU machine (the fake's cost is a shell loop, not NVML's).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const argv = process.argv.slice(2);
const dd = argv.indexOf('--');
const opts = dd === -1 ? argv : argv.slice(0, dd);
const opt = (name, dflt) => {
  const i = opts.indexOf(name);
  return i === -1 ? dflt : opts[i + 1];
};
const reps = Number(opt('--reps', 7));
const interval = String(opt('--interval', 500));
const cmd =
  dd === -1
    ? [process.execPath, '-e', 'let x=0;for(let i=0;i<4e8;i++)x=(x+i*7)%1000003;console.log(x)']
    : argv.slice(dd + 1);

const env = { ...process.env };
let fakeDir;
if (opts.includes('--fake-smi')) {
  fakeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-bench-'));
  const s = Number(interval) / 1000;
  fs.writeFileSync(
    path.join(fakeDir, 'nvidia-smi'),
    `#!/bin/sh\ncase "$1" in\n  --query-gpu=index,uuid,memory.used,memory.total) while :; do echo "0, GPU-00000000-0000-0000-0000-000000000000, 1000, 143771"; sleep ${s}; done ;;\n  --query-compute-apps=*) while :; do echo "$$, 500, GPU-00000000-0000-0000-0000-000000000000"; sleep ${s}; done ;;\n  *) exit 9 ;;\nesac\n`,
    { mode: 0o755 },
  );
  env.PATH = `${fakeDir}:${env.PATH}`;
}

// Wall time, and the CPU time (user+system) of the command and everything it started, from bash's `times`:
// on a busy machine wall time is noisy, while the CPU time the wrapper adds is what it takes from the job.
const cpu = [];
function time(args, cpuInto) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    'bash',
    ['-c', '"$@" >/dev/null 2>/tmp/ged-bench-stderr.$$; rc=$?; times; exit $rc', '_', ...args],
    { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  // `times` prints two lines: the shell's own, then its children's "XmY.YYYs XmY.YYYs"
  const kids = r.stdout.trim().split('\n').at(-1) ?? '';
  const secs = [...kids.matchAll(/(\d+)m([\d.]+)s/g)].reduce((a, m) => a + Number(m[1]) * 60 + Number(m[2]), 0);
  cpuInto?.push(secs * 1000);
  return ms;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const wrapped = [process.execPath, CLI, 'run', '--interval', interval, '--', ...cmd];
time(cmd); // warm the page cache for both
time(wrapped);
const plain = [];
const withRun = [];
const cpuPlain = [];
const cpuRun = [];
for (let i = 0; i < reps; i++) {
  plain.push(time(cmd, cpuPlain));
  withRun.push(time(wrapped, cpuRun));
}
const startup = [];
for (let i = 0; i < reps; i++)
  startup.push(time([process.execPath, CLI, 'run', '--interval', interval, '--', 'true']) - time(['true']));
if (fakeDir) fs.rmSync(fakeDir, { recursive: true, force: true });

const mp = median(plain);
const mr = median(withRun);
const fmt = (x) => `${x.toFixed(1)} ms`;
console.log(
  `machine: ${os.cpus().length} CPU cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, sampler ${fakeDir ? 'fake nvidia-smi loops' : 'nvidia-smi (or none on PATH)'} every ${interval} ms`,
);
console.log(`command: ${cmd.join(' ').slice(0, 120)}`);
console.log(`reps: ${reps}, interleaved`);
console.log(`plain     median ${fmt(mp)}  (min ${fmt(Math.min(...plain))}, max ${fmt(Math.max(...plain))})`);
console.log(`with run  median ${fmt(mr)}  (min ${fmt(Math.min(...withRun))}, max ${fmt(Math.max(...withRun))})`);
console.log(
  `overhead  ${fmt(mr - mp)} = ${(((mr - mp) / mp) * 100).toFixed(2)} % wall   (start-up and exit of the wrapper alone: median ${fmt(median(startup))})`,
);
const cp = median(cpuPlain);
const cr = median(cpuRun);
console.log(
  `CPU time  plain median ${fmt(cp)}, with run ${fmt(cr)}: the wrapper and its sampler used ${fmt(cr - cp)} = ${(((cr - cp) / cp) * 100).toFixed(2)} % of the job's CPU time`,
);
