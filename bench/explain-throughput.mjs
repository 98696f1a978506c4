#!/usr/bin/env node
// Throughput and peak memory of `explain` on a generated multi-GB training log (in a temp dir, deleted after).
// The log is what a long run prints: progress bars with \r, rank-prefixed lines, ANSI colours, warnings,
// a few very long lines, and the failure at the end. Peak RSS must not grow with the size of the log.
// Run: node scripts/build.mjs && node bench/explain-throughput.mjs [GB=2] [--also-small]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const gb = Number(process.argv.slice(2).find((a) => /^[\d.]+$/.test(a)) ?? 2);

function block(i) {
  const lines = [];
  for (let k = 0; k < 50; k++) {
    const step = i * 50 + k;
    lines.push(`[rank${k % 4}]: Epoch ${Math.floor(step / 1000)} step ${step} loss=${(1 / (1 + step)).toFixed(6)} lr=3.0e-4 grad_norm=${(k * 0.37).toFixed(3)} tokens/s=${41000 + k}`);
    if (k % 10 === 0) lines.push(`\x1b[32mINFO\x1b[0m ${new Date(1700000000000 + step * 1000).toISOString()} checkpoint manager: nothing to save at step ${step}`);
    if (k % 25 === 0) lines.push(`Epoch ${step}:  10%|█         | 10/100 [00:01<00:09]\rEpoch ${step}:  60%|██████    | 60/100 [00:06<00:04]\rEpoch ${step}: 100%|██████████| 100/100 [00:10<00:00]`);
    if (k === 7) lines.push(`(pid=${1000 + (i % 8)}) WARNING: data loader worker ${k} slow: batch took ${(k * 1.3).toFixed(1)}s (process memory 3.2 GiB)`);
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

/** run the CLI, polling the child's peak RSS (VmHWM) from /proc */
function measure(file) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, 'explain', file, '--json', '--no-machine'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let hwmKiB = 0;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwmKiB = Math.max(hwmKiB, Number(m[1]));
      } catch {}
    }, 50);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0 && code !== 1) return reject(new Error(`explain exited ${code}: ${err}`));
      resolve({ seconds, hwmKiB, diagnosis: JSON.parse(out) });
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'explain-throughput-'));
try {
  const sizes = process.argv.includes('--also-small') ? [0.05, gb] : [gb];
  console.log(`explain throughput on ${os.cpus().length} CPU(s), ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`);
  console.log(`${'log size'.padStart(10)} ${'lines'.padStart(12)} ${'seconds'.padStart(8)} ${'MB/s'.padStart(7)} ${'peak RSS'.padStart(9)}  top cause`);
  for (const g of sizes) {
    const file = path.join(dir, `train-${g}GB.log`);
    const size = await generate(file, g * 1024 ** 3);
    const r = await measure(file);
    fs.rmSync(file);
    const top = r.diagnosis.causes[0];
    console.log(`${`${(size / 1024 ** 3).toFixed(2)} GB`.padStart(10)} ${String(r.diagnosis.input.lines).padStart(12)} ${r.seconds.toFixed(1).padStart(8)} ${(size / 1e6 / r.seconds).toFixed(0).padStart(7)} ${`${Math.round(r.hwmKiB / 1024)} MiB`.padStart(9)}  ${top ? `${top.id} (line ${top.evidence[0]?.line})` : '(none)'}`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
