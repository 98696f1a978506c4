// Scale benchmark of `fleet`: N generated node snapshots (from the real H200 ones, with the planted outliers of
// bench/fleet-generate.ts), merged in process and through the CLI on a folder. Prints the figures.
//   npm run build && node bench/fleet-scale.mjs [1000,10000,50000]
// In process: each node's JSON text is made, then parsed, validated, reduced and checked exactly as `fleet`
// does; the clock runs only around parse+merge. CLI: `node dist/cli.js fleet DIR --json`, wall time and peak RSS.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawTextPlugin } from '../scripts/lib/raw-text-plugin.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sizes = (process.argv[2] ?? '1000,10000,50000').split(',').map(Number);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-fleet-bench-'));
const bundle = path.join(work, 'entry.mjs');
await build({
  entryPoints: [path.join(repo, 'bench/fleet-bench-entry.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // the test helper finds the fixtures from its own folder
  define: {
    __dirname: JSON.stringify(path.join(repo, 'test/fleet')),
    __KNOWLEDGE_DIR__: JSON.stringify(new URL('../src/knowledge/', import.meta.url).href),
  },
  banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  logLevel: 'warning',
  plugins: [rawTextPlugin],
});
const m = await import(bundle);
const base = { idle: m.realSnapshot('h200-idle.json'), held: m.realSnapshot('h200-memory-held.json') };
const planted = Object.values(m.PLANTED)
  .map((p) => m.nodeName(p.index))
  .sort();

console.log(
  `fleet scale benchmark · ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}) · Node ${process.version}`,
);
console.log(
  `snapshot size: ${JSON.stringify(m.nodeSnapshot(0, base)).length} bytes (idle), ${JSON.stringify(m.nodeSnapshot(49, base)).length} bytes (memory held)`,
);
const rows = [];
for (const n of sizes) {
  // In process.
  if (global.gc) global.gc();
  const merger = new m.FleetMerger({ checks: m.ALL_CHECKS });
  let mergeMs = 0;
  const rss0 = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const text = JSON.stringify(m.nodeSnapshot(i, base));
    const t = performance.now();
    merger.add(m.parseSnapshotText(text, `node-${i}.json`), `node-${i}.json`);
    mergeMs += performance.now() - t;
  }
  const t = performance.now();
  const r = merger.result();
  mergeMs += performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6; // includes making the node texts: an upper bound
  const heapMiB = process.memoryUsage().heapUsed / 2 ** 20;
  const outliers = r.outliers.map((o) => o.machine).sort();
  const ok = JSON.stringify(outliers) === JSON.stringify(planted.filter((p) => Number(p.slice(5)) < n));

  // Through the CLI, on a folder of files (written first, not timed).
  const dir = path.join(work, `n${n}`);
  fs.mkdirSync(dir);
  for (let i = 0; i < n; i++) {
    const sub = path.join(dir, `rack-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, `${m.nodeName(i)}.json`), JSON.stringify(m.nodeSnapshot(i, base)));
  }
  const t1 = performance.now();
  const cli = spawnSync(
    '/usr/bin/time',
    ['-f', '%M %U %S', process.execPath, path.join(repo, 'dist/cli.js'), 'fleet', dir, '--json'],
    { encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const cliMs = performance.now() - t1;
  const [peakKiB, userS, sysS] = cli.stderr.trim().split('\n').pop().split(' ').map(Number);
  const peakMiB = peakKiB / 1024;
  const cliCpuS = userS + sysS;
  const cliOut = JSON.parse(cli.stdout);
  const cliOk =
    cliOut.machines === n && JSON.stringify(cliOut.outliers.map((o) => o.machine).sort()) === JSON.stringify(outliers);
  fs.rmSync(dir, { recursive: true, force: true });
  rows.push({
    n,
    mergeMs,
    cpuS,
    perNodeUs: (mergeMs * 1000) / n,
    heapMiB,
    rss0,
    cliMs,
    cliCpuS,
    peakMiB,
    ok: ok && cliOk,
    outliers: outliers.length,
    groups: r.groups.length,
  });
  console.log(
    `${String(n).padStart(6)} nodes: in process ${(mergeMs / 1000).toFixed(2)} s (${((mergeMs * 1000) / n).toFixed(0)} µs/node, heap after ${heapMiB.toFixed(0)} MiB) · ` +
      `CLI on a folder ${(cliMs / 1000).toFixed(2)} s wall (${cliCpuS.toFixed(2)} s CPU), peak RSS ${peakMiB.toFixed(0)} MiB · ${r.groups.length} configurations, outliers ${outliers.length} ${ok && cliOk ? '(the planted ones)' : '(MISMATCH)'} · exit ${cli.status}`,
  );
}
if (rows.length > 1) {
  const a = rows[0];
  const b = rows[rows.length - 1];
  console.log(
    `growth ${a.n} → ${b.n} nodes (×${b.n / a.n}): in process ×${(b.mergeMs / a.mergeMs).toFixed(1)}, CLI wall ×${(b.cliMs / a.cliMs).toFixed(1)}, CLI CPU ×${(b.cliCpuS / a.cliCpuS).toFixed(1)}`,
  );
  console.log('(wall times on a 2-core machine shared with other work vary; CPU seconds are the steadier figure)');
}
fs.rmSync(work, { recursive: true, force: true });
if (rows.some((r) => !r.ok)) process.exit(1);
