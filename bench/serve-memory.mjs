#!/usr/bin/env node
// Does `gpu-env-doctor serve` stay flat? Starts it, holds N event streams open (default 100) that read every
// update, also fetches the page every second, and samples the server's resident memory (/proc/PID/status)
// for D seconds. Prints RSS after the warm-up, at the end and at most, updates received per stream, and CPU.
//
//   node bench/serve-memory.mjs [--streams 100] [--seconds 300] [--interval 0.5] [--fake-smi]
//
// --fake-smi puts a fake nvidia-smi on PATH that replays the real H200 capture with the process's memory
// changing on every call (every update differs: the worst case for the server); without it the machine's own
// nvidia-smi is used. The hour of history fills for an hour: a shorter run shows it growing by its few KiB.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../dist/cli.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i === -1 ? dflt : args[i + 1];
};
const streams = Number(opt('--streams', 100));
const seconds = Number(opt('--seconds', 300));
const interval = String(opt('--interval', 0.5));

const env = { ...process.env };
let tmp;
if (args.includes('--fake-smi')) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-serve-bench-'));
  const xml = fs.readFileSync(path.resolve(here, '../test/fixtures/h200/hog/smi-one-proc.xml'), 'utf8');
  // ten variants of the capture, the process's memory differing in each; the fake picks one by the clock
  for (let i = 0; i < 10; i++)
    fs.writeFileSync(
      path.join(tmp, `smi${i}.xml`),
      xml.replace('<used_memory>520 MiB</used_memory>', `<used_memory>${520 + i * 1000} MiB</used_memory>`),
    );
  fs.copyFileSync(path.resolve(here, '../test/fixtures/h200/idle/query-gpu.csv'), path.join(tmp, 'query.csv'));
  fs.writeFileSync(
    path.join(tmp, 'nvidia-smi'),
    `#!/bin/sh\ncase "$1" in\n  -q) n=$(date +%N); cat '${tmp}'/smi\${n%\${n#?}}.xml ;;\n  *) cat '${tmp}/query.csv' ;;\nesac\n`,
    { mode: 0o755 },
  );
  env.PATH = `${tmp}:${env.PATH}`;
}

const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--interval', interval, '--check-interval', '60'], {
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
child.stdout.on('data', (d) => (out += d));
const url = await new Promise((resolve, reject) => {
  const t = setInterval(() => {
    const m = /serve: (http:\/\/\S+)/.exec(out);
    if (m) {
      clearInterval(t);
      resolve(m[1]);
    }
  }, 50);
  child.on('exit', (c) => reject(new Error(`serve exited with ${c}`)));
});
const base = url.replace(/\/$/, '');

const agent = new http.Agent({ keepAlive: false, maxSockets: streams + 10 });
const counts = new Array(streams).fill(0);
const reqs = [];
for (let i = 0; i < streams; i++) {
  const req = http.get(`${base}/events`, { agent }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (d) => (counts[i] += (d.match(/^event: state$/gm) ?? []).length));
  });
  req.on('error', () => undefined);
  reqs.push(req);
}
const page = setInterval(
  () => http.get(`${base}/`, { agent: false }, (r) => r.resume()).on('error', () => undefined),
  1000,
);

const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN);
const cpuS = () => {
  const st = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const heap = [];
const poll = setInterval(() => {
  http
    .get(`${base}/state.json`, { agent: false }, (r) => {
      let b = '';
      r.setEncoding('utf8');
      r.on('data', (d) => (b += d));
      r.on('end', () => {
        try {
          const sv = JSON.parse(b).server;
          heap.push({
            s: (Date.now() - t0) / 1000,
            mib: sv.heapUsedMiB,
            total: sv.heapTotalMiB,
            ext: sv.externalMiB,
            rss: sv.rssMiB,
          });
        } catch {
          /* a half answer while stopping */
        }
      });
    })
    .on('error', () => undefined);
}, 2000);
const samples = [];
const warmup = Math.min(30, seconds / 5);
const t0 = Date.now();
await new Promise((resolve) => {
  const t = setInterval(() => {
    const s = (Date.now() - t0) / 1000;
    samples.push({ s, rss: rssKiB() });
    if (s >= seconds) {
      clearInterval(t);
      resolve();
    }
  }, 1000);
});
const cpu = cpuS();
clearInterval(page);
clearInterval(poll);
for (const r of reqs) r.destroy();
agent.destroy();
child.kill('SIGTERM');
if (tmp) fs.rmSync(tmp, { recursive: true, force: true });

const after = samples.filter((x) => x.s >= warmup);
const mib = (k) => `${(k / 1024).toFixed(1)} MiB`;
const sorted = [...counts].sort((a, b) => a - b);
console.log(
  `serve --interval ${interval} with ${streams} event streams and a page fetch every second, ${seconds} s${args.includes('--fake-smi') ? ' (fake nvidia-smi)' : ''}`,
);
console.log(
  `RSS after ${warmup} s: ${mib(after[0].rss)}; at the end: ${mib(after[after.length - 1].rss)}; highest: ${mib(Math.max(...after.map((x) => x.rss)))}`,
);
const third = Math.floor(after.length / 3);
const avg = (xs) => xs.reduce((a, x) => a + x.rss, 0) / xs.length;
console.log(
  `RSS mean of the first third: ${mib(avg(after.slice(0, third)))}; of the last third: ${mib(avg(after.slice(-third)))}`,
);
const h = heap.filter((x) => x.s >= warmup);
const ht = Math.floor(h.length / 3);
const low = (xs) => Math.min(...xs.map((x) => x.mib));
if (h.length >= 3)
  console.log(
    `V8 heap in use (state.json), lowest of each third: ${low(h.slice(0, ht)).toFixed(1)}, ${low(h.slice(ht, 2 * ht)).toFixed(1)}, ${low(h.slice(2 * ht)).toFixed(1)} MiB`,
  );
const minutes = [];
for (let m = 1; m * 60 <= seconds; m++) {
  const x = heap.filter((y) => y.s <= m * 60).pop();
  if (x) minutes.push(`${m} min: rss ${x.rss} heap ${x.mib}/${x.total} ext ${x.ext}`);
}
console.log(`per minute (MiB): ${minutes.join('; ')}`);
console.log(
  `updates per stream: min ${sorted[0]}, median ${sorted[Math.floor(streams / 2)]}, max ${sorted[streams - 1]}`,
);
console.log(
  `CPU of the server (without its nvidia-smi children): ${cpu.toFixed(1)} s in ${seconds} s (${((cpu / seconds) * 100).toFixed(1)}% of a core)`,
);
process.exit(0);
