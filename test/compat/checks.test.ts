// The versions.* checks over snapshots: the real H200 facts, and table-driven plants from the data rows.
// Every proposed fix is applied to the snapshot (as running it would change the facts) and the checks are
// re-run: they must then pass.
import { describe, expect, test } from 'vitest';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { cudnnCheck } from '../../src/judge/checks/versions/cudnn.js';
import { driverCudaCheck } from '../../src/judge/checks/versions/driver-cuda.js';
import { gpuArchCheck } from '../../src/judge/checks/versions/gpu-arch.js';
import { nvccCheck } from '../../src/judge/checks/versions/nvcc.js';
import { pythonVersionCheck } from '../../src/judge/checks/versions/python-version.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import type { Finding } from '../../src/judge/finding.js';
import { compareVersions } from '../../src/judge/compat/version.js';
import { minDriverForCuda } from '../../src/judge/compat/cuda.js';
import { knowledge } from '../../src/knowledge/index.js';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { applyCommand, applyDriver, driverOfFix } from './apply-fix.js';
import { h200, realH200Env, setDriver, setGpu, withEnv, type PlantedEnv } from './helpers.js';

const VERSION_CHECKS = [driverCudaCheck, gpuArchCheck, cudnnCheck, pythonVersionCheck, nvccCheck];

function run(s: Snapshot): Finding[] {
  return runChecks(VERSION_CHECKS, s).flatMap((r) => r.findings);
}
const problems = (fs: Finding[]) => fs.filter((f) => f.severity === 'error' || f.status === 'crash');

/** Apply every command of a fix (and, separately, its driver upgrade) and require the checks to pass. */
function expectFixWorks(s: Snapshot, f: Finding, label: string): void {
  expect(f.fix, `${label}: a failing finding has a fix`).toBeDefined();
  const fix = f.fix!;
  expect(fix.commands.length + (fix.manual?.length ?? 0), `${label}: fix has steps`).toBeGreaterThan(0);
  if (fix.commands.length > 0) {
    const after = structuredClone(s);
    for (const c of fix.commands) applyCommand(after, c);
    const left = problems(run(Snapshot.parse(after)));
    expect(
      left.map((x) => x.message),
      `${label}: after ${fix.commands.join(' && ')}`,
    ).toEqual([]);
  }
  const d = driverOfFix(fix);
  if (d) {
    const after = structuredClone(s);
    applyDriver(after, d);
    const left = problems(run(Snapshot.parse(after))).filter((x) => x.rootCause === 'driver_too_old');
    expect(
      left.map((x) => x.message),
      `${label}: after driver ${d}`,
    ).toEqual([]);
  }
}

describe('the real H200 environment', () => {
  test('torch 2.11.0+cu130 (pip cuDNN 9.19) and JAX 0.11.2 (CUDA 13 plugin) on driver 580.159.04: all ok', () => {
    const fs = run(withEnv(realH200Env()));
    expect(problems(fs)).toEqual([]);
    expect(fs.filter((f) => f.severity === 'warn')).toEqual([]);
    const msgs = fs.map((f) => f.message).join('\n');
    expect(msgs).toContain('Driver 580.159.04 runs the CUDA 13.0 runtime of torch 2.11.0+cu130');
    expect(msgs).toContain('loads cuDNN 9.19.0: newer than the 9.17.1.4 it was built with');
    expect(msgs).toContain('jax 0.11.2 (cuda13)');
  });
  test('the checks are registered and skip when the snapshot has no Python section', () => {
    for (const c of VERSION_CHECKS) expect(ALL_CHECKS).toContain(c);
    const fs = runChecks(VERSION_CHECKS, h200()).flatMap((r) => r.findings);
    expect(fs.every((f) => f.status === 'skip')).toBe(true);
  });
});

/** A GPU the variant runs by its own SASS, else null. */
function ownGpu(sass: string[]): string | null {
  return sass[sass.length - 1] ?? null;
}

