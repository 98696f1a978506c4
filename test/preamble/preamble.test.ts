// The preamble is Python users paste at the top of training scripts: it must compile, run with only the
// standard library and the framework, and fail clearly without the framework. Frameworks are replaced by
// small stand-ins (fake-modules/, values from the H200 captures); nvidia-smi by a fake replaying captures.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composePreamble, FRAMEWORKS, type PreambleFramework } from '../../src/act/preamble/compose.js';
import { runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';

const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const FAKE_MODULES = path.resolve(__dirname, 'fake-modules');

/** nvidia-smi as on the H200 while hog.py held the memory: 914 MiB free, PID 694 holding 142848 MiB. */
function smiDir(opts: { freeMiB?: number; apps?: boolean } = {}): string {
  const dir = tempDir('ged-pre-');
  const free = opts.freeMiB ?? 914;
  fs.writeFileSync(
    path.join(dir, 'gpu.csv'),
    `0, GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7, NVIDIA H200, 143771, ${143771 - free}, ${free}\n`,
  );
  const apps = opts.apps === false ? '/dev/null' : path.join(FIXTURES, 'h200/hog/compute-apps-hog.csv');
  fakeBin(
    dir,
    'nvidia-smi',
    `case "$1" in\n  --query-gpu=*) cat '${dir}/gpu.csv' ;;\n  --query-compute-apps=*) cat '${apps}' ;;\n  *) exit 2 ;;\nesac`,
  );
  return dir;
}

function runScript(
  fw: PreambleFramework,
  body: string,
  env: Record<string, string>,
): { code: number | null; stdout: string; stderr: string } {
  const dir = tempDir('ged-pre-');
  const file = path.join(dir, 'train.py');
  fs.writeFileSync(file, `${composePreamble(fw, 'test')}\n${body}\n`);
  const r = spawnSync(PYTHON, [file], { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8', timeout: 20000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('preamble', () => {
  it.each(FRAMEWORKS)('--framework %s prints Python that compiles', (fw) => {
    const r = runCli(['preamble', '--framework', fw]);
    expect(r.code).toBe(0);
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'p.py'), r.stdout);
    const c = spawnSync(PYTHON, ['-m', 'py_compile', path.join(dir, 'p.py')], { encoding: 'utf8' });
    expect(c.stderr).toBe('');
    expect(c.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^# ---- GPU self-check: gpu-env-doctor preamble --framework ${fw} \\(`));
    // standard library only, besides the framework
    const imports = [...r.stdout.matchAll(/^\s*(?:import|from) ([\w.]+)/gm)].map((m) => m[1]!.split('.')[0]);
    const fwModules = { torch: ['torch'], tensorflow: ['tensorflow'], jax: ['jax', 'jaxlib'] }[fw];
    expect(new Set(imports.filter((m) => !fwModules.includes(m!)))).toEqual(
      new Set(['os', 'platform', 'shutil', 'subprocess', 'sys', 'ctypes', 're']),
    );
  });

  it.each(FRAMEWORKS)('without %s installed it stops with a clear one-line reason', (fw) => {
    const r = runScript(fw, 'print("training")', { PATH: `${smiDir()}:/usr/bin:/bin` });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('training');
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      `[gpu-check] cannot import ${fw} in ${PYTHON}: No module named '${fw}'`,
    );
  });

  it('torch: versions, the GPU and its free memory, and a warning naming the process that holds the memory', () => {
    const r = runScript('torch', 'print("training")', { PATH: `${smiDir()}:/usr/bin:/bin`, PYTHONPATH: FAKE_MODULES });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('training\n');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toContain('[gpu-check] GPU 0 NVIDIA H200: 914 MiB free of 140.4 GiB (nvidia-smi)');
    expect(lines).toContain("[gpu-check] WARNING: 1 other process already holds memory on this job's GPUs:");
    expect(lines).toContain('[gpu-check]   PID 694 python3: 139.5 GiB on GPU 0');
    expect(lines).toContain('[gpu-check] torch 2.11.0+cu130, built for CUDA 13.0, cuDNN 9.19.0');
    expect(lines).toContain(
      '[gpu-check] torch uses cuda:0 NVIDIA H200 (compute capability 9.0): 139.3 GiB free of 139.8 GiB',
    );
    expect(r.stderr).toMatch(/WARNING: GPU 0 has only 914 MiB free/);
  });

  it('quiet about other processes when none hold memory; CUDA_VISIBLE_DEVICES="" is reported', () => {
    const calm = runScript('torch', '', {
      PATH: `${smiDir({ freeMiB: 143000, apps: false })}:/usr/bin:/bin`,
      PYTHONPATH: FAKE_MODULES,
    });
    expect(calm.stderr).not.toContain('WARNING');
    const hidden = runScript('torch', '', {
      PATH: `${smiDir()}:/usr/bin:/bin`,
      PYTHONPATH: FAKE_MODULES,
      CUDA_VISIBLE_DEVICES: '',
      FAKE_TORCH_CPU: '0',
    });
    expect(hidden.stderr).toContain("[gpu-check] CUDA_VISIBLE_DEVICES='' leaves 0 of 1 GPUs to this job");
    expect(hidden.stderr).not.toContain('PID 694'); // not on this job's GPUs
  });

  it('torch, CPU-only build: says so', () => {
    const r = runScript('torch', '', {
      PATH: `${smiDir({ apps: false })}:/usr/bin:/bin`,
      PYTHONPATH: FAKE_MODULES,
      FAKE_TORCH_CPU: '1',
    });
    expect(r.stderr).toContain('[gpu-check] WARNING: torch sees no GPU: this torch is a CPU-only build');
  });

  it('no nvidia-smi and no NVML library: a warning, and the job still starts', () => {
    const r = runScript('torch', 'print("training")', { PATH: '/usr/bin:/bin', PYTHONPATH: FAKE_MODULES });
    expect(r.stderr).toContain('WARNING: neither nvidia-smi nor libnvidia-ml.so.1 answered');
    expect(r.stdout).toBe('training\n');
  });

  it('tensorflow: memory growth is set before the first op', () => {
    const r = runScript('tensorflow', 'import tensorflow as tf\ntf.constant(1)\nprint(tf.CALLS)', {
      PATH: `${smiDir({ apps: false })}:/usr/bin:/bin`,
      PYTHONPATH: FAKE_MODULES,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(
      "['list_physical_devices(GPU)', 'set_memory_growth(/physical_device:GPU:0, True)', 'op']",
    );
    expect(r.stderr).toContain(
      '[gpu-check] TensorFlow uses /physical_device:GPU:0 NVIDIA H200 (compute capability 9.0), memory growth on',
    );
    expect(r.stderr).toContain('[gpu-check] tensorflow 2.20.0, built for CUDA 12.5.1, cuDNN 9');
  });

  it('tensorflow: placed after TensorFlow code, it says memory growth could not be set', () => {
    const dir = tempDir();
    const file = path.join(dir, 'late.py');
    fs.writeFileSync(file, `import tensorflow as tf\ntf.constant(1)\n${composePreamble('tensorflow', 'test')}`);
    const r = spawnSync(PYTHON, [file], {
      env: { PATH: `${smiDir({ apps: false })}:/usr/bin:/bin`, PYTHONPATH: FAKE_MODULES },
      encoding: 'utf8',
    });
    expect(r.stderr).toMatch(
      /WARNING: could not turn on memory growth for \/physical_device:GPU:0 \(Physical devices cannot be modified after being initialized\)/,
    );
  });

  it('jax: warns before JAX starts that its 75% preallocation will not fit, unless preallocation is off', () => {
    const env = { PATH: `${smiDir()}:/usr/bin:/bin`, PYTHONPATH: FAKE_MODULES };
    const r = runScript('jax', '', env);
    expect(r.stderr).toContain(
      '[gpu-check] WARNING: JAX will reserve 75% of GPU 0 (105.3 GiB) at its first operation, but only 914 MiB is free',
    );
    expect(r.stderr).toContain('[gpu-check] jax 0.11.2, jaxlib 0.11.2, CUDA runtime 13.0, cuDNN 9.19.0');
    expect(r.stderr).toContain('[gpu-check] JAX uses cuda:0 (NVIDIA H200), pool of 104.3 GiB');
    const off = runScript('jax', '', { ...env, XLA_PYTHON_CLIENT_PREALLOCATE: 'false' });
    expect(off.stderr).not.toContain('JAX will reserve');
    const nogpu = runScript('jax', '', { ...env, FAKE_JAX_NO_GPU: '1' });
    expect(nogpu.stderr).toContain("[gpu-check] WARNING: JAX found no GPU: Unknown backend: 'gpu' requested");
  });

  it('usage errors: a missing or unknown framework', () => {
    expect(runCli(['preamble']).stderr).toBe('gpu-env-doctor: preamble needs --framework (torch, tensorflow, jax)\n');
    const r = runCli(['preamble', '--framework', 'mxnet']);
    expect(r.stderr).toBe('gpu-env-doctor: --framework must be one of torch, tensorflow, jax, not "mxnet"\n');
    expect(r.code).toBe(2);
    expect(runCli(['preamble', '--framework', 'pytorch']).stdout).toContain('--framework torch');
  });
});
