#!/usr/bin/env node
// The library scan's worker thread, from `new Worker` to its answer, for one or more builds (dist folders), in
// fresh processes, rounds interleaved: wall ms, the process's CPU ms over that span (user+sys: the worker's, the
// main thread only waits) and how many of Node's internal modules the worker loaded (process.moduleLoadList).
// Each build starts its worker as check does (src/ports/worker.ts: NAME.cjs where there is one, else NAME.js).
// The posted section must be the same in every build but for its timings (printed: "sections: identical").
//   node gpu-lab/worker-start.mjs [--runs 15] [--root /] [--env-json '{...}'] DIST [DIST...]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt, positionals: dists } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '15' },
    root: { type: 'string', default: '/' },
    'env-json': { type: 'string' },
    child: { type: 'boolean', default: false },
  },
});

const job = {
  root: opt.root,
  env: opt['env-json'] ? JSON.parse(opt['env-json']) : { ...process.env },
  options: { timeoutMs: 5000, deep: 'off', pythons: [], allEnvs: false, elfFiles: [], pids: [] },
};

if (opt.child) {
  // one measure: node worker-start.mjs --child DIST (wall, cpu) or --child DIST loads (the module count)
  const { Worker } = await import('node:worker_threads');
  const [dist, what] = [dists[0], given[1]];
  const cjs = path.join(dist, 'libraries-worker.cjs');
  const file = fs.existsSync(cjs) ? cjs : path.join(dist, 'libraries-worker.js');
  let w;
  if (what === 'loads') {
    // the same file run from an eval'd prelude that counts the modules when the answer is posted
    // on the port's prototype: an ES module worker's parentPort is not the object require() gives here
    const hook = `const P = Object.getPrototypeOf(require('node:worker_threads').parentPort);
const post = P.postMessage;
P.postMessage = function (m) { return post.call(this, { m, loads: process.moduleLoadList.slice() }); };`;
    const run = file.endsWith('.cjs')
      ? `require(${JSON.stringify(file)})`
      : `import(${JSON.stringify(`file://${file}`)})`;
    w = new Worker(`${hook}\n${run}`, { eval: true, workerData: job });
  } else {
    w = new Worker(file, { workerData: job });
  }
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  w.once('message', (msg) => {
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const m = what === 'loads' ? msg.m : msg;
    const section = JSON.stringify({ ...m.section, durationMs: 0 });
    const out = { wall, cpu: (c.user + c.system) / 1000, section, environments: m.environments };
    if (what === 'loads') out.loads = msg.loads;
    process.stdout.write(JSON.stringify(out));
    void w.terminate();
  });
  w.once('error', (e) => {
    console.error(String(e));
    process.exit(1);
  });
} else {
  const self = new URL(import.meta.url).pathname;
  const one = (dist, what) => {
    const args = [self, '--child', '--root', opt.root, dist, ...(what ? [what] : [])];
    if (opt['env-json']) args.push('--env-json', opt['env-json']);
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`${dist}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const med = (a) => {
    const s = [...a].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const res = new Map(dists.map((d) => [d, []]));
  for (let i = 0; i < Number(opt.runs); i++)
    for (const d of i % 2 ? [...dists].reverse() : dists) res.get(d).push(one(d));
  console.log(
    `new Worker → the scan's answer, ${opt.runs} fresh processes per build, rounds interleaved ` +
      `(Node ${process.version})`,
  );
  const sections = new Set();
  const loadsOf = new Map();
  for (const d of dists) {
    const rs = res.get(d);
    const l = one(d, 'loads').loads;
    loadsOf.set(d, l);
    for (const r of rs) sections.add(r.section + r.environments);
    const f = (k) => `${med(rs.map((r) => r[k])).toFixed(1)} [min ${Math.min(...rs.map((r) => r[k])).toFixed(1)}]`;
    console.log(`${d}: wall ${f('wall')} ms, cpu ${f('cpu')} ms, the worker's Node modules ${l.length}`);
  }
  if (dists.length > 1) {
    const [a, ...rest] = dists;
    for (const b of rest) {
      const only = (x, y) => loadsOf.get(x).filter((m) => !loadsOf.get(y).includes(m));
      console.log(`only in ${a}: ${only(a, b).join(', ') || '-'}`);
      console.log(`only in ${b}: ${only(b, a).join(', ') || '-'}`);
    }
  }
  console.log(`sections: ${sections.size === 1 ? 'identical' : `DIFFER (${sections.size} different)`}`);
}
