// `check` as users run it (the built bundle, with the probe inside it as a string), against a venv made
// from this machine's python3 holding stand-in frameworks.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { writeFakeFrameworks } from './fake-frameworks.js';
import { distInfo, torchVersionPy, writeTree } from './helpers.js';

const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const PYVER = execFileSync(PYTHON, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
  encoding: 'utf8',
}).trim();

function venv(): { prefix: string; python: string } {
  const prefix = path.join(tempDir('ged-cli-venv-'), 'venv');
  const sp = `${prefix}/lib/python${PYVER}/site-packages`;
  writeTree('/', {
    [`${prefix}/pyvenv.cfg`]: `home = ${path.dirname(PYTHON)}\ninclude-system-site-packages = false\n`,
    [`${prefix}/bin/python3`]: { link: PYTHON },
    ...distInfo(sp, 'torch', '2.11.0'),
    ...distInfo(sp, 'jax', '0.11.2'),
    ...distInfo(sp, 'jaxlib', '0.11.2'),
    ...distInfo(sp, 'jax-cuda13-plugin', '0.11.2'),
    ...distInfo(sp, 'nvidia-cudnn-cu13', '9.19.0.56'),
  });
  writeFakeFrameworks('/', sp);
  writeTree('/', { [`${sp}/torch/version.py`]: torchVersionPy('2.11.0+cu130', '13.0') });
  // No tensorflow in this environment.
  execFileSync('rm', ['-r', `${sp}/tensorflow`]);
  return { prefix, python: `${prefix}/bin/python3` };
}

describe('check with Python environments', () => {
  it('reads the venv named with --python without running it, unless --deep=frameworks', () => {
    const v = venv();
    const r = runCli(['check', '--json', '--python', v.python]);
    const out = JSON.parse(r.stdout);
    const env = out.snapshot.python.environments.find((e: { prefix: string }) => e.prefix === v.prefix);
    expect(env.frameworks.map((f: { framework: string; version: string }) => `${f.framework} ${f.version}`)).toEqual([
      'torch 2.11.0+cu130',
      'jax 0.11.2',
    ]);
    expect(env.probes).toEqual([]);
    const deep = out.findings.find((f: { check: string }) => f.check === 'python.deep-conv');
    expect(deep).toMatchObject({
      status: 'skip',
      message:
        'Convolution on the GPU (--deep=frameworks): run check --deep=frameworks to try a convolution in each framework',
    });
  });

  it('--deep=frameworks: JAX failing on preallocation and passing without it is reported as memory, with the fix', () => {
    const v = venv();
    const r = runCli(['check', '--deep=frameworks', '--json', '--python', v.python], {
      env: { FAKE_TORCH_CONV: 'ok', FAKE_JAX_CONV: 'prealloc' },
    });
    const out = JSON.parse(r.stdout);
    const conv = out.findings.filter(
      (f: { check: string; affects?: { framework?: string } }) => f.check === 'python.deep-conv',
    );
    const torch = conv.find((f: { affects: { framework: string } }) => f.affects.framework === 'torch');
    expect(torch).toMatchObject({ status: 'ok', severity: 'info' });
    expect(torch.message).toMatch(/^PyTorch: a convolution on the GPU ran in venv .*, cuDNN 9\.19\.0 \(91900\)/);
    const jax = conv.find((f: { affects: { framework: string } }) => f.affects.framework === 'jax');
    expect(jax).toMatchObject({
      status: 'fail',
      rootCause: 'framework_preallocation',
      message:
        'JAX: the convolution failed as configured and ran with XLA_PYTHON_CLIENT_PREALLOCATE=false: memory, not cuDNN',
    });
    expect(jax.fix.commands).toEqual(['export XLA_PYTHON_CLIENT_PREALLOCATE=false']);
    const summary = out.findings.find(
      (f: { check: string; message: string }) => f.check === 'python.environments' && f.message.includes(v.prefix),
    );
    expect(summary.message).toContain('torch arch list sm_75 sm_80 sm_86 sm_90 sm_100 sm_120');
  });

  it('--deep=frameworks: an out-of-memory that stays after the retry is memory, exit code 1', () => {
    const v = venv();
    const r = runCli(['check', '--deep=frameworks', '--python', v.python, '--no-color'], {
      env: { FAKE_TORCH_CONV: 'oom' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /PyTorch: the convolution could not get GPU memory \(CUDA error: out of memory\), also with empty_cache\(\) and cudnn\.benchmark off: cuDNN is not the problem/,
    );
  });

  it("--deep: torch's cuDNN version check raising is an error, not ✓ (issue 13, point 1)", () => {
    const v = venv();
    const env = { FAKE_TORCH_CONV: 'version-check', FAKE_JAX_CONV: 'ok' };
    const r = runCli(['check', '--deep=frameworks', '--python', v.python, '--no-color'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\[✗\] Python & frameworks/);
    // the terminal wraps torch's long message (at most 200 columns): read it unwrapped; --json has it verbatim
    expect(r.stdout.replace(/\n +/g, ' ')).toMatch(
      /PyTorch: the convolution ran in venv .*, but torch\.backends\.cudnn\.version\(\) raised RuntimeError: cuDNN version incompatibility: PyTorch was compiled {1,2}against \(9, 19, 0\) but found runtime version \(9, 14, 0\)/,
    );
    const json = JSON.parse(runCli(['check', '--deep=frameworks', '--python', v.python, '--json'], { env }).stdout) as {
      findings: { severity: string; message: string }[];
    };
    expect(
      json.findings.some(
        (f) =>
          f.severity === 'error' &&
          /PyTorch: the convolution ran in venv .*, but torch\.backends\.cudnn\.version\(\) raised RuntimeError: cuDNN version incompatibility: PyTorch was compiled {2}against \(9, 19, 0\) but found runtime version \(9, 14, 0\)/.test(
            f.message,
          ),
      ),
    ).toBe(true);
  });
});
