// The python.* checks over real file trees: probePython reads the tree (as with --root), the result is
// planted into a real H200 snapshot, and the checks run over it as `check` runs them.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import type { Finding } from '../../src/judge/finding.js';
import { probePython } from '../../src/gather/python/probe.js';
import type { PythonSection } from '../../src/gather/snapshot/schema-python.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { planted } from '../helpers/snapshots.js';
import * as fs from 'node:fs';
import { distInfo, freshRoot, probeEnvFor, venvFiles, writeTree } from './helpers.js';
import { condaMixEnv, conflictEnv, cpuAndDuplicatesEnv, ENV_SP, h200Venv } from './scenarios.js';

async function sectionFor(
  build: (root: string) => void,
  env: Record<string, string>,
  pythons: string[] = [],
): Promise<PythonSection> {
  const root = freshRoot();
  build(root);
  return probePython(probeEnvFor(root, env, { pythons }));
}

function findingsFor(
  python: PythonSection,
  base: 'h200-idle' | 'h200-memory-held' = 'h200-idle',
  change?: (s: Snapshot) => void,
): Finding[] {
  const s = planted(base, (x) => {
    x.python = python;
    change?.(x);
  });
  return runChecks(ALL_CHECKS, s)
    .flatMap((r) => r.findings)
    .filter((f) => f.check.startsWith('python.'));
}

const byCheck = (fs: Finding[], id: string) => fs.filter((f) => f.check === id);

describe('the H200 venv, read from files', () => {
  it('finds torch 2.11 cu130, JAX 0.11 with its CUDA 13 plugin, and cuDNN 9.19, with nothing wrong', async () => {
    const py = await sectionFor(h200Venv, { PATH: '/opt/torch/.venv/bin:/usr/bin', HOME: '/root' });
    const env = py.environments[0]!;
    expect(env).toMatchObject({ prefix: '/opt/torch/.venv', active: true, scanned: true });
    expect(env.frameworks.find((f) => f.framework === 'torch')).toMatchObject({
      version: '2.11.0+cu130',
      cuda: '13.0',
      gpuBuild: true,
      details: { localVersion: 'cu130' },
    });
    expect(env.frameworks.find((f) => f.framework === 'jax')).toMatchObject({
      version: '0.11.2',
      cuda: '13',
      gpuBuild: true,
      details: {
        jaxlib: '0.11.2',
        cudaPlugin: 'jax-cuda13-plugin 0.11.2',
        pjrt: 'jax-cuda13-pjrt 0.11.2',
        pluginMatchesJaxlib: true,
      },
    });
    expect(env.packages.map((p) => p.name).sort()).toEqual([
      'cupy-cuda13x',
      'jax',
      'jax-cuda13-pjrt',
      'jax-cuda13-plugin',
      'jaxlib',
      'nvidia-cublas',
      'nvidia-cudnn-cu13',
      'nvidia-nccl-cu13',
      'torch',
    ]);
    expect(env.distributionCount).toBe(10);
    // The base interpreter was found through pyvenv.cfg but not looked into without --all-envs.
    expect(py.environments.find((e) => e.prefix === '/usr')).toMatchObject({ scanned: false, packages: [] });

    const f = findingsFor(py);
    const bad = f.filter((x) => x.severity !== 'info');
    expect(bad).toEqual([]);
    const summary = byCheck(f, 'python.environments').find((x) => x.status === 'ok')!;
    expect(summary.message).toContain('torch 2.11.0+cu130 (CUDA 13.0)');
    expect(summary.message).toContain('jax-cuda13-plugin 0.11.2');
    expect(summary.message).toContain('cuDNN 9.19.0.56 (nvidia-cudnn-cu13)');
    expect(byCheck(f, 'python.deep-conv')[0]).toMatchObject({ status: 'skip' });
  });

  it('looks into every environment with --all-envs', async () => {
    const root = freshRoot();
    h200Venv(root);
    const py = await probePython(probeEnvFor(root, { PATH: '/opt/torch/.venv/bin:/usr/bin' }, { allEnvs: true }));
    expect(py.environments.every((e) => e.scanned)).toBe(true);
  });
});

