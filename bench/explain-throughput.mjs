#!/usr/bin/env node
// Throughput and peak memory of `explain` on a generated training log (in a temp dir, deleted after), beside
// `grep -E -i -c` with the prefilter's own words (src/judge/explain/read/vocabulary.ts STEMS, the catalog's keywords as
// explain looks for them) over the same file, run alternately, so that the ratio holds on a busy machine.
// The log is what a long run prints: progress bars with \r, rank-prefixed lines, ANSI colours, warnings, a few
// very long lines, and the failure at the end. Peak RSS must not grow with the size of the log.
// Wall time and CPU time (user + system, read from /proc while the process runs) are both shown: on a machine
// shared by other work the CPU time is the steadier figure.
// Run: node scripts/build.mjs && node bench/explain-throughput.mjs [GB=2] [--also-small] [--runs 3] [--compare OTHER/cli.js]
//   [--node PATH] (the Node that runs explain) [--log FILE] (the log kept there: made when absent, never deleted)
// "(min)": the ratio of the fastest runs' CPU times, the steadier figure on a shared machine.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const argv = process.argv.slice(2);
const gb = Number(argv.find((a) => /^[\d.]+$/.test(a) && argv[argv.indexOf(a) - 1] !== '--runs') ?? 2);
const NODE = argv.includes('--node') ? path.resolve(argv[argv.indexOf('--node') + 1]) : process.execPath;
const kept = argv.includes('--log') ? path.resolve(argv[argv.indexOf('--log') + 1]) : null;
const runs = Number(argv[argv.indexOf('--runs') + 1] ?? 3) || 3;
// --compare OTHER/dist/cli.js: another build measured in the same rounds (its row is marked "compare")
const compare = argv.includes('--compare') ? path.resolve(argv[argv.indexOf('--compare') + 1]) : null;
/** clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux) */
const TICK = 100;

function block(i) {
  const lines = [];
  for (let k = 0; k < 50; k++) {
    const step = i * 50 + k;
    lines.push(
      `[rank${k % 4}]: Epoch ${Math.floor(step / 1000)} step ${step} loss=${(1 / (1 + step)).toFixed(6)} lr=3.0e-4 grad_norm=${(k * 0.37).toFixed(3)} tokens/s=${41000 + k}`,
    );
    if (k % 10 === 0)
      lines.push(
        `\x1b[32mINFO\x1b[0m ${new Date(1700000000000 + step * 1000).toISOString()} checkpoint manager: nothing to save at step ${step}`,
      );
    if (k % 25 === 0)
      lines.push(
        `Epoch ${step}:  10%|█         | 10/100 [00:01<00:09]\rEpoch ${step}:  60%|██████    | 60/100 [00:06<00:04]\rEpoch ${step}: 100%|██████████| 100/100 [00:10<00:00]`,
      );
    if (k === 7)
      lines.push(
        `(pid=${1000 + (i % 8)}) WARNING: data loader worker ${k} slow: batch took ${(k * 1.3).toFixed(1)}s (process memory 3.2 GiB)`,
      );
  }
  if (i % 1000 === 0) lines.push(`DEBUG dump ${'x'.repeat(200_000)}`);
  return `${lines.join('\n')}\n`;
}

async function generate(file, bytes) {
  const out = fs.createWriteStream(file);
  let written = 0;
  let i = 0;
  while (written < bytes) {
    const b = block(i++);
    written += Buffer.byteLength(b);
    if (!out.write(b)) await new Promise((r) => out.once('drain', r));
  }
  const tail = [
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/conv.py", line 548, in _conv_forward',
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 784.00 MiB. GPU 0 has a total capacity of 139.80 GiB of which 297.56 MiB is free. Process 637 has 138.62 GiB memory in use. Including non-PyTorch memory, this process has 896.00 MiB memory in use. Of the allocated memory 233.35 MiB is allocated by PyTorch, and 40.65 MiB is reserved by PyTorch but unallocated.',
  ].join('\n');
  out.write(`${tail}\n`);
  await new Promise((r) => out.end(r));
  return fs.statSync(file).size;
}