describe('versions.driver-cuda, every torch release × CUDA 11+ variant', () => {
  const rows = knowledge().pytorch.releases.flatMap((r) =>
    r.variants.filter((v) => compareVersions(v.cuda, '11.0') >= 0).map((v) => ({ r, v })),
  );
  test.each(rows.map(({ r, v }) => [`${r.version}+${v.name}`, r, v] as const))('%s', (_label, r, v) => {
    const cc = ownGpu(v.sass)!;
    const env: PlantedEnv = {
      python: r.python[0]!,
      frameworks: [{ framework: 'torch', version: r.version, variant: v.name, cuda: v.cuda }],
    };
    const min = minDriverForCuda(v.cuda).min!;
    const ok = withEnv(env, (s) => {
      setDriver(s, min);
      setGpu(s, `GPU sm_${cc}`, cc);
    });
    expect(problems(run(ok)).filter((f) => f.check === 'versions.driver-cuda')).toEqual([]);
    // one release below the floor of the CUDA major
    const below = { 11: '440.33', 12: '520.61.05', 13: '575.57.08' }[Number(v.cuda.split('.')[0]) as 11 | 12 | 13];
    const bad = withEnv(env, (s) => {
      setDriver(s, below);
      setGpu(s, `GPU sm_${cc}`, cc);
    });
    const f = run(bad).find((x) => x.check === 'versions.driver-cuda' && x.severity === 'error');
    expect(f?.rootCause).toBe('driver_too_old');
    expect(f?.message).toContain(`needs NVIDIA driver ${min} or newer`);
    expectFixWorks(bad, f!, `${r.version}+${v.name} on ${below}`);
  });
});

describe('versions.gpu-arch', () => {
  test.each([
    ['RTX 5090 on torch 2.6.0+cu124', '2.6.0', 'cu124', '12.4', 'NVIDIA GeForce RTX 5090', '12.0'],
    ['V100 on torch 2.11.0+cu130', '2.11.0', 'cu130', '13.0', 'Tesla V100-SXM2-16GB', '7.0'],
    ['K80 on torch 2.1.0+cu121', '2.1.0', 'cu121', '12.1', 'Tesla K80', '3.7'],
    ['B200 on torch 2.0.1+cu118', '2.0.1', 'cu118', '11.8', 'NVIDIA B200', '10.0'],
  ])('%s: no kernels, fails, and the fix works', (label, version, variant, cuda, gpu, cc) => {
    const s = withEnv({ python: '3.10', frameworks: [{ framework: 'torch', version, variant, cuda }] }, (x) =>
      setGpu(x, gpu, cc),
    );
    const f = run(s).find((x) => x.check === 'versions.gpu-arch' && x.severity === 'error');
    expect(f?.rootCause).toBe('gpu_arch_unsupported');
    expect(f?.message).toContain('no kernel image is available');
    if (cc === '3.7') {
      // the driver of the H200 (580) runs no CUDA 11 build that still has sm_37 … it does: cu118 wheels kept sm_37
      expect(f!.fix!.commands[0]).toMatch(/cu118$/);
    }
    expectFixWorks(s, f!, label);
  });

  test('every torch variant row: a GPU of each listed SASS capability passes, one newer major without PTX fails', () => {
    for (const r of knowledge().pytorch.releases) {
      for (const v of r.variants) {
        for (const cc of v.sass) {
          const s = withEnv(
            {
              python: r.python[0]!,
              frameworks: [{ framework: 'torch', version: r.version, variant: v.name, cuda: v.cuda }],
            },
            (x) => setGpu(x, 'GPU', cc),
          );
          expect(
            problems(run(s)).filter((f) => f.check === 'versions.gpu-arch'),
            `${r.version}+${v.name} on ${cc}`,
          ).toEqual([]);
        }
        if (v.ptx.length === 0) {
          const top = v.sass[v.sass.length - 1]!;
          const next = `${Number(top.split('.')[0]) + 1}.0`;
          const s = withEnv(
            {
              python: r.python[0]!,
              frameworks: [{ framework: 'torch', version: r.version, variant: v.name, cuda: v.cuda }],
            },
            (x) => setGpu(x, 'GPU', next),
          );
          const f = run(s).filter((x) => x.check === 'versions.gpu-arch' && x.rootCause === 'gpu_arch_unsupported');
          expect(f.length, `${r.version}+${v.name} on ${next}`).toBe(1);
        }
      }
    }
  });

  test('TensorFlow 2.12 on Hopper runs by PTX JIT: a warning; on driver 470 it fails and asks for the CUDA 11.8 driver', () => {
    const env: PlantedEnv = {
      python: '3.10',
      frameworks: [{ framework: 'tensorflow', version: '2.12.0', cuda: '11.8', cudnnBuilt: '8' }],
    };
    const warn = run(withEnv(env)).find((x) => x.check === 'versions.gpu-arch');
    expect(warn?.severity).toBe('warn');
    expect(warn?.message).toContain('JIT-compiles its compute_80 PTX');
    const old = withEnv(env, (s) => setDriver(s, '470.82.01'));
    const f = run(old).find((x) => x.check === 'versions.gpu-arch' && x.severity === 'error');
    expect(f?.rootCause).toBe('driver_too_old');
    expect(driverOfFix(f!.fix!)).toBe('520.61.05');
    expectFixWorks(old, f!, 'TF 2.12 on Hopper, driver 470');
  });
});

