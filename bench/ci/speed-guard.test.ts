// CI guard against gross speed regressions (issues 17 and 29), run by .ci/run after the test suite
// (vitest.bench.config.ts), not by `npm test`: the tests assert behaviour; this is a bench with generous bounds: the
// built CLI beside its floors, interleaved, on whatever machine runs the tests (2 busy cores in CI). The bounds are
// three times the targets bench/speed.mjs reports against (check ≤ node + nvidia-smi + 50 ms, short explain ≤ node +
// 40 ms, fleet ≤ 2.5× a bare parse), compared on the fastest of a few rounds (min over min),
// which a loaded machine disturbs least: they catch a start-up that loads the whole bundle again, a check that waits
// for nvidia-smi before reading files, zod back on the fleet path, fleet on one core; they do not measure the targets
// themselves (bench/speed.mjs does, on the GPU machine). explain's throughput (≤ 3× grep -E on 0.5 GB) is not
// guarded here: on a log small enough for CI its fixed start-up is most of the time, and grep's is none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs without types
import { measure, relate } from '../speed-lib.mjs';
import { buildMachine } from '../machine.js';
import { nodeName, nodeSnapshot } from '../fleet-generate.js';
import { realSnapshot } from '../../test/fleet/h200-snapshot.js';
import { CLI } from '../../test/helpers/cli.js';
import { tempDir } from '../../test/helpers/fake-bin.js';

const repo = path.resolve(__dirname, '../..');
const node = process.execPath;
const ROUNDS = 4;

interface Result {
  id: string;
  ratioMin: number;
  ratio: number | null;
  medianMs: number;
  minMs: number;
}
/** fleet's inputs: enough for two threads (src/judge/fleet/parallel.ts, 250 files a thread at least) */
const FLEET = 600;
let results: Result[] = [];
const cleanup: string[] = [];

beforeAll(() => {
  const root = buildMachine({ repo, fatbinEntries: 5000, fatbinBytes: 1 << 28 });
  const work = tempDir('ged-speed-ci-');
  cleanup.push(root, work);
  const bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  const xml = path.join(repo, 'test/fixtures/h200/idle/nvidia-smi-q.xml');
  const csv = path.join(repo, 'test/fixtures/h200/idle/query-gpu.csv');
  fs.writeFileSync(
    path.join(bin, 'nvidia-smi'),
    `#!/bin/sh\ncase "$1" in\n  -q) sleep 0.11; cat '${xml}' ;;\n  --query-gpu=*) sleep 0.025; cat '${csv}' ;;\n  *) exit 2 ;;\nesac\n`,
    { mode: 0o755 },
  );
  const env = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: '/root',
    VIRTUAL_ENV: '/opt/torch/.venv',
    LD_LIBRARY_PATH: '/usr/local/nvidia/lib64:/usr/local/nvidia/lib',
    NO_COLOR: '1',
  };
  const fleet = path.join(work, 'fleet');
  fs.mkdirSync(fleet);
  const base = { idle: realSnapshot('h200-idle.json'), held: realSnapshot('h200-memory-held.json') };
  for (let i = 0; i < FLEET; i++)
    fs.writeFileSync(path.join(fleet, `${nodeName(i)}.json`), JSON.stringify(nodeSnapshot(i, base)));
  const parse = path.join(work, 'parse.mjs');
  fs.writeFileSync(
    parse,
    "import * as fs from 'node:fs'; import * as path from 'node:path';\nfor (const f of fs.readdirSync(process.argv[2])) JSON.parse(fs.readFileSync(path.join(process.argv[2], f), 'utf8'));\n",
  );
  const cmds = [
    { id: 'node', label: 'node -e 0', argv: [node, '-e', '0'] },
    { id: 'smi', label: 'nvidia-smi stand-in', argv: [path.join(bin, 'nvidia-smi'), '-q', '-x'] },
    { id: 'version', label: '--version', argv: [node, CLI, '--version'] },
    {
      id: 'explain',
      label: 'explain',
      argv: [node, CLI, 'explain', path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt'), '--no-machine'],
      expectCodes: [0, 1],
    },
    { id: 'check', label: 'check', argv: [node, CLI, 'check', '--json', '--root', root], env, expectCodes: [0, 1] },
    { id: 'libs', label: 'libs', argv: [node, CLI, 'libs', '--json', '--root', root], env, expectCodes: [0, 1] },
    { id: 'parse', label: 'parse', argv: [node, parse, fleet] },
    { id: 'fleet', label: 'fleet', argv: [node, CLI, 'fleet', fleet, '--json'], expectCodes: [0, 1] },
  ];
  const { samples } = measure(cmds, ROUNDS);
  results = relate(
    [
      { id: 'version', label: '--version', floor: ['node'] },
      { id: 'explain', label: 'explain', floor: ['node'] },
      { id: 'check', label: 'check', floor: ['node', 'smi'] },
      { id: 'libs', label: 'libs', floor: ['node'] },
      { id: 'fleet', label: 'fleet', floor: ['parse'] },
      { id: 'node', label: 'node', floor: [] },
      { id: 'smi', label: 'smi', floor: [] },
    ],
    samples,
    cmds,
  ) as Result[];
  // shown in the CI log: the figures behind the verdicts
  console.log(
    results
      .map((r) =>
        r.ratio === null
          ? `${r.id}: median ${r.medianMs} ms, fastest ${r.minMs} ms`
          : `${r.id}: median ${r.medianMs} ms, ×${r.ratio} of its floor (fastest runs: ×${r.ratioMin})`,
      )
      .join('\n'),
  );
}, 300_000);
afterAll(() => {
  for (const p of cleanup) fs.rmSync(p, { recursive: true, force: true });
});

const ratio = (id: string) => results.find((r) => r.id === id)!;
/** The fastest run of a command beside three times its target on the fastest runs of its floors. */
const fastest = (id: string) => ratio(id).minMs;

describe('speed, against floors measured in the same run (3× the targets)', () => {
  it('--version: within 3 × 1.3 of `node -e 0`', () => {
    expect(ratio('version').ratioMin, JSON.stringify(ratio('version'))).toBeLessThanOrEqual(3 * 1.3);
  });
  it('explain of a short log: within 3 × (`node -e 0` + 40 ms)', () => {
    expect(fastest('explain'), JSON.stringify(ratio('explain'))).toBeLessThanOrEqual(3 * (fastest('node') + 40));
  });
  // check on the H200-like --root tree, nvidia-smi a stand-in that answers after 110 ms as the H200's does
  it('check on the H200-like tree: within 3 × (node + nvidia-smi + 50 ms)', () => {
    expect(fastest('check'), JSON.stringify(ratio('check'))).toBeLessThanOrEqual(
      3 * (fastest('node') + fastest('smi') + 50),
    );
  });
  // libs: no target of its own on this machine; about three times what its fastest runs measure on the busy
  // 2-core VM (2.2×)
  it('libs on the H200-like tree: within 3 × 2 of `node -e 0`', () => {
    expect(ratio('libs').ratioMin, JSON.stringify(ratio('libs'))).toBeLessThanOrEqual(3 * 2);
  });
  it(`fleet of ${FLEET} snapshots: within 3 × 2.5 of reading and parsing them`, () => {
    expect(ratio('fleet').ratioMin, JSON.stringify(ratio('fleet'))).toBeLessThanOrEqual(3 * 2.5);
  });
});
