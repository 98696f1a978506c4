// The native smoke test binds cuDNN's functions the way a framework's code does: through the process's global
// scope, where LD_PRELOAD comes first. A preloaded libcudnn.so.9 answering cudnnGetVersion() with 9.14 must be
// what the test reports, though the plan loads another libcudnn by path (its own handle would say 9.19).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realRunner } from '../../src/ports/runner.js';
import type { SmokePlan } from '../../src/gather/python/smoke-plan.js';
import { startSmokeTests } from '../../src/gather/python/smoke.js';
import type { SmokeRun } from '../../src/gather/snapshot/schema-smoke.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildFakeCuda } from '../helpers/fake-cuda.js';

const PYTHON = (
  spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout || ''
).trim();
let dir = '';
let libs: { cudart: string; cudnn: string; cublas: string };
let preload = '';
beforeAll(() => {
  dir = tempDir('ged-smoke-preload-');
  libs = buildFakeCuda({ cudart: dir, cudnn: dir, cublas: dir });
  fs.mkdirSync(path.join(dir, 'pre'));
  preload = path.join(dir, 'pre', 'libcudnn.so.9');
  fs.writeFileSync(path.join(dir, 'pre.c'), '#include <stddef.h>\nsize_t cudnnGetVersion(void) { return 91400; }\n');
  execFileSync('gcc', ['-shared', '-fPIC', '-o', preload, path.join(dir, 'pre.c'), '-Wl,-soname,libcudnn.so.9'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}, 60000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const plan = (): SmokePlan => ({
  consumers: [
    {
      framework: 'torch',
      path: '/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so',
      environment: '/opt/torch/.venv',
    },
  ],
  files: [
    { role: 'libcudart', path: libs.cudart, version: '13.0.96' },
    { role: 'libcublas', path: libs.cublas, version: '13.1.0.3' },
    { role: 'libcudnn', path: libs.cudnn, version: '9.19.0' },
  ],
  cudart: libs.cudart,
  cudnn: libs.cudnn,
  cublas: libs.cublas,
});

async function smoke(env: Record<string, string>): Promise<SmokeRun> {
  const started = startSmokeTests([plan()], () => PYTHON, {
    runner: realRunner,
    env: { PATH: process.env.PATH, FAKE_CUDA: '', ...env },
    timeoutMs: 30000,
  });
  started.go();
  return (await started.results)[0]!;
}

describe('the smoke test honours the preload, as the framework does', () => {
  it('without a preload the planned libcudnn answers (9.19.0)', async () => {
    const run = await smoke({});
    expect(run.versions?.cudnn).toBe(91900);
  });
  it('with LD_PRELOAD of another libcudnn.so.9 its cudnnGetVersion wins (9.14.0) over the planned file’s', async () => {
    const run = await smoke({ LD_PRELOAD: preload });
    expect(run.versions?.cudnn).toBe(91400);
    expect(run.gpus.length).toBeGreaterThan(0); // the rest of cuDNN still comes from the planned file
  });
});
