#!/usr/bin/env node
// The library scan's CPU time (gather/libraries: ld cache, inventory, loader emulation) on the H200-like --root
// tree (bench/machine.ts), in fresh processes (the scan runs cold in check: first calls, first compiles), with
// process.cpuUsage around the section: a loaded machine stretches wall time, not the CPU a run needs.
// --base DIR: a checkout of another build (e.g. `git archive main | tar -x -C DIR`): its scan is bundled from its
// own src/ (this bench's entry is copied into DIR/bench) and run alternately with this one on the same tree; the
// digests must match (same copies, consumers).
//   node bench/libs-cpu.mjs [--runs 21] [--base DIR] [--profile FILE.cpuprofile]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './speed-lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '21' },
    base: { type: 'string' },
    profile: { type: 'string' },
  },
});
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-libs-cpu-'));

async function bundle(checkout, outfile) {
  const { build } = await import('esbuild');
  const entry = path.join(checkout, 'bench/libs-cpu-entry.ts');
  if (checkout !== repo) fs.copyFileSync(path.join(repo, 'bench/libs-cpu-entry.ts'), entry);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    define: { __KNOWLEDGE_DIR__: JSON.stringify(`${path.join(checkout, 'src/knowledge')}/`) },
    banner: {
      js: `import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url); const __dirname = ${JSON.stringify(path.join(checkout, 'bench'))};`,
    },
    logLevel: 'warning',
  });
}

const builds = [{ tag: 'this', entry: path.join(work, 'this.mjs') }];
await bundle(repo, builds[0].entry);
if (opt.base) {
  builds.push({ tag: 'base', entry: path.join(work, 'base.mjs') });
  await bundle(path.resolve(opt.base), builds[1].entry);
}
const m = await import(builds[0].entry);
const root = m.buildMachine({ repo, fatbinEntries: 7 });
const env = {
  PATH: '/opt/torch/.venv/bin:/usr/bin:/bin',
  HOME: '/root',
  VIRTUAL_ENV: '/opt/torch/.venv',
  LD_LIBRARY_PATH: '/usr/local/nvidia/lib64:/usr/local/nvidia/lib',
};
const one = (b, extra = []) => {
  const r = spawnSync(process.execPath, [...extra, b.entry, 'scan', root, JSON.stringify(env)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${b.tag}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};
if (opt.profile) {
  const dir = path.join(work, 'prof');
  one(builds[0], ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir]);
  fs.copyFileSync(path.join(dir, fs.readdirSync(dir)[0]), opt.profile);
  console.log(`wrote ${opt.profile}`);
}
const res = Object.fromEntries(builds.map((b) => [b.tag, []]));
for (let i = 0; i < Number(opt.runs); i++)
  for (const b of i % 2 ? [...builds].reverse() : builds) res[b.tag].push(one(b));
console.log(`library scan on the H200-like tree, ${opt.runs} fresh processes per build (ms, median [min])`);
for (const b of builds) {
  const rs = res[b.tag];
  const f = (k) => `${median(rs.map((r) => r[k])).toFixed(1)} [${Math.min(...rs.map((r) => r[k])).toFixed(1)}]`;
  const digests = [...new Set(rs.map((r) => r.digest))].join(',');
  console.log(
    `${b.tag.padEnd(5)} cpu ${f('cpuMs')}  user ${f('userMs')}  sys ${f('sysMs')}  wall ${f('wallMs')}  ` +
      `copies ${rs[0].copies} consumers ${rs[0].consumers} digest ${digests}`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
fs.rmSync(root, { recursive: true, force: true });
