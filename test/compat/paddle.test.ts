// PaddlePaddle as a known framework: the data rows (read from PaddlePaddle's install docs), the specs users
// write (paddlepaddle-gpu==2.6.1.post120, paddle==3.0.0, paddlepaddle==2.6.0), the requirements, machine
// verdicts on the real H200 snapshot, and the version checks judging an installed paddlepaddle-gpu.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { cudnnCheck } from '../../src/judge/checks/versions/cudnn.js';
import { driverCudaCheck } from '../../src/judge/checks/versions/driver-cuda.js';
import { gpuArchCheck } from '../../src/judge/checks/versions/gpu-arch.js';
import { nvccCheck } from '../../src/judge/checks/versions/nvcc.js';
import { pythonVersionCheck } from '../../src/judge/checks/versions/python-version.js';
import { machineVerdict } from '../../src/judge/compat/machine.js';
import { cudaOfPaddleVariant, paddleBuild, splitPaddleVersion } from '../../src/judge/compat/paddle.js';
import { requirementsFor } from '../../src/judge/compat/requirements.js';
import { parseSpec } from '../../src/judge/compat/spec.js';
import { compareVersions } from '../../src/judge/compat/version.js';
import { UsageError } from '../../src/base/errors.js';
import type { Finding } from '../../src/judge/finding.js';
import { knowledge } from '../../src/knowledge/index.js';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { applyCommand } from './apply-fix.js';
import { h200, setDriver, setGpu, withEnv } from './helpers.js';

const CHECKS = [driverCudaCheck, gpuArchCheck, cudnnCheck, pythonVersionCheck, nvccCheck];
const run = (s: Snapshot): Finding[] => runChecks(CHECKS, s).flatMap((r) => r.findings);
const errors = (fs: Finding[]) => fs.filter((f) => f.severity === 'error');

