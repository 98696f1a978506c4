// torch's GPU architectures read from libtorch_cuda.so's fatbinary (no import), and the version check that
// uses them in a plain `check`: here a library nvcc built for sm_75 + sm_90 + compute_90 stands in for it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { probePython } from '../../src/gather/python/probe.js';
import { runCli } from '../helpers/cli.js';
import { planted } from '../helpers/snapshots.js';
import { freshRoot, probeEnvFor } from './helpers.js';
import { h200Venv } from './scenarios.js';

const SP = '/opt/torch/.venv/lib/python3.12/site-packages';
const LIB = path.resolve(__dirname, '../fixtures/cuda/libk-sm75-sm90-ptx90.so');

async function pythonSection() {
  const root = freshRoot();
  h200Venv(root);
  fs.mkdirSync(path.join(root, SP, 'torch/lib'), { recursive: true });
  fs.copyFileSync(LIB, path.join(root, SP, 'torch/lib/libtorch_cuda.so'));
  return probePython(
    probeEnvFor(root, { PATH: '/opt/torch/.venv/bin:/usr/bin', HOME: '/root', VIRTUAL_ENV: '/opt/torch/.venv' }),
  );
}

describe("torch's architectures without importing torch", () => {
  it('come from the fatbinary, with the library named as the source', async () => {
    const py = await pythonSection();
    const torch = py.environments.flatMap((e) => e.frameworks).find((f) => f.framework === 'torch')!;
    expect(torch.computeCapabilities).toEqual(['sm_75', 'sm_90', 'compute_90']);
    expect(torch.sources).toContain(`${SP}/torch/lib/libtorch_cuda.so`);
  });

  it('an sm_86 GPU gets no code from this build: versions.gpu-arch fails; the H200 (sm_90) passes', async () => {
    const py = await pythonSection();
    const arch = (cc: string, name: string) => {
      const s = planted('h200-idle', (x) => {
        x.python = py;
        if (x.nvidia.ok) Object.assign(x.nvidia.gpus[0]!, { computeCapability: cc, name });
      });
      return runChecks(ALL_CHECKS, s)
        .flatMap((r) => r.findings)
        .filter((f) => f.check === 'versions.gpu-arch' && /torch/.test(f.message));
    };
    const ampere = arch('8.6', 'NVIDIA GeForce RTX 3090');
    expect(ampere.some((f) => f.status === 'fail' && f.rootCause === 'gpu_arch_unsupported')).toBe(true);
    const hopper = arch('9.0', 'NVIDIA H200');
    expect(hopper.every((f) => f.status === 'ok')).toBe(true);
  });
});

describe('in the built CLI', () => {
  // dist/ reads the fatbinary in a worker thread (dist/fatbin-worker.js) while the main thread reads the rest;
  // the sources above read it in the thread itself. Both must give the same list.
  it('the worker thread reads the same architectures (snapshot --root)', () => {
    const root = freshRoot();
    h200Venv(root);
    fs.mkdirSync(path.join(root, SP, 'torch/lib'), { recursive: true });
    fs.copyFileSync(LIB, path.join(root, SP, 'torch/lib/libtorch_cuda.so'));
    const r = runCli(['snapshot', '--root', root], {
      env: { PATH: '/opt/torch/.venv/bin:/usr/bin:/bin', HOME: '/root', VIRTUAL_ENV: '/opt/torch/.venv' },
    });
    expect(r.code).toBe(0);
    const snap = JSON.parse(r.stdout) as {
      python: { environments: { frameworks: { framework: string; computeCapabilities: string[] | null }[] }[] };
      probes: { id: string; ok: boolean; message?: string }[];
    };
    const torch = snap.python.environments.flatMap((e) => e.frameworks).find((f) => f.framework === 'torch')!;
    expect(torch.computeCapabilities).toEqual(['sm_75', 'sm_90', 'compute_90']);
    expect(snap.probes.find((p) => p.id === 'torch-fatbin')).toMatchObject({
      ok: true,
      message: '1 file(s) read in the worker thread',
    });
  });
});
