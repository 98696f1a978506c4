// The libraries section built in a worker thread (dist/libraries-worker.js, used by `check` and `libs` on a machine
// with idle cores and no GPU process): the same section as the scan in this thread, on the H200 tree rebuilt under
// --root (its pip and system cuDNN, the ld cache, LD_LIBRARY_PATH pointing at the system copy).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { realRunner } from '../../src/ports/runner.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../../src/gather/probe-env.js';
import { addProcesses, scanLibraries, type LibrariesJob } from '../../src/gather/libraries/probe.js';
import { discoverEnvironments } from '../../src/gather/python/discover.js';
import type { LibrariesSection } from '../../src/gather/snapshot/schema-libraries.js';
import { CLI } from '../helpers/cli.js';
import { buildH200Tree, H200_ENV } from './h200-tree.js';

let root = '';
beforeAll(() => {
  root = buildH200Tree();
}, 120000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function inWorker(job: LibrariesJob): Promise<LibrariesSection> {
  return new Promise((resolve, reject) => {
    const w = new Worker(path.join(path.dirname(CLI), 'libraries-worker.js'), { workerData: job });
    w.once('message', (m: LibrariesSection) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

const withoutTime = ({ durationMs: _, ...rest }: LibrariesSection) => rest;

describe('the libraries section from the worker thread', () => {
  for (const [name, extra] of [
    ['as installed', {}],
    ['with the system cuDNN first on LD_LIBRARY_PATH', { LD_LIBRARY_PATH: '/usr/lib/x86_64-linux-gnu' }],
  ] as const) {
    it(`${name}: the same as the scan in this thread`, async () => {
      const env = { ...H200_ENV, ...extra };
      const penv: ProbeEnv = {
        fs: createFileSystem(root).session!(),
        runner: realRunner,
        env,
        now: () => Date.now(),
        pid: process.pid,
        options: { ...DEFAULT_PROBE_OPTIONS, elfFiles: [] },
      };
      const environments = discoverEnvironments(penv);
      expect(environments.length).toBeGreaterThan(0);
      const here = addProcesses(await scanLibraries(penv, environments), []);
      const there = await inWorker({ root, env, timeoutMs: 5000, elfFiles: [], environments });
      expect(there.copies.length).toBeGreaterThan(5);
      expect(there.consumers.some((c) => c.framework === 'torch')).toBe(true);
      expect(withoutTime(there)).toEqual(withoutTime(here));
    }, 60_000);
  }
});
