// `compat SPEC` as users run it: the built CLI, a scrubbed environment, real H200 snapshots (one planted
// with an old driver).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { withEnv, realH200Env } from './helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compat-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, doc: unknown): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(doc));
  return p;
}

const real = write('h200.json', withEnv(realH200Env()));
const old = write(
  'old.json',
  withEnv(realH200Env(), (s) => {
    if (s.nvidia.ok) s.nvidia.driverVersion = '470.82.01';
  }),
);

describe('compat', () => {
  test('torch==2.11.0+cu130 fits the H200 (exit 0), in words', () => {
    const r = runCli(['compat', 'torch==2.11.0+cu130', '--from', real]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('CUDA 13.0 · cuDNN 9.17.1.4 · driver ≥ 580.65.06 (Linux)');
    // judged from a snapshot: "that machine", and which snapshot it was (issue 16.3)
    expect(r.stdout).toContain('Verdict: that machine fits torch 2.11.0.');
    expect(r.stdout).toMatch(/The snapshot .* \(host \S+, taken \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });
  test('--json has the contract shape, with the machine verdicts', () => {
    const r = runCli(['compat', 'jax==0.11.2', '--from', real, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      framework: 'jax',
      version: '0.11.2',
      requires: { driverMin: { linux: '525.60.13' }, python: ['>=3.11'] },
      machine: { ok: true, build: 'cuda13', driver: '580.159.04', python: '3.12' },
    });
    expect(Array.isArray(doc.sources) && doc.sources.length > 0).toBe(true);
  });
  test('an old driver: exit 1, the newest build this driver runs, and the driver to upgrade to', () => {
    const r = runCli(['compat', 'torch==2.11.0+cu130', '--from', old]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'needs NVIDIA driver 580.65.06 or newer; this driver is 470.82.01 (it runs CUDA up to 11.4)',
    );
    expect(r.stdout).toContain('$ pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/cu118');
    expect(r.stdout).toContain('upgrade the NVIDIA driver to 580.65.06 or newer');
  });
  test('--no-machine judges the spec alone (exit 0) and -v lists the sources', () => {
    const r = runCli(['compat', 'tensorflow==2.12', '--no-machine', '-v']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('CUDA 11.8 · cuDNN 8.6 · driver ≥ 450.80.02 (Linux), ≥ 452.39 (Windows)');
    expect(r.stdout).toContain('tensorflow/docs');
    expect(r.stdout).not.toContain('This machine');
  });
  test.each([
    [['compat'], 'compat needs a SPEC'],
    [['compat', 'torch==9.9', '--no-machine'], 'torch 9.9 is not in'],
    [['compat', 'torch==2.1.0+cu126', '--no-machine'], 'has no +cu126 build'],
    [['compat', 'torch==2.1', '--no-machine', '--from', real], 'cannot be used together'],
  ])('usage errors exit 2 with one line: %j', (args, text) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  test('check --from the old-driver snapshot reports driver_too_old from versions.driver-cuda', () => {
    const r = runCli(['check', '--from', old, '--json']);
    const doc = JSON.parse(r.stdout);
    const f = doc.findings.filter(
      (x: { check: string; severity: string }) => x.check === 'versions.driver-cuda' && x.severity === 'error',
    );
    // torch cu130 and JAX's CUDA 13 plugin both need 580+
    expect(f.map((x: { affects: { framework: string } }) => x.affects.framework).sort()).toEqual(['jax', 'torch']);
    f.sort((a: { affects: { framework: string } }, b: { affects: { framework: string } }) =>
      a.affects.framework === 'torch' ? -1 : 1,
    );
    expect(f[0].rootCause).toBe('driver_too_old');
    expect(f[0].fix.commands[0]).toBe('pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/cu118');
    // no JAX CUDA build runs on 470: the fix is the driver
    expect(f[1].fix.manual.join(' ')).toContain('nvidia-driver-580');
    expect(r.code).toBe(1);
  });
});