describe('paddle.json', () => {
  const rows = knowledge().paddle.releases;
  test('covers 2.1–2.6 and 3.x on Linux and Windows; 2.x rows are read from the docs, recalled rows say so', () => {
    for (const plat of ['linux', 'windows'] as const) {
      const vs = rows.filter((r) => r.platform === plat).map((r) => r.version);
      for (const v of ['2.1.3', '2.2.2', '2.3.2', '2.4.2', '2.5.2', '2.6.2', '3.0.0b2', '3.0.0'])
        expect(vs).toContain(v);
    }
    for (const r of rows) {
      if (r.confidence === 'read')
        expect(r.source).toMatch(/^https:\/\/github\.com\/PaddlePaddle\/docs\/blob\/[0-9a-f]{40}\//);
      else expect(r.notes ?? '').toMatch(/recalled/i);
    }
  });
  test('each build is named for its CUDA; the pip version is .postNNN of that CUDA or the plain PyPI default; one default per 2.x release', () => {
    for (const r of rows) {
      for (const v of r.variants) {
        expect(cudaOfPaddleVariant(v.name), `${r.version} ${v.name}`).toBe(v.cuda);
        const { version, variant } = splitPaddleVersion(v.pip);
        expect(version).toBe(r.version);
        if (variant) expect(variant).toBe(v.name);
        else
          expect(
            v.pypiDefault || compareVersions(r.version, '3.0.0a0') >= 0,
            `${v.pip} plain but not the default`,
          ).toBe(true);
      }
      const defaults = r.variants.filter((v) => v.pypiDefault).length;
      expect(defaults, `${r.platform} ${r.version}`).toBe(compareVersions(r.version, '3.0.0a0') < 0 ? 1 : 0);
      expect([...r.python].sort(compareVersions)).toEqual(r.python);
    }
  });
  test("the PyPI default: CUDA 10.2 up to 2.4, CUDA 11.8 in 2.5 and 2.6 (the docs' install commands)", () => {
    expect(paddleBuild('2.4.2', 'pypi')!.variant!.cuda).toBe('10.2');
    expect(paddleBuild('2.5.2', 'pypi')!.variant!.cuda).toBe('11.8');
    expect(paddleBuild('2.6.2', 'pypi', 'windows')!.variant!.cuda).toBe('11.8');
  });
});

describe('specs', () => {
  test.each([
    ['paddlepaddle-gpu==2.6.1.post120', { framework: 'paddle', version: '2.6.1', variant: 'cu120' }],
    ['paddlepaddle-gpu==2.5.0', { framework: 'paddle', version: '2.5.0', variant: 'pypi' }],
    ['paddlepaddle_gpu==2.5.2.post117', { framework: 'paddle', version: '2.5.2', variant: 'cu117' }],
    ['paddle==3.0.0', { framework: 'paddle', version: '3.0.0' }],
    ['paddle==3.0.0+cu126', { framework: 'paddle', version: '3.0.0', variant: 'cu126' }],
    ['paddlepaddle==2.6.0', { framework: 'paddle', version: '2.6.0', variant: 'cpu' }],
  ])('%s', (text, want) => {
    const s = parseSpec(text);
    expect({ framework: s.framework, version: s.version, ...(s.variant ? { variant: s.variant } : {}) }).toEqual(want);
  });
  test('malformed Paddle specs are one-line usage errors', () => {
    expect(() => parseSpec('paddlepaddle==2.6.0.post120')).toThrow(/CPU build/);
    expect(() => parseSpec('paddlepaddle-gpu==2.6.1+rocm')).toThrow(UsageError);
    expect(() => requirementsFor('paddlepaddle-gpu==2.9.0')).toThrow(
      /not in gpu-env-doctor's data \(known: 2\.1\.3 to 3\.1\.0\)/,
    );
    expect(() => requirementsFor('paddlepaddle-gpu==2.6.1.post102')).toThrow(
      /has no cu102 build on linux \(builds: cu112, cu116, cu117, cu118, cu120\)/,
    );
  });
});

describe('requirements', () => {
  test('paddlepaddle-gpu==2.5.0 is the CUDA 11.8 build: cuDNN 8.6.0, driver from the CUDA table, Python 3.7–3.11, compute capability 3.5+', () => {
    const r = requirementsFor('paddlepaddle-gpu==2.5.0');
    expect(r).toMatchObject({ framework: 'paddle', version: '2.5.0', variant: 'cu118', gpu: true });
    expect(r.requires).toEqual({
      cuda: ['11.8'],
      cudnn: ['8.6.0'],
      driverMin: { linux: '450.80.02', windows: '452.39' },
      python: ['3.7', '3.8', '3.9', '3.10', '3.11'],
      computeCapabilities: ['>=3.5'],
    });
    expect(r.notes.join('\n')).toMatch(/takes the row of 2\.5\.2/);
    expect(r.notes.join('\n')).toMatch(/no \.postNNN\) is the cu118 build/);
    expect(r.sources.some((s) => s.includes('PaddlePaddle/docs/blob/222c912ba1049102004373aa7f2fecd96bc02a72'))).toBe(
      true,
    );
  });
  test(".post120 on CUDA 12.0: the CUDA table raises the docs' 3.5 floor to 5.0 (CUDA 12 has no Kepler code)", () => {
    const r = requirementsFor('paddlepaddle-gpu==2.6.1.post120');
    expect(r.builds).toHaveLength(1);
    expect(r.builds[0]).toMatchObject({
      name: 'cu120',
      cuda: '12.0',
      cudnn: '8.9.1',
      minComputeCapability: '5.0',
      driverMin: { linux: '525.60.13' },
    });
  });
  test('paddle==2.4.2 lists every build; 2.4 CUDA 10.2 needs the 10.2 toolkit driver (no minor-version compatibility before 11)', () => {
    const r = requirementsFor('paddle==2.4.2');
    expect(r.builds.map((b) => b.name)).toEqual(['cu102', 'cu112', 'cu116', 'cu117']);
    expect(r.builds[0]!.driverMin.linux).toBe('440.33');
  });
  test('3.x: one version for every build; the recalled 3.0.0 row is marked', () => {
    const r = requirementsFor('paddlepaddle-gpu==3.0.0');
    expect(r.builds.map((b) => b.name)).toEqual(['cu118', 'cu126']);
    expect(r.notes.join('\n')).toMatch(/recalled, not read/);
    const beta = requirementsFor('paddlepaddle-gpu==3.0.0b2');
    expect(beta.builds.map((b) => [b.name, b.cudnn, b.minComputeCapability])).toEqual([
      ['cu118', '8.6', '6.0'],
      ['cu123', '9.0', '6.0'],
    ]);
  });
  test('paddlepaddle (without -gpu) is the CPU build', () => {
    const r = requirementsFor('paddlepaddle==2.6.0');
    expect(r.gpu).toBe(false);
    expect(r.builds).toEqual([]);
  });
  test('--platform windows reads the Windows rows', () => {
    const r = requirementsFor('paddlepaddle-gpu==2.3.2.post112', 'windows');
    expect(r.requires.cudnn).toEqual(['8.2.1']);
    expect(requirementsFor('paddlepaddle-gpu==2.3.2.post112', 'linux').requires.cudnn).toEqual(['8.1.1']);
  });
});

