// collectSnapshot hands the snapshot so far to the command while nvidia-smi works (check begins its checks there):
// every section but what needs the answer, as the very objects of the snapshot it then returns.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectSnapshot, NOT_YET_ANSWERED } from '../../src/gather/snapshot/collect.js';
import type { NvidiaRuns } from '../../src/gather/nvidia/run.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeOptions } from '../../src/gather/probe-env.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import type { RunResult } from '../../src/ports/runner.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { fakeRunner, ok } from '../helpers/fake-runner.js';
import { FIXTURES } from '../helpers/fake-bin.js';
import { buildH200Tree, H200_ENV } from '../libs/h200-tree.js';
import { runLibrariesJob } from '../../src/gather/libraries/probe.js';
import type { LibrariesEarly, LibrariesPosted } from '../../src/gather/libraries/libraries-job.js';
import { realRunner } from '../../src/ports/runner.js';
import { Prejudge } from '../../src/commands/shared/prejudge.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';

const XML = fs.readFileSync(path.join(FIXTURES, 'h200/idle/nvidia-smi-q.xml'), 'utf8');
const CSV = fs.readFileSync(path.join(FIXTURES, 'h200/idle/query-gpu.csv'), 'utf8');

let root: string;
beforeAll(() => {
  root = buildH200Tree();
});

/** nvidia-smi's calls, answered when the test says so (or already answered). */
function heldNvidia(answeredAlready = false): { runs: NvidiaRuns; answer: () => void } {
  let answer!: () => void;
  const results = new Promise<[RunResult, RunResult]>((resolve) => {
    answer = () => resolve([ok(XML), ok(CSV)]);
  });
  if (answeredAlready) answer();
  return { runs: { startedAt: performance.now(), results }, answer };
}

const ENV = { ...H200_ENV, VIRTUAL_ENV: '/opt/torch/.venv', HOME: '/root' };

function collect(
  runs: NvidiaRuns,
  whileWaiting: Parameters<typeof collectSnapshot>[3],
  options: Partial<ProbeOptions> = {},
  librariesEarly?: LibrariesEarly,
) {
  return collectSnapshot(
    {
      fs: createFileSystem(root),
      runner: fakeRunner([]),
      env: ENV,
      now: () => Date.UTC(2026, 11, 3),
      pid: 4242,
      options: { ...DEFAULT_PROBE_OPTIONS, ...options },
    },
    'all',
    runs,
    whileWaiting,
    librariesEarly,
  );
}

/** The scan's worker, stood in for: the same job's result (run here), posted when the test says. */
async function heldWorker(): Promise<{ early: LibrariesEarly; post: () => void; posted: LibrariesPosted }> {
  const posted = await runLibrariesJob(
    { root, env: ENV, options: { ...DEFAULT_PROBE_OPTIONS } },
    createFileSystem(root),
    realRunner,
  );
  let post!: () => void;
  const result = new Promise<LibrariesPosted>((resolve) => {
    post = () => resolve(posted);
  });
  return {
    early: { startedAt: performance.now(), fromCache: false, worker: { result: () => result, stop: () => undefined } },
    post,
    posted,
  };
}

describe('the snapshot so far, while nvidia-smi works', () => {
  it('has every section probed before the answer, the same objects as the snapshot returned', async () => {
    const { runs, answer } = heldNvidia();
    const seen: { soFar: Snapshot; answeredThen: boolean; answered: () => boolean }[] = [];
    const whole = await collect(runs, async (soFar, answered) => {
      seen.push({ soFar, answeredThen: answered(), answered });
      answer();
      await runs.results;
    });
    expect(seen).toHaveLength(1);
    const { soFar, answeredThen, answered } = seen[0]!;
    expect(answeredThen).toBe(false);
    expect(answered()).toBe(true);
    expect(soFar.nvidia).toEqual(NOT_YET_ANSWERED.nvidia);
    expect(soFar.processes).toEqual(NOT_YET_ANSWERED.processes);
    expect(whole.nvidia.ok).toBe(true);
    for (const k of ['system', 'env', 'self', 'toolkit', 'python'] as const) expect(soFar[k]).toBe(whole[k]);
    expect(soFar.host).toEqual(whole.host);
    expect(soFar.python?.environments.length).toBeGreaterThan(0);
    // the libraries found, without what the GPU processes mapped
    const { loaded, processes, durationMs, ...found } = whole.libraries!;
    expect(soFar.libraries).toMatchObject({ ...found, loaded: [], processes: [] });
    expect(soFar.libraries!.copies).toBe(whole.libraries!.copies);
    expect(soFar.libraries!.consumers).toBe(whole.libraries!.consumers);
    expect(soFar.libraries!.copies.length).toBeGreaterThan(0);
  });

  it("while the scan's worker reads the libraries: handed over without them, then with them; a plain run's findings", async () => {
    const { runs, answer } = heldNvidia();
    const { early, post, posted } = await heldWorker();
    const prejudge = new Prejudge(ALL_CHECKS);
    const seen: { libraries: unknown; answered: () => boolean }[] = [];
    const whole = await collect(
      runs,
      async (soFar, answered) => {
        seen.push({ libraries: soFar.libraries, answered });
        await prejudge.beginChecks(soFar, answered);
        if (seen.length === 1)
          post(); // the libraries come while nvidia-smi still works
        else answer();
      },
      {},
      early,
    );
    expect(seen).toHaveLength(2);
    expect(seen[0]!.libraries).toBeUndefined();
    expect(seen[0]!.answered()).toBe(true);
    expect(seen[1]!.libraries).toBe(posted.section);
    expect(whole.libraries).toBe(posted.section);
    expect(prejudge.stats().ranEarly).toBe(ALL_CHECKS.length);
    const findings = (r: { findings: unknown[] }[]) => r.map((x) => x.findings);
    expect(findings(prejudge.finishChecks(whole))).toEqual(findings(runChecks(ALL_CHECKS, whole)));
  });

  it('is not handed over when the answer came first, or with --deep', async () => {
    let calls = 0;
    const hook = async () => {
      calls++;
    };
    const early = heldNvidia(true);
    await early.runs.results;
    await collect(early.runs, hook);
    const deep = heldNvidia();
    setTimeout(deep.answer, 50);
    await collect(deep.runs, hook, { deep: 'native' });
    expect(calls).toBe(0);
  });

  it('work that fails there changes nothing: the snapshot is collected as without it', async () => {
    const { runs, answer } = heldNvidia();
    const whole = await collect(runs, async () => {
      answer();
      throw new Error('early work failed');
    });
    expect(whole.nvidia.ok).toBe(true);
    expect(whole.python?.environments.length).toBeGreaterThan(0);
  });
});
