// The worker threads check starts (the library scan, torch's fatbinary) are one CommonJS file each
// (scripts/build.mjs buildWorkers): the thread runs them without Node's ES module loader; the sources name them
// (src/gather/libraries/libraries-job.ts, fatbin.ts).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { writeLdCache } from '../libs/h200-tree.js';

/** The Node modules the library scan's worker thread has loaded when it posts its answer (the section checked). */
function loadsOfScan(root: string): string[] {
  const job = {
    root,
    env: { PATH: '/usr/bin:/bin' },
    options: { timeoutMs: 5000, deep: 'off', pythons: [], allEnvs: false, elfFiles: [], pids: [] },
  };
  // the worker file run from a prelude that counts the modules when the answer is posted
  const script = `
const { Worker } = require('node:worker_threads');
const hook = "const wt = require('node:worker_threads'); const post = wt.parentPort.postMessage.bind(wt.parentPort);" +
  "wt.parentPort.postMessage = (m) => post({ m, loads: process.moduleLoadList });";
const run = 'require(' + JSON.stringify(process.argv[1]) + ')';
const w = new Worker(hook + run, { eval: true, workerData: JSON.parse(process.argv[2]) });
w.once('message', (r) => { process.stdout.write(JSON.stringify(r)); w.terminate(); });
w.once('error', (e) => { console.error(e); process.exit(1); });`;
  const file = path.join(path.dirname(CLI), 'libraries-worker.cjs');
  const r = spawnSync(process.execPath, ['-e', script, file, JSON.stringify(job)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  const { m, loads } = JSON.parse(r.stdout) as { m: { section: { copies: unknown[] } }; loads: string[] };
  expect(Array.isArray(m.section.copies)).toBe(true);
  return loads;
}

describe('the bundled worker files', () => {
  it('are CommonJS, and the scan runs in its thread without the ES module loader', () => {
    for (const name of ['libraries-worker', 'fatbin-worker', 'explain-worker']) {
      expect(fs.existsSync(path.join(path.dirname(CLI), `${name}.cjs`))).toBe(true);
      expect(fs.existsSync(path.join(path.dirname(CLI), `${name}.js`))).toBe(false);
    }
    const root = tempDir('ged-wroot-');
    fs.mkdirSync(path.join(root, 'etc'));
    writeLdCache(path.join(root, 'etc/ld.so.cache'), [{ name: 'libc.so.6', path: '/lib/x86_64-linux-gnu/libc.so.6' }]);
    const withCache = loadsOfScan(root);
    expect(withCache).toContain('NativeModule internal/modules/cjs/loader');
    expect(withCache).not.toContain('NativeModule internal/modules/esm/module_job');
    expect(withCache).not.toContain('NativeModule internal/modules/esm/translators');
    // nor what the scan does not use: node:module's public API, child processes (it reads the ld cache)
    expect(withCache).not.toContain('NativeModule module');
    expect(withCache).not.toContain('NativeModule child_process');
    // with no ld.so.cache it asks `ldconfig -p`: the runner loads then
    fs.rmSync(path.join(root, 'etc/ld.so.cache'));
    expect(loadsOfScan(root)).toContain('NativeModule child_process');
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);
});
