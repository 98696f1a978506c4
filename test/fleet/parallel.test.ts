// `fleet` on several cores: the built CLI over enough files to cut them into slices merged by worker threads
// (where the machine has idle cores), beside one merger given every file in order (these sources, one thread):
// the same output to the byte, in the language asked for (the skip reasons are written in the workers).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeName, nodeSnapshot } from '../../bench/fleet-generate.js';
import { expandInputs, readInput } from '../../src/gather/fleet-inputs.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { availableThreads } from '../../src/ports/worker.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { FleetMerger } from '../../src/judge/fleet/merge.js';
import { Worker } from 'node:worker_threads';
import {
  type FleetJob,
  fleetThreads,
  sliceBounds,
  WORKER_START_FILES,
  MAX_THREADS,
  MIN_FILES_PER_THREAD,
  mergeInSlices,
  mergeSlice,
} from '../../src/judge/fleet/parallel.js';
import type { FleetPartial } from '../../src/judge/fleet/merge.js';
import { getLang, setLang, type Lang } from '../../src/base/i18n/index.js';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { realSnapshot } from './h200-snapshot.js';

const base = { idle: realSnapshot('h200-idle.json'), held: realSnapshot('h200-memory-held.json') };
const N = 3 * MIN_FILES_PER_THREAD;
let dir: string;

beforeAll(() => {
  dir = tempDir('ged-fleet-par-');
  for (let i = 0; i < N; i++) {
    const s = nodeSnapshot(i, base, { heldEvery: 9 });
    // the same host in the first and the last slice: the later one is renamed after the join
    if (i === N - 2) s.host.name = nodeName(1);
    const sub = path.join(dir, 'nodes', `rack-${Math.floor(i / 100)}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `${nodeName(i)}.json`), JSON.stringify(s));
  }
  // unreadable inputs in the middle of the second and third slices
  fs.writeFileSync(path.join(dir, 'nodes', 'rack-3', 'broken.json'), '{"schemaVersion": 1, "host": ');
  fs.writeFileSync(path.join(dir, 'nodes', 'rack-6', 'empty.json'), '');
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** One merger, one thread, every file in order: what `fleet --json` printed before it used threads. */
function oneThread(lang: Lang): string {
  const before = getLang();
  setLang(lang);
  try {
    const fsys = createFileSystem('/');
    const { files, problems, walked } = expandInputs(fsys, dir, ['nodes']);
    const m = new FleetMerger({ checks: ALL_CHECKS });
    for (const p of problems) m.skip(p.file, p.reason);
    for (const f of files) {
      const input = readInput(fsys, dir, f, walked.get(f));
      if ('snapshot' in input) m.add(input.snapshot, f);
      else m.skip(f, input.problem);
    }
    return `${JSON.stringify(m.result(), null, 2)}\n`;
  } finally {
    setLang(before);
  }
}

describe('fleet on several cores', () => {
  it('how many threads: one below the per-thread minimum, never more than the cores or the cap', () => {
    expect(fleetThreads(10, 16)).toBe(1);
    expect(fleetThreads(MIN_FILES_PER_THREAD * 2 - 1, 16)).toBe(1);
    expect(fleetThreads(MIN_FILES_PER_THREAD * 2, 16)).toBe(2);
    expect(fleetThreads(10_000, 2)).toBe(2);
    expect(fleetThreads(10_000, 1)).toBe(1);
    expect(fleetThreads(100_000, 64)).toBe(MAX_THREADS);
  });

  it("slices: contiguous, every file once, the first larger by the workers' start", () => {
    const check = (files: number, threads: number) => {
      const b = sliceBounds(files, threads);
      expect(b[0]).toBe(0);
      expect(b[b.length - 1]).toBe(files);
      for (let i = 1; i < b.length; i++) expect(b[i]! - b[i - 1]!).toBeGreaterThan(files === 0 ? -1 : 0);
      expect(b.length - 1).toBe(Math.max(1, Math.min(threads, files)));
      return b;
    };
    // two threads on 10,000: this thread takes half the start's worth more, the worker as much less
    expect(check(10_000, 2)).toEqual([0, 5000 + WORKER_START_FILES / 2, 10_000]);
    // eight: this thread +7/8 of it, each worker −1/8, the rest shared evenly
    const b8 = check(100_000, 8);
    expect(b8[1]).toBe(Math.round(12_500 + (WORKER_START_FILES * 7) / 8));
    const sizes = b8.slice(2).map((x, i) => x - b8[i + 1]!);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    // few files: every worker keeps one; one slice per file at most; one thread takes all
    expect(check(3, 4)).toEqual([0, 1, 2, 3]);
    expect(check(10, 2)).toEqual([0, 9, 10]);
    expect(check(10_000, 1)).toEqual([0, 10_000]);
    expect(check(0, 4)).toEqual([0, 0]);
  });

  it('--json: the same bytes as one merger in one thread', () => {
    // cut into slices where this machine has two idle cores or more; one merger otherwise, the same bytes either way
    expect(fleetThreads(N + 2, availableThreads())).toBeGreaterThan(1);
    const r = runCli(['fleet', 'nodes', '--json'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1); // the nodes holding memory have errors
    const out = JSON.parse(r.stdout);
    expect(out.machines).toBe(N);
    expect(out.duplicates).toEqual([nodeName(1)]);
    expect(out.inputs.skipped).toHaveLength(2);
    expect(r.stdout).toBe(oneThread('en'));
  }, 180_000);

  it('--lang zh: the skip reasons in the language asked for, in every slice', () => {
    const r = runCli(['fleet', 'nodes', '--lang', 'zh'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    // the empty file sits in the last slice, the broken one in the first
    expect(r.stdout).toContain('nodes/rack-6/empty.json：空文件');
    expect(r.stdout).toContain('nodes/rack-3/broken.json：不是 JSON');
  }, 180_000);

  it('the bundled worker (dist/entries/fleet-worker.js) merges its slice as this thread does, in the language given', async () => {
    const fsys = createFileSystem('/');
    const { files, walked } = expandInputs(fsys, dir, ['nodes']);
    const slice = files.slice(550, 650); // rack-5 and rack-6, with the empty file
    const job: FleetJob = {
      cwd: dir,
      files: slice,
      walked: slice.map((f) => [f, walked.get(f)!]),
      ignored: [],
      lang: 'zh',
    };
    const posted = await new Promise<FleetPartial>((resolve, reject) => {
      const w = new Worker(path.join(path.dirname(CLI), 'entries', 'fleet-worker.js'), { workerData: job });
      w.once('message', (m: FleetPartial) => {
        resolve(m);
        void w.terminate();
      });
      w.once('error', reject);
    });
    expect(posted.hosts).toHaveLength(99);
    expect(posted.skipped).toEqual([{ file: 'nodes/rack-6/empty.json', reason: '空文件' }]);
    setLang('zh');
    try {
      expect(posted).toEqual(mergeSlice(job));
    } finally {
      setLang('en');
    }
  });

  it('slices whose worker cannot run (no bundled worker file here) are merged in this thread: the same result', async () => {
    const fsys = createFileSystem('/');
    const { files, problems, walked } = expandInputs(fsys, dir, ['nodes']);
    const m = new FleetMerger({ checks: ALL_CHECKS });
    for (const p of problems) m.skip(p.file, p.reason);
    const parts = await mergeInSlices({ cwd: dir, files, walked, ignored: [] }, 3);
    expect(parts).toHaveLength(3);
    for (const p of parts) m.absorb(p);
    expect(`${JSON.stringify(m.result(), null, 2)}\n`).toBe(oneThread('en'));
  });
});