describe('versions.cudnn', () => {
  test('an older minor than the build fails in torch; the pinned cuDNN fixes it', () => {
    const s = withEnv({
      python: '3.10',
      frameworks: [{ framework: 'torch', version: '2.1.0', variant: 'cu121', cuda: '12.1' }],
      packages: [['nvidia-cudnn-cu12', '8.5.0.96']],
    });
    const f = run(s).find((x) => x.check === 'versions.cudnn' && x.severity === 'error');
    expect(f?.rootCause).toBe('cudnn_version_mismatch');
    expect(f?.message).toContain('older than the 8.9.2.26 it was built with');
    expect(f?.fix?.commands).toEqual(["pip install 'nvidia-cudnn-cu12==8.9.2.26'"]);
    expectFixWorks(s, f!, 'torch 2.1 with cuDNN 8.5');
  });
  test('another major (probe says 8.9.7 for a cuDNN 9 build) fails', () => {
    const s = withEnv({
      python: '3.10',
      frameworks: [{ framework: 'torch', version: '2.4.0', variant: 'cu121', cuda: '12.1', cudnnInt: 8907 }],
    });
    const f = run(s).find((x) => x.check === 'versions.cudnn' && x.severity === 'error');
    expect(f?.message).toContain('another major (built with 9.1.0.70)');
  });
  test('a cuDNN for another CUDA major fails', () => {
    const s = withEnv({
      python: '3.12',
      frameworks: [{ framework: 'torch', version: '2.11.0', variant: 'cu130', cuda: '13.0' }],
      packages: [['nvidia-cudnn-cu12', '9.19.0.56']],
    });
    const f = run(s).find((x) => x.check === 'versions.cudnn' && x.severity === 'error');
    expect(f?.message).toContain('nvidia-cudnn-cu12 is cuDNN for CUDA 12');
    expectFixWorks(s, f!, 'cu12 cuDNN under cu130 torch');
  });
  test('JAX 0.11.2 (CUDA 13) refuses cuDNN older than its 9.12 pin', () => {
    const env = realH200Env();
    env.frameworks = env.frameworks.filter((f) => f.framework === 'jax');
    env.packages = env.packages!.map(([n, v]) => (n === 'nvidia-cudnn-cu13' ? [n, '9.10.2.21'] : [n, v]));
    const s = withEnv(env);
    const f = run(s).find((x) => x.check === 'versions.cudnn' && x.severity === 'error');
    expect(f?.message).toContain('needs cuDNN 9.12.0.46 or newer');
    expectFixWorks(s, f!, 'jax with old cuDNN');
  });
  test('cuDNN 9.19 on a V100 (cuDNN 9.11+ dropped Volta) fails as an unsupported GPU', () => {
    const s = withEnv(
      {
        python: '3.12',
        frameworks: [{ framework: 'jax', version: '0.11.2' }],
        packages: [
          ['jax-cuda12-plugin', '0.11.2'],
          ['nvidia-cuda-runtime-cu12', '12.9.79'],
          ['nvidia-cudnn-cu12', '9.19.0.56'],
        ],
      },
      (x) => setGpu(x, 'Tesla V100-SXM2-16GB', '7.0'),
    );
    const f = run(s).find((x) => x.check === 'versions.cudnn' && x.rootCause === 'gpu_arch_unsupported');
    expect(f?.message).toContain('supports compute capability 7.5 and up');
  });
});

describe('versions.python', () => {
  test('torch 2.11 under Python 3.9 fails; the fix is the newest torch for 3.9 that this machine runs', () => {
    const s = withEnv({
      python: '3.9',
      frameworks: [{ framework: 'torch', version: '2.11.0', variant: 'cu130', cuda: '13.0' }],
    });
    const f = run(s).find((x) => x.check === 'versions.python');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('supports Python 3.10–3.13');
    expect(f?.fix?.commands[0]).toBe('pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu129');
    expectFixWorks(s, f!, 'torch 2.11 on 3.9');
  });
  test('every TensorFlow Linux row: its Pythons pass, the next one after fails', () => {
    for (const b of knowledge().tensorflow.builds.filter(
      (x) => x.platform === 'linux' && compareVersions(x.version, '2.0.0') >= 0,
    )) {
      const env = (py: string): PlantedEnv => ({
        python: py,
        frameworks: [{ framework: 'tensorflow', version: b.version, cuda: b.cuda, cudnnBuilt: b.cudnn }],
      });
      for (const py of b.python)
        expect(
          run(withEnv(env(py))).filter((f) => f.check === 'versions.python' && f.severity !== 'info'),
          `${b.version} ${py}`,
        ).toEqual([]);
      const last = b.python[b.python.length - 1]!;
      const next = `3.${Number(last.split('.')[1]) + 1}`;
      expect(run(withEnv(env(next))).find((f) => f.check === 'versions.python')?.severity, `${b.version} ${next}`).toBe(
        'error',
      );
    }
  });
});