describe('machine verdicts on the real H200 snapshot (Python 3.12, driver 580.159.04, compute capability 9.0)', () => {
  const s = withEnv({ python: '3.12', frameworks: [] });
  test('paddle==3.0.0b2 fits with its CUDA 12.3 build', () => {
    const m = machineVerdict(requirementsFor('paddle==3.0.0b2'), s);
    expect(m.ok).toBe(true);
    expect(m.build).toBe('cu123');
  });
  test('paddlepaddle-gpu==2.5.0 does not (Python 3.12); the fix is the newest read build that runs here, 2.6.2.post120', () => {
    const m = machineVerdict(requirementsFor('paddlepaddle-gpu==2.5.0'), s);
    expect(m.ok).toBe(false);
    expect(m.verdicts.find((v) => v.id === 'python')).toMatchObject({ status: 'fail' });
    expect(m.fix!.commands).toEqual([
      'python -m pip install paddlepaddle-gpu==2.6.2.post120 -i https://www.paddlepaddle.org.cn/packages/stable/cu120/',
    ]);
  });
  test('a CUDA 10.2 build on Hopper: CUDA 10.2 cannot build sm_90 code, said as a warning (PTX is not documented)', () => {
    const m = machineVerdict(requirementsFor('paddle==2.4.2+cu102'), withEnv({ python: '3.10', frameworks: [] }));
    const arch = m.verdicts.find((v) => v.id === 'gpu-arch')!;
    expect(arch).toMatchObject({ status: 'warn', rootCause: 'gpu_arch_unsupported' });
    expect(arch.message).toMatch(/CUDA 10\.2 cannot build code for GPU 0 \(NVIDIA H200, compute capability 9\.0\)/);
  });
  test('a Kepler GPU is below every 3.x floor (6.0)', () => {
    const k = withEnv({ python: '3.10', frameworks: [] }, (x) => setGpu(x, 'Tesla K80', '3.7'));
    const m = machineVerdict(requirementsFor('paddle==3.0.0b2'), k);
    expect(m.ok).toBe(false);
    expect(m.verdicts.find((v) => v.id === 'gpu-arch')!.message).toMatch(/needs compute capability 6\.0 or higher/);
  });
});