/** run a command, polling its peak RSS (VmHWM) and CPU time (utime + stime) from /proc */
function measure(cmd, args) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let hwmKiB = 0;
    let cpu = 0;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwmKiB = Math.max(hwmKiB, Number(m[1]));
        const f = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpu = (Number(f[11]) + Number(f[12])) / TICK;
      } catch {}
    }, 20);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, cpu, hwmKiB, code, out, err });
    });
  });
}

/** the prefilter's words, as grep -E reads them */
async function stems() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-stems-'));
  const out = path.join(dir, 'v.mjs');
  await build({
    entryPoints: [path.resolve(here, '../src/judge/explain/read/vocabulary.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  const { STEMS } = await import(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return STEMS.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'explain-throughput-'));
try {
  const words = await stems();
  const sizes = argv.includes('--also-small') ? [0.05, gb] : [gb];
  console.log(
    `explain throughput on ${os.cpus().length} CPU(s), ${os.cpus()[0]?.model ?? '?'}, Node ${NODE === process.execPath ? process.version : NODE}, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `grep: grep -E -i -c with the prefilter's ${words.split('|').length} words; ${runs} alternating runs each, medians\n`,
  );
  console.log(
    `${'log size'.padStart(9)} ${'lines'.padStart(10)} ${'explain s'.padStart(10)} ${'MB/s'.padStart(6)} ${'cpu s'.padStart(6)} ${'MB/s cpu'.padStart(8)} ${'peak RSS'.padStart(9)} ${'grep s'.padStart(7)} ${'cpu s'.padStart(6)} ${'ratio wall'.padStart(10)} ${'ratio cpu'.padStart(9)} ${'(min)'.padStart(7)}  top cause`,
  );
  for (const g of sizes) {
    const file = kept ?? path.join(dir, `train-${g}GB.log`);
    const size = kept && fs.existsSync(kept) ? fs.statSync(kept).size : await generate(file, g * 1024 ** 3);
    const clis = compare ? [CLI, compare] : [CLI];
    const ex = clis.map(() => []);
    const gr = [];
    let diagnosis;
    for (let r = 0; r < runs; r++) {
      for (const [k, cli] of clis.entries()) {
        const e = await measure(NODE, [cli, 'explain', file, '--json', '--no-machine']);
        if (e.code !== 0 && e.code !== 1) throw new Error(`explain exited ${e.code}: ${e.err}`);
        if (k === 0) diagnosis = JSON.parse(e.out);
        else if (e.out !== ex[0].at(-1).out) console.log(`  the compared build's --json differs on run ${r + 1}`);
        ex[k].push(e);
      }
      gr.push(await measure('grep', ['-E', '-i', '-c', words, file]));
    }
    if (!kept) fs.rmSync(file);
    const gs = median(gr.map((x) => x.seconds));
    const gc = median(gr.map((x) => x.cpu));
    const top = diagnosis.causes[0];
    for (const [k, runsOf] of ex.entries()) {
      const es = median(runsOf.map((x) => x.seconds));
      const ec = median(runsOf.map((x) => x.cpu));
      const ecMin = Math.min(...runsOf.map((x) => x.cpu));
      const hwm = Math.max(...runsOf.map((x) => x.hwmKiB));
      const gcMin = Math.min(...gr.map((x) => x.cpu));
      console.log(
        `${`${(size / 1024 ** 3).toFixed(2)} GB`.padStart(9)} ${String(diagnosis.input.lines).padStart(10)} ${es.toFixed(2).padStart(10)} ${(size / 1e6 / es).toFixed(0).padStart(6)} ${ec.toFixed(2).padStart(6)} ${(size / 1e6 / Math.max(ec, 0.01)).toFixed(0).padStart(8)} ${`${Math.round(hwm / 1024)} MiB`.padStart(9)} ${gs.toFixed(2).padStart(7)} ${gc.toFixed(2).padStart(6)} ${(es / gs).toFixed(1).padStart(10)} ${(ec / Math.max(gc, 0.01)).toFixed(1).padStart(9)} ${(ecMin / Math.max(gcMin, 0.01)).toFixed(1).padStart(7)}  ${top ? `${top.id} (line ${top.evidence[0]?.line})` : '(none)'}${k === 1 ? `  compare: ${compare}` : ''}`,
      );
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