describe('versions.nvcc', () => {
  test('nvcc 12.4 with torch cu130 is information, said plainly', () => {
    const s = withEnv(realH200Env(), (x) => {
      x.toolkit = {
        nvcc: {
          path: '/usr/local/cuda/bin/nvcc',
          root: '/usr/local/cuda-12.4',
          version: '12.4',
          source: '/usr/local/cuda-12.4/version.json',
        },
      };
    });
    const f = run(s).filter((x) => x.check === 'versions.nvcc');
    expect(f.every((x) => x.severity === 'info' && x.status === 'ok')).toBe(true);
    expect(f[0]?.message).toContain('that is normal, not an error');
    expect(f[0]?.message).toContain('needs an nvcc of CUDA 13');
  });
  test('without nvcc the check skips', () => {
    const f = run(withEnv(realH200Env())).filter((x) => x.check === 'versions.nvcc');
    expect(f.map((x) => x.status)).toEqual(['skip']);
  });
});

describe('fix builders never propose what the data calls incompatible', () => {
  test('JAX for driver 470: the CUDA 11 wheel on Hopper, nothing on Blackwell (CUDA 11.8 cannot build sm_120)', async () => {
    const { newestJaxFor, newestTorchFor } = await import('../../src/judge/compat/fixes.js');
    expect(newestJaxFor({ os: 'linux', driver: '470.82.01', ccs: ['9.0'], python: '3.10' })?.commands).toEqual([
      "pip install -U 'jax[cuda11_pip]==0.4.25'",
    ]);
    expect(newestJaxFor({ os: 'linux', driver: '470.82.01', ccs: ['12.0'], python: '3.10' })).toBeNull();
    expect(newestTorchFor({ os: 'linux', driver: '470.82.01', ccs: ['12.0'], python: '3.10' })).toBeNull();
    expect(newestTorchFor({ os: 'linux', driver: '570.26', ccs: ['12.0'], python: '3.12' })?.commands).toEqual([
      'pip install torch==2.11.0 --index-url https://download.pytorch.org/whl/cu128',
    ]);
  });
});

describe('versions.cudnn with the library resolution of the libraries section', () => {
  test('LD_LIBRARY_PATH puts the apt cuDNN 9.14 before pip 9.19: torch 2.11 (built with 9.17) fails', () => {
    const s = withEnv(
      {
        python: '3.12',
        frameworks: [{ framework: 'torch', version: '2.11.0', variant: 'cu130', cuda: '13.0' }],
        packages: [['nvidia-cudnn-cu13', '9.19.0.56']],
      },
      (x) => {
        (x as Record<string, unknown>).libraries = {
          ok: true,
          ldCache: { source: '/etc/ld.so.cache', format: null, entries: 0, glibc: null },
          ldLibraryPath: ['/usr/lib/x86_64-linux-gnu'],
          defaultDirs: [],
          hwcaps: [],
          environments: [],
          copies: [],
          consumers: [
            {
              path: '/opt/env/lib/python3/site-packages/torch/lib/libtorch_cuda.so',
              framework: 'torch',
              environment: '/opt/env',
              resolved: [
                {
                  name: 'libcudnn.so.9',
                  family: 'libcudnn',
                  path: '/usr/lib/x86_64-linux-gnu/libcudnn.so.9',
                  realPath: '/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0',
                  version: '9.14.0',
                  via: 'ld_library_path',
                  how: 'needed',
                  requestedBy: null,
                  shadowed: [],
                },
              ],
              notes: [],
            },
          ],
          loaded: [],
          processes: [],
          packages: [],
        };
      },
    );
    const f = run(s).find((x) => x.check === 'versions.cudnn' && x.severity === 'error');
    expect(f?.message).toContain('loads cuDNN 9.14.0: older than the 9.17.1.4 it was built with');
    expect(f?.evidence[0]?.source).toContain('/usr/lib/x86_64-linux-gnu/libcudnn.so.9');
    expect(f?.fix?.text).toContain('LD_LIBRARY_PATH');
  });
});