describe('the version checks judge an installed paddlepaddle-gpu', () => {
  test('2.6.1.post120 under Python 3.12 on the H200: driver, GPU and Python ok; the CUDA 13.0 toolkit is not the CUDA 12 Paddle 2.x loads', () => {
    const nvcc13 = (x: Snapshot) => {
      x.toolkit = {
        nvcc: {
          path: '/usr/local/cuda/bin/nvcc',
          root: '/usr/local/cuda-13.0',
          version: '13.0',
          source: '/usr/local/cuda-13.0/version.json',
        },
      };
    };
    const fs = run(
      withEnv({ python: '3.12', frameworks: [], packages: [['paddlepaddle-gpu', '2.6.1.post120']] }, nvcc13),
    );
    const msgs = fs.map((f) => `${f.status} ${f.message}`).join('\n');
    expect(errors(fs)).toEqual([]);
    expect(msgs).toContain('ok Driver 580.159.04 runs the CUDA 12.0 runtime of paddlepaddle-gpu 2.6.1 (cu120)');
    expect(msgs).toContain('ok Python 3.12 is supported by paddlepaddle-gpu 2.6.1 (cu120) (3.8–3.12)');
    expect(msgs).toMatch(
      /warn paddlepaddle-gpu 2\.6\.1 \(cu120\) loads the CUDA 12 libraries of the machine \(Paddle 2\.x bundles none.*toolkit here is CUDA 13\.0/,
    );
    // the same toolkit major is fine; 3.x brings its own libraries, so nvcc is only information there
    const same = run(
      withEnv({ python: '3.12', frameworks: [], packages: [['paddlepaddle-gpu', '2.6.1.post120']] }, (x) => {
        x.toolkit = {
          nvcc: {
            path: '/usr/local/cuda/bin/nvcc',
            root: '/usr/local/cuda-12.4',
            version: '12.4',
            source: '/usr/local/cuda-12.4/version.json',
          },
        };
      }),
    );
    expect(same.filter((f) => f.check === 'versions.nvcc').map((f) => f.status)).toEqual(['ok']);
    const v3 = run(
      withEnv(
        {
          python: '3.12',
          frameworks: [],
          packages: [
            ['paddlepaddle-gpu', '3.0.0'],
            ['nvidia-cuda-runtime-cu12', '12.6.77'],
          ],
        },
        nvcc13,
      ),
    );
    expect(v3.filter((f) => f.check === 'versions.nvcc').map((f) => f.status)).toEqual(['ok']);
  });
  test('the plain 2.5.2 (the CUDA 11.8 build) under Python 3.12 fails; its fix, applied, passes', () => {
    const s = withEnv({ python: '3.12', frameworks: [], packages: [['paddlepaddle-gpu', '2.5.2']] });
    const bad = errors(run(s));
    expect(bad.map((f) => f.message)).toEqual([
      'paddlepaddle-gpu 2.5.2 (cu118) supports Python 3.7–3.11; this environment has 3.12',
    ]);
    const after = structuredClone(s);
    for (const c of bad[0]!.fix!.commands) applyCommand(after, c);
    expect(errors(run(Snapshot.parse(after)))).toEqual([]);
  });
  test('3.x: the build is read from the nvidia-cuda-runtime wheel it depends on, cuDNN from nvidia-cudnn', () => {
    const s = withEnv({
      python: '3.12',
      frameworks: [],
      packages: [
        ['paddlepaddle-gpu', '3.0.0'],
        ['nvidia-cuda-runtime-cu12', '12.6.77'],
        ['nvidia-cudnn-cu12', '9.5.1.17'],
      ],
    });
    const fs = run(s);
    expect(fs.map((f) => f.message).join('\n')).toContain(
      'runs the CUDA 12.6 runtime of paddlepaddle-gpu 3.0.0 (cu126)',
    );
    expect(errors(fs)).toEqual([]);
  });
  test('an old driver fails the CUDA 12.0 build, with the driver to install by hand', () => {
    const s = withEnv({ python: '3.10', frameworks: [], packages: [['paddlepaddle-gpu', '2.6.1.post120']] }, (x) =>
      setDriver(x, '470.82.01'),
    );
    const f = errors(run(s)).find((x) => x.rootCause === 'driver_too_old')!;
    expect(f.message).toMatch(/needs NVIDIA driver 525\.60\.13 or newer; this driver is 470\.82\.01/);
    // 470 runs CUDA 11.x through minor-version compatibility: the newest CUDA 11 build, the plain 2.6.2 (CUDA 11.8)
    expect(f.fix!.commands).toEqual([
      'python -m pip install paddlepaddle-gpu==2.6.2 -i https://pypi.tuna.tsinghua.edu.cn/simple',
    ]);
  });
  test('the CPU package alone is nothing for these checks to judge', () => {
    const fs = run(withEnv({ python: '3.12', frameworks: [], packages: [['paddlepaddle', '2.6.1']] }));
    expect(fs.every((f) => f.status === 'skip')).toBe(true);
    expect(
      runChecks(CHECKS, h200())
        .flatMap((r) => r.findings)
        .every((f) => f.status === 'skip'),
    ).toBe(true);
  });
});

describe('compat SPEC for Paddle, as users run it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compat-paddle-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const snap = path.join(dir, 'h200.json');
  fs.writeFileSync(snap, JSON.stringify(withEnv({ python: '3.12', frameworks: [] })));

  test('paddlepaddle-gpu==2.6.1.post120 --no-machine: the build in words, exit 0', () => {
    const r = runCli(['compat', 'paddlepaddle-gpu==2.6.1.post120', '--no-machine']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'paddlepaddle-gpu 2.6.1 (cu120)\n  CUDA 12.0 · cuDNN 8.9.1 · driver ≥ 525.60.13 (Linux), ≥ 527.41 (Windows) · GPUs ≥ 5.0\n  Python 3.8–3.12',
    );
  });
  test('--json names the framework and the build', () => {
    const r = runCli(['compat', 'paddlepaddle-gpu==2.5.0', '--from', snap, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      framework: 'paddle',
      version: '2.5.0',
      variant: 'cu118',
      requires: { cuda: ['11.8'] },
      machine: { ok: false, python: '3.12' },
    });
  });
  test('the CPU package on a GPU machine: exit 1, no GPU support', () => {
    const r = runCli(['compat', 'paddlepaddle==2.6.0', '--from', snap]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('paddlepaddle 2.6.0\n  no NVIDIA GPU support in this build');
  });
  test('an unknown release is a one-line usage error (exit 2)', () => {
    const r = runCli(['compat', 'paddle==9.9', '--no-machine']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/paddle 9\.9 is not in gpu-env-doctor's data/);
  });
});