describe('python.nvidia-wheel-conflict', () => {
  it('reports torch and tensorflow pinning incompatible cuDNN wheels, and a pinned wheel that is missing', async () => {
    const py = await sectionFor(conflictEnv, { PATH: '/usr/bin' }, ['/opt/env']);
    const f = byCheck(findingsFor(py), 'python.nvidia-wheel-conflict');
    const cudnn = f.find((x) => x.affects?.library === 'nvidia-cudnn-cu12')!;
    expect(cudnn).toMatchObject({ severity: 'error', status: 'fail', rootCause: 'cudnn_version_mismatch' });
    expect(cudnn.message).toBe(
      'torch 2.5.1 and tensorflow 2.18.0 pin incompatible nvidia-cudnn-cu12: 9.3.0.75 is installed, ==9.1.0.70 is needed',
    );
    expect(cudnn.evidence.map((e) => e.text)).toEqual([
      'nvidia-cudnn-cu12 9.3.0.75 installed',
      'Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" and platform_machine == "x86_64"',
      'Requires-Dist: nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == "and-cuda"',
    ]);
    expect(cudnn.evidence[1]!.source).toBe(`${ENV_SP}/torch-2.5.1.dist-info/METADATA`);
    const cublas = f.find((x) => x.affects?.library === 'nvidia-cublas-cu12')!;
    expect(cublas).toMatchObject({ severity: 'error', rootCause: 'cuda_toolkit_mismatch' });
    const nccl = f.find((x) => x.affects?.library === 'nvidia-nccl-cu12')!;
    expect(nccl).toMatchObject({ severity: 'warn', rootCause: 'library_missing' });
    expect(nccl.fix!.commands).toEqual(['/opt/env/bin/python3 -m pip install nvidia-nccl-cu12==2.21.5']);
    // tensorflow's [and-cuda] cufft pin does not count: that wheel is not installed, the extra may not have been asked for.
    expect(f.some((x) => x.affects?.library === 'nvidia-cufft-cu12')).toBe(false);
  });
});

describe('python.conda-pip-mix', () => {
  it("reports conda's cuDNN beside pip's, and not torch, whose dist-info conda wrote", async () => {
    const py = await sectionFor(condaMixEnv, { PATH: '/usr/bin', CONDA_PREFIX: '/opt/conda/envs/mix' });
    const env = py.environments[0]!;
    expect(env.packages.find((p) => p.name === 'torch' && p.source === 'dist-info')!.installer).toBe('conda');
    expect(env.packages.some((p) => p.name === 'numpy')).toBe(false);
    const f = byCheck(findingsFor(py), 'python.conda-pip-mix');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      severity: 'error',
      status: 'fail',
      rootCause: 'cudnn_version_mismatch',
      message: 'conda env mix (/opt/conda/envs/mix) has cuDNN from both conda and pip',
    });
    expect(f[0]!.evidence.map((e) => e.source)).toEqual([
      '/opt/conda/envs/mix/conda-meta/cudnn-8.9.2.26-cuda12_0.json',
      '/opt/conda/envs/mix/lib/python3.11/site-packages/nvidia_cudnn_cu12-9.1.0.70.dist-info',
    ]);
    // Removing a package is the user's call: listed as manual, not as a command to copy.
    expect(f[0]!.fix!.commands.join(' ')).not.toMatch(/uninstall|remove/);
    expect(f[0]!.fix!.manual).toEqual([
      '/opt/conda/envs/mix/bin/python3 -m pip uninstall -y nvidia-cudnn-cu12',
      'conda remove -p /opt/conda/envs/mix --force cudnn',
    ]);
  });
});

