// The library scan in a worker thread (dist/libraries-worker.cjs, started by `check` beside nvidia-smi): the section
// it posts back is the one the scan here gives, byte for byte once through the structured clone, on the H200 tree
// rebuilt under --root (its pip and system cuDNN, the ld cache, LD_LIBRARY_PATH pointing at the system copy); and
// `check` gives the same snapshot with the worker, and without it (the worker file missing: the scan here).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { realRunner } from '../../src/ports/runner.js';
import { DEFAULT_PROBE_OPTIONS } from '../../src/gather/probe-env.js';
import { runLibrariesJob } from '../../src/gather/libraries/probe.js';
import type { LibrariesJob, LibrariesPosted } from '../../src/gather/libraries/libraries-job.js';
import { CLI } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { buildH200Tree, H200_ENV } from './h200-tree.js';

let root = '';
beforeAll(() => {
  root = buildH200Tree();
}, 120000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const WORKER = path.join(path.dirname(CLI), 'libraries-worker.cjs');

function inWorker(job: LibrariesJob): Promise<LibrariesPosted> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { workerData: job });
    w.once('message', (m: LibrariesPosted) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

/** The posted data as JSON, the scan's own time left out (the only field that differs between two scans). */
const text = (p: LibrariesPosted) => JSON.stringify({ ...p, section: { ...p.section, durationMs: 0 }, doneAt: 0 });

describe('the library scan in the worker thread', () => {
  for (const [name, extra] of [
    ['as installed', {}],
    ['with the system cuDNN first on LD_LIBRARY_PATH', { LD_LIBRARY_PATH: '/usr/lib/x86_64-linux-gnu' }],
  ] as const) {
    it(`${name}: the same section and environments as the scan in this thread`, async () => {
      const job: LibrariesJob = { root, env: { ...H200_ENV, ...extra }, options: { ...DEFAULT_PROBE_OPTIONS } };
      const here = await runLibrariesJob(job, createFileSystem(root), realRunner);
      const there = await inWorker(job);
      expect(there.section.copies.length).toBeGreaterThan(5);
      expect(there.section.consumers.some((c) => c.framework === 'torch')).toBe(true);
      expect(JSON.parse(there.environments).length).toBeGreaterThan(0);
      expect(text(there)).toBe(text(here));
      // what the structured clone keeps that JSON would not show: the same keys, undefined ones included
      expect(there.section).toEqual({ ...here.section, durationMs: there.section.durationMs });
    }, 60_000);
  }
});

/** An nvidia-smi answering the H200's idle `-q -x` after `seconds`. */
function smi(seconds: number): string {
  const bin = tempDir('ged-bin-');
  const H = (p: string) => path.join(FIXTURES, 'h200', p);
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) sleep ${seconds}; cat '${H('idle/nvidia-smi-q.xml')}' ;;
  --query-gpu=*) cat '${H('idle/query-gpu.csv')}' ;;
  *) exit 2 ;;
esac`,
  );
  return bin;
}

interface Json {
  snapshot: {
    probes: { id: string; message?: string }[];
    libraries: { durationMs?: number };
    [k: string]: unknown;
  };
  findings: unknown[];
}

/** A preload giving the machine this 1-minute load (the worker is started only with an idle core to spare). */
function loadOf(load: number): string {
  const file = path.join(tempDir('ged-load-'), 'load.mjs');
  fs.writeFileSync(file, `import os from 'node:os';\nos.loadavg = () => [${load}, ${load}, ${load}];\n`);
  return file;
}

function check(cli: string, args: string[] = [], load = 0): { code: number | null; json: Json } {
  const bin = smi(0.3);
  const r = spawnSync(process.execPath, ['--import', loadOf(load), cli, 'check', '--json', '--root', root, ...args], {
    env: { ...H200_ENV, PATH: `${bin}:${H200_ENV.PATH}`, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60000,
  });
  try {
    return { code: r.status, json: JSON.parse(r.stdout) as Json };
  } catch {
    throw new Error(`not JSON (exit ${r.status}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 500)}`);
  }
}

const librariesProbe = (j: Json) => j.snapshot.probes.find((p) => p.id === 'libraries');
const withoutTime = (j: Json) => ({ ...j.snapshot.libraries, durationMs: 0 });

describe('check: the library scan started beside nvidia-smi', () => {
  it("the worker's section is the snapshot's; without the worker file the scan here gives the same", () => {
    const withWorker = check(CLI);
    expect(librariesProbe(withWorker.json)?.message).toBe('read in a worker thread');
    // a copy of the bundle without the worker file: the worker cannot start, the scan runs on the main thread
    const copy = tempDir('ged-dist-');
    fs.cpSync(path.dirname(CLI), copy, { recursive: true });
    fs.rmSync(path.join(copy, 'libraries-worker.cjs'));
    const without = check(path.join(copy, 'cli.js'));
    expect(librariesProbe(without.json)).toBeDefined();
    expect(librariesProbe(without.json)?.message).toBeUndefined();
    expect(JSON.stringify(withoutTime(withWorker.json))).toBe(JSON.stringify(withoutTime(without.json)));
    expect(without.code).toBe(withWorker.code);
    expect(JSON.stringify(without.json.findings)).toBe(JSON.stringify(withWorker.json.findings));
    fs.rmSync(copy, { recursive: true, force: true });
  }, 120_000);

  it('--deep uses the worker too (its smoke test is planned from the section); a busy machine uses none', () => {
    const deep = check(CLI, ['--deep']);
    expect(librariesProbe(deep.json)?.message).toBe('read in a worker thread');
    expect(JSON.stringify(withoutTime(deep.json))).toBe(JSON.stringify(withoutTime(check(CLI).json)));
    const busy = check(CLI, [], os.availableParallelism());
    expect(librariesProbe(busy.json)).toBeDefined();
    expect(librariesProbe(busy.json)?.message).toBeUndefined();
  }, 60_000);
});
