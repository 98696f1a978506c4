// `fleet` on several cores: the built CLI over enough files to cut them into chunks taken by worker threads and
// this one (where the machine has two cores or more), beside one merger given every file in order (one thread):
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
  chunkSize,
  type FleetJob,
  type FleetMessage,
  fleetThreads,
  MAX_THREADS,
  MIN_FILES_PER_THREAD,
  mergeChunks,
  mergeInChunks,
} from '../../src/judge/fleet/parallel.js';
import { streamWorker } from '../../src/ports/worker.js';
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
    // the same host in the first and the last chunk: the later one is renamed after the join
    if (i === N - 2) s.host.name = nodeName(1);
    const sub = path.join(dir, 'nodes', `rack-${Math.floor(i / 100)}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `${nodeName(i)}.json`), JSON.stringify(s));
  }
  // unreadable inputs in the middle
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

  it('chunks: about 32 per thread, between 16 and 256 files', () => {
    expect(chunkSize(10_000, 2)).toBe(157);
    expect(chunkSize(10_000, 8)).toBe(40);
    expect(chunkSize(600, 2)).toBe(16);
    expect(chunkSize(1_000_000, 8)).toBe(256);
  });

  it('--json: the same bytes as one merger in one thread', () => {
    // cut into chunks where this machine has two cores or more; one merger otherwise, the same bytes either way
    expect(fleetThreads(N + 2, availableThreads())).toBeGreaterThan(1);
    const r = runCli(['fleet', 'nodes', '--json'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1); // the nodes holding memory have errors
    const out = JSON.parse(r.stdout);
    expect(out.machines).toBe(N);
    expect(out.duplicates).toEqual([nodeName(1)]);
    expect(out.inputs.skipped).toHaveLength(2);
    expect(r.stdout).toBe(oneThread('en'));
  }, 180_000);

  it('--lang zh: the skip reasons in the language asked for, in every thread', () => {
    const r = runCli(['fleet', 'nodes', '--lang', 'zh'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    // the empty file (rack-6) and the broken one (rack-3) sit in different chunks
    expect(r.stdout).toContain('nodes/rack-6/empty.json：空文件');
    expect(r.stdout).toContain('nodes/rack-3/broken.json：不是 JSON');
  }, 180_000);

  /** The inputs as the walk gives them, packed as mergeInChunks posts them (a fresh shared counter at 0). */
  function jobOf(lang: Lang, chunk: number): FleetJob {
    const { files, walked } = expandInputs(createFileSystem('/'), dir, ['nodes']);
    const found = new Float64Array(3 * files.length);
    files.forEach((f, i) => {
      const w = walked.get(f)!;
      found.set([w.found.dev, w.found.ino, w.found.birthtimeMs], 3 * i);
    });
    return {
      cwd: dir,
      files: files.join('\0'),
      opens: files.map((f) => walked.get(f)!.open).join('\0'),
      insides: [walked.get(files[0]!)!.inside],
      inside: new Int32Array(files.length),
      found,
      ignored: [],
      lang,
      chunk,
      next: new Int32Array(new SharedArrayBuffer(4)),
      source: 3,
    };
  }

  it('the bundled worker (dist/entries/fleet-worker.js) merges the chunks it takes as this thread does, in the language given', async () => {
    const job = jobOf('zh', 100);
    const got: FleetMessage[] = [];
    await new Promise<void>((resolve, reject) => {
      const w = new Worker(path.join(path.dirname(CLI), 'entries', 'fleet-worker.js'));
      w.on('message', (m: FleetMessage) => {
        got.push(m);
        if ('done' in m) {
          resolve();
          void w.terminate();
        }
      });
      w.once('error', reject);
      w.postMessage(job);
    });
    // alone, it took every chunk in order; the empty file sits in the seventh
    expect(got).toHaveLength(Math.ceil((N + 2) / 100) + 1);
    expect(got.map((m) => ('chunk' in m ? m.chunk : 'done'))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 'done']);
    const seventh = got[6] as { partial: { skipped: unknown[]; hosts: unknown[] } };
    expect(seventh.partial.skipped).toEqual([{ file: 'nodes/rack-6/empty.json', reason: '空文件' }]);
    expect(seventh.partial.hosts).toHaveLength(99);
    const here: FleetMessage[] = [];
    mergeChunks(jobOf('zh', 100), (m) => here.push(m));
    expect(got).toEqual(here);
    expect(getLang()).toBe('en');
  });

  it('chunks a worker took and never posted (it died) are merged here: the same result', async () => {
    // a worker that takes every chunk it can, as fast as it can, posts nothing and exits
    const fake = path.join(dir, 'greedy-worker.mjs');
    fs.writeFileSync(
      fake,
      `import { parentPort, workerData } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
parentPort.once('message', (job) => {
  const chunks = Math.ceil(job.files.split('\\0').length / job.chunk);
  let taken = 0;
  while (Atomics.add(job.next, 0, 1) < chunks) taken++;
  writeFileSync(workerData, String(taken));
  process.exit(0);
});
`,
    );
    const report = path.join(dir, 'greedy-taken');
    const fsys = createFileSystem('/');
    const { files, problems, walked } = expandInputs(fsys, dir, ['nodes']);
    const m = new FleetMerger({ checks: ALL_CHECKS });
    for (const p of problems) m.skip(p.file, p.reason);
    const greedy = streamWorker<FleetMessage>(new URL(`file://${fake}`), report);
    await mergeInChunks(m, { cwd: dir, files, walked, ignored: [] }, [greedy], 2);
    expect(Number(fs.readFileSync(report, 'utf8'))).toBeGreaterThan(0);
    expect(`${JSON.stringify(m.result(), null, 2)}\n`).toBe(oneThread('en'));
  });

  it('a worker that cannot run (no bundled worker file here): this thread takes every chunk, the same result', async () => {
    const fsys = createFileSystem('/');
    const { files, problems, walked } = expandInputs(fsys, dir, ['nodes']);
    const m = new FleetMerger({ checks: ALL_CHECKS });
    for (const p of problems) m.skip(p.file, p.reason);
    await mergeInChunks(m, { cwd: dir, files, walked, ignored: [] }, [], 3);
    expect(`${JSON.stringify(m.result(), null, 2)}\n`).toBe(oneThread('en'));
  });
});
