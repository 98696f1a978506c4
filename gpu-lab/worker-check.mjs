#!/usr/bin/env node
// `check --json` of two builds, rounds interleaved, on this machine: wall ms, the libraries probe (with the scan's
// worker: "read in a worker thread", its ms from the worker's start to its answer), and whether every round of
// both builds has the same findings and the same libraries section (its durationMs aside).
//   node gpu-lab/worker-check.mjs [--runs 9] CLI_A CLI_B
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values: opt, positionals: clis } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '9' } },
});
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rounds = new Map(clis.map((c) => [c, []]));
for (let i = 0; i < Number(opt.runs); i++) {
  for (const cli of i % 2 ? [...clis].reverse() : clis) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'check', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const wall = performance.now() - t0;
    let j;
    try {
      j = JSON.parse(r.stdout);
    } catch {
      console.log(`${cli}: not JSON (exit ${r.status}): ${r.stderr.slice(0, 300)}`);
      process.exit(1);
    }
    const probe = j.snapshot.probes.find((p) => p.id === 'libraries') ?? {};
    rounds.get(cli).push({
      wall,
      code: r.status,
      probe,
      findings: JSON.stringify(j.findings),
      libraries: JSON.stringify({ ...j.snapshot.libraries, durationMs: 0 }),
    });
  }
}
const all = [...rounds.values()].flat();
for (const cli of clis) {
  const rs = rounds.get(cli);
  const inWorker = rs.filter((r) => r.probe.message === 'read in a worker thread');
  const onMain = rs.filter((r) => r.probe.message !== 'read in a worker thread');
  const walls = rs.map((r) => r.wall);
  const ms = (list) => list.map((r) => Math.round(r.probe.durationMs ?? -1)).join(', ');
  console.log(
    `${cli}: check --json wall median ${med(walls).toFixed(0)} ms (min ${Math.min(...walls).toFixed(0)}); ` +
      `libraries probe in a worker ${inWorker.length}/${rs.length} rounds, ` +
      `its start to its answer median ${med(inWorker.map((r) => r.probe.durationMs)).toFixed(0)} ms ` +
      `(${ms(inWorker)}); main-thread scans ${onMain.length} (${ms(onMain)} ms)`,
  );
}
// each round's runs of the builds against each other (the machine may change between rounds), then all rounds
const [a, ...others] = clis;
const pairs = (k) => rounds.get(a).filter((r, i) => others.every((c) => rounds.get(c)[i]?.[k] === r[k])).length;
const same = (k) => new Set(all.map((r) => r[k])).size === 1;
const count = JSON.parse(all[0].findings).length;
for (const [k, what] of [
  ['findings', 'findings'],
  ['libraries', 'libraries section (durationMs aside)'],
]) {
  console.log(
    `${what}: the same in both builds in ${pairs(k)} of ${rounds.get(a).length} rounds; ` +
      `${same(k) ? 'the same in every round' : 'not the same in every round (the machine changed)'}` +
      (k === 'findings' ? ` (${count} findings)` : ''),
  );
}
console.log(`exit codes: ${[...new Set(all.map((r) => r.code))].join(', ')}`);