describe('python.cpu-only-build and python.duplicate-dist-info', () => {
  it('reports each CPU-only framework on the GPU machine with a reinstall for its driver', async () => {
    const py = await sectionFor(cpuAndDuplicatesEnv, { PATH: '/usr/bin' }, ['/opt/env']);
    const f = findingsFor(py);
    const cpu = byCheck(f, 'python.cpu-only-build');
    expect(cpu.map((x) => x.affects?.framework).sort()).toEqual(['jax', 'tensorflow', 'torch']);
    const torch = cpu.find((x) => x.affects?.framework === 'torch')!;
    expect(torch.message).toBe(
      'PyTorch 2.5.1+cpu in venv /opt/env is a CPU-only build: it will not use the NVIDIA GPU',
    );
    expect(torch.evidence[0]).toEqual({
      text: "__version__ = '2.5.1+cpu', cuda = None, hip = None",
      source: `${ENV_SP}/torch/version.py`,
    });
    // The H200's driver supports CUDA 13.0: the cu130 index.
    expect(torch.fix!.commands).toEqual([
      '/opt/env/bin/python3 -m pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu130',
    ]);
    const tf = cpu.find((x) => x.affects?.framework === 'tensorflow')!;
    expect(tf.fix!.commands).toEqual([
      '/opt/env/bin/python3 -m pip uninstall -y tensorflow-cpu',
      "/opt/env/bin/python3 -m pip install 'tensorflow[and-cuda]==2.15.0'",
    ]);
    expect(cpu.find((x) => x.affects?.framework === 'jax')!.fix!.commands).toEqual([
      "/opt/env/bin/python3 -m pip install -U 'jax[cuda13]'",
    ]);

    const dup = byCheck(f, 'python.duplicate-dist-info');
    const torchDup = dup.find((x) => x.affects?.library === 'torch')!;
    expect(torchDup).toMatchObject({
      severity: 'warn',
      rootCause: 'library_conflict',
      message: 'torch is installed 2 times in venv /opt/env (2.4.0, 2.5.1+cpu)',
    });
    expect(torchDup.fix!.commands).toEqual([
      '/opt/env/bin/python3 -m pip install --force-reinstall --no-deps torch==2.5.1+cpu',
    ]);
    expect(torchDup.fix!.manual).toEqual([`rm -rf ${ENV_SP}/torch-2.4.0.dist-info`]);
    // six is not a GPU package: reported, but only as information.
    expect(dup.find((x) => x.affects?.library === 'six')).toMatchObject({ severity: 'info', rootCause: null });
    expect(dup.some((x) => x.affects?.library === 'cryptography')).toBe(false);
  });

  it('does not call a CPU build a problem on a machine without an NVIDIA GPU', async () => {
    const py = await sectionFor(cpuAndDuplicatesEnv, { PATH: '/usr/bin' }, ['/opt/env']);
    const f = findingsFor(py, 'h200-idle', (s) => {
      s.nvidia = { ok: false, failure: { reason: 'not-installed', message: 'nvidia-smi was not found on PATH' } };
      s.system.kernelModule = null;
      s.system.nvidiaDevices = [];
    });
    expect(byCheck(f, 'python.cpu-only-build')).toEqual([expect.objectContaining({ status: 'skip' })]);
  });
});

describe('a venv as the H200 has it: lib64 a link to lib, cuda-core with per-CUDA extras', () => {
  const LIB64_SP = '/opt/v/lib/python3.12/site-packages';
  const build = (root: string) =>
    writeTree(root, {
      ...venvFiles('/opt/v', '3.12', '/usr/bin/python3.12'),
      '/usr/bin/python3.12': { mode: 0o755, text: '' },
      '/opt/v/lib64': { link: 'lib' },
      // cuda-core 1.2.0's real pins: one cuda-bindings major per extra
      ...distInfo(LIB64_SP, 'cuda-core', '1.2.0', {
        requires: ['cuda-bindings==12.*; extra == "cu12"', 'cuda-bindings==13.*; extra == "cu13"'],
      }),
      ...distInfo(LIB64_SP, 'cuda-bindings', '13.3.1'),
      ...distInfo(LIB64_SP, 'numpy', '2.3.0'),
    });
  it('counts each package once, and takes the extra whose pin is met as the one in use', async () => {
    const py = await sectionFor(build, { PATH: '/usr/bin' }, ['/opt/v']);
    const f = findingsFor(py);
    expect(byCheck(f, 'python.duplicate-dist-info').filter((x) => x.status !== 'ok' && x.status !== 'skip')).toEqual(
      [],
    );
    expect(byCheck(f, 'python.nvidia-wheel-conflict').filter((x) => x.status === 'fail')).toEqual([]);
  });
  it("still reports a wheel that meets none of a package's extra pins", async () => {
    const py = await sectionFor(
      (root) => {
        build(root);
        fs.rmSync(`${root}${LIB64_SP}/cuda_bindings-13.3.1.dist-info`, { recursive: true });
        writeTree(root, distInfo(LIB64_SP, 'cuda-bindings', '11.8.0'));
      },
      { PATH: '/usr/bin' },
      ['/opt/v'],
    );
    const f = byCheck(findingsFor(py), 'python.nvidia-wheel-conflict').filter((x) => x.status === 'fail');
    expect(f.map((x) => x.affects?.library)).toEqual(['cuda-bindings']);
  });
});
