#!/usr/bin/env node
// What --redact costs: `check --from SNAPSHOT --json` with and without --redact, alternated run by run (so a
// busy machine slows both alike), and `fleet` over N generated snapshots (each its own host and users: the
// redactor then knows N host names). Prints the medians and the difference.
//
//   node bench/redact-cost.mjs [--runs 9] [--machines 1000] [--snapshot examples/snapshots/h200-memory-held.json]
//
// Run from the repository root after a build (dist/cli.js).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    machines: { type: 'string', default: '1000' },
    snapshot: { type: 'string', default: 'examples/snapshots/h200-memory-held.json' },
  },
});
if (!fs.existsSync('dist/cli.js')) {
  console.error('dist/cli.js not found: run `npm run build` in the repository root first');
  process.exit(2);
}
const runs = Number(values.runs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (args) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status === 2) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const pair = (args, n) => {
  const plain = [];
  const red = [];
  for (let i = 0; i < n; i++) {
    plain.push(time(args));
    red.push(time([...args, '--redact']));
  }
  return { plain: median(plain), redact: median(red) };
};

const check = pair(['check', '--from', values.snapshot, '--json'], runs);
console.log(
  `check --from ${path.basename(values.snapshot)} --json: ${check.plain.toFixed(0)} ms, with --redact ${check.redact.toFixed(0)} ms (+${(check.redact - check.plain).toFixed(0)} ms), median of ${runs}`,
);

const n = Number(values.machines);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-redact-bench-'));
try {
  const s = JSON.parse(fs.readFileSync(values.snapshot, 'utf8'));
  for (let i = 0; i < n; i++) {
    s.host.name = `gpu-node-${String(i).padStart(5, '0')}.cluster.local`;
    s.self.user = `user${i % 50}x`;
    if (s.processes.list[0]) s.processes.list[0].user = `worker${i % 200}`;
    fs.writeFileSync(path.join(dir, `n${i}.json`), JSON.stringify(s));
  }
  const fleet = pair(['fleet', dir], Math.max(1, Math.floor(runs / 3)));
  console.log(
    `fleet of ${n} machines: ${fleet.plain.toFixed(0)} ms, with --redact ${fleet.redact.toFixed(0)} ms (+${(fleet.redact - fleet.plain).toFixed(0)} ms)`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
