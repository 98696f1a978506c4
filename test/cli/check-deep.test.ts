// `check --deep` end to end: the built CLI, a venv at a real path whose torch library (a tiny ELF built with gcc,
// with torch's RPATH) leads the loader emulation to pip-style cuDNN/CUDA folders holding the fake CUDA libraries
// (test/fixtures/cuda/fake), a fake nvidia-smi replaying the H200, and the smoke test run for real by python3.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeNvidiaSmi, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { buildFakeCuda } from '../helpers/fake-cuda.js';
import { buildLib } from '../libs/build.js';

const PYTHON = (
  spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout || ''
).trim();
const PYVER = (
  spawnSync(PYTHON, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).stdout || ''
).trim();

let venv = '';
let bin = '';
beforeAll(() => {
  const root = tempDir('ged-deep-');
  venv = path.join(root, 'venv');
  const sp = path.join(venv, 'lib', `python${PYVER}`, 'site-packages');
  fs.mkdirSync(path.join(venv, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(venv, 'pyvenv.cfg'), `home = ${path.dirname(PYTHON)}\nversion = ${PYVER}\n`);
  fs.symlinkSync(PYTHON, path.join(venv, 'bin', 'python3'));
  const libs = buildFakeCuda({
    cudart: path.join(sp, 'nvidia/cu13/lib'),
    cublas: path.join(sp, 'nvidia/cu13/lib'),
    cudnn: path.join(sp, 'nvidia/cudnn/lib'),
  });
  buildLib('/', {
    file: path.join(sp, 'torch/lib/libtorch_cuda.so').slice(1),
    soname: 'libtorch_cuda.so',
    nostdlib: true,
    needed: [libs.cudart, libs.cudnn, libs.cublas],
    rpath: '$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cu13/lib',
  });
  fs.writeFileSync(path.join(sp, 'torch/version.py'), "__version__ = '2.11.0+cu130'\ncuda = '13.0'\nhip = None\n");
  fs.writeFileSync(path.join(sp, 'torch/__init__.py'), '');
  for (const [dist, version] of [
    ['torch', '2.11.0+cu130'],
    ['nvidia_cudnn_cu13', '9.19.0.56'],
  ] as const) {
    fs.mkdirSync(path.join(sp, `${dist}-${version}.dist-info`), { recursive: true });
    fs.writeFileSync(
      path.join(sp, `${dist}-${version}.dist-info/METADATA`),
      `Metadata-Version: 2.1\nName: ${dist.replace(/_/g, '-')}\nVersion: ${version}\n`,
    );
    fs.writeFileSync(
      path.join(sp, `${dist}-${version}.dist-info/RECORD`),
      dist === 'torch' ? 'torch/lib/libtorch_cuda.so,,\n' : 'nvidia/cudnn/lib/libcudnn.so.9,,\n',
    );
  }
  bin = tempDir('ged-deep-bin-');
  fakeNvidiaSmi(bin, {
    xml: path.join(FIXTURES, 'h200/idle/nvidia-smi-q.xml'),
    csv: path.join(FIXTURES, 'h200/idle/query-gpu.csv'),
  });
}, 120000);

interface Out {
  snapshot: {
    smoke?: {
      skipped: string | null;
      runs: { files: { role: string; path: string }[]; gpus: { conv: { ok: boolean }[] }[] }[];
    };
    probes: { id: string; message?: string }[];
  };
  findings: { check: string; severity: string; status: string; rootCause: string | null; message: string }[];
}

function check(args: string[], fake: string): { code: number | null; out: Out; stderr: string } {
  const r = runCli(['check', '--json', '--python', path.join(venv, 'bin', 'python3'), ...args], {
    env: { PATH: `${bin}:/usr/bin:/bin`, FAKE_CUDA: fake },
    timeoutMs: 60000,
  });
  let out: Out;
  try {
    out = JSON.parse(r.stdout) as Out;
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 800)}`);
  }
  return { code: r.code, out, stderr: r.stderr };
}
const smokeFindings = (o: Out) => o.findings.filter((f) => f.check === 'libs.cudnn-smoke');

describe('check --deep (the native cuDNN smoke test)', () => {
  it('without --deep the test does not run and says how to run it', () => {
    const { out } = check([], '');
    expect(out.snapshot.smoke).toBeUndefined();
    expect(smokeFindings(out)).toEqual([
      expect.objectContaining({ status: 'skip', message: expect.stringMatching(/run check --deep to load cuDNN/) }),
    ]);
  });

  it("loads the files the emulation chose for torch (pip's cuDNN and runtime) and reports the convolution as a fact", () => {
    const { code, out } = check(['--deep'], '');
    // (a machine without an NVIDIA driver has no libcuda to find: libs.missing says so; nothing else fails)
    const errors = out.findings.filter((f) => f.severity === 'error');
    expect(
      errors.every((f) => f.check === 'libs.missing'),
      JSON.stringify(errors),
    ).toBe(true);
    expect(code).toBe(errors.length > 0 ? 1 : 0);
    const run = out.snapshot.smoke!.runs[0]!;
    expect(run.files.map((f) => [f.role, path.relative(venv, f.path)]).filter(([r]) => r !== 'libcuda')).toEqual([
      ['libcudart', `lib/python${PYVER}/site-packages/nvidia/cu13/lib/libcudart.so.13`],
      ['libcublas', `lib/python${PYVER}/site-packages/nvidia/cu13/lib/libcublas.so.13`],
      ['libcudnn', `lib/python${PYVER}/site-packages/nvidia/cudnn/lib/libcudnn.so.9`],
    ]);
    expect(smokeFindings(out)).toEqual([
      expect.objectContaining({
        severity: 'info',
        status: 'ok',
        message: expect.stringMatching(
          /^cuDNN 9\.19\.0 ran a convolution on GPU 0 \(NVIDIA H200\) with PyTorch's files/,
        ),
      }),
    ]);
    expect(out.snapshot.probes.map((p) => p.id)).toContain('cudnn-smoke');
    // --deep alone imports no framework
    expect(out.findings.find((f) => f.check === 'python.deep-conv')).toMatchObject({ status: 'skip' });
  });

  it("planned from the scan's worker, then from its kept answer: the same files tested, the same findings", async () => {
    // the worker starts only with a core to spare: this machine's load is given as none
    const preload = path.join(tempDir('ged-deep-load-'), 'load.mjs');
    fs.writeFileSync(preload, "import os from 'node:os';\nos.loadavg = () => [0, 0, 0];\n");
    const cache = tempDir('ged-deep-cache-');
    // the venv was made moments ago: a scan refuses to keep files changed in the last two seconds
    await new Promise((r) => setTimeout(r, 2100));
    const runs = [1, 2].map(() => {
      const r = runCli(['check', '--json', '--deep', '--python', path.join(venv, 'bin', 'python3')], {
        env: { PATH: `${bin}:/usr/bin:/bin`, NODE_OPTIONS: `--import=${preload}`, XDG_CACHE_HOME: cache },
        timeoutMs: 60000,
      });
      const out = JSON.parse(r.stdout) as Out;
      return { out, message: out.snapshot.probes.find((p) => p.id === 'libraries')?.message ?? '' };
    });
    expect(runs.map((r) => r.message.replace(/\d+/, 'N'))).toEqual([
      'read in a worker thread',
      "the last scan's answer: the N files, folders and variables it read are unchanged",
    ]);
    const files = (o: Out) => o.snapshot.smoke?.runs.map((run) => run.files.map((f) => f.path));
    expect(files(runs[1]!.out)).toEqual(files(runs[0]!.out));
    expect(files(runs[0]!.out)?.[0]).toContain(
      path.join(venv, `lib/python${PYVER}/site-packages/nvidia/cudnn/lib/libcudnn.so.9`),
    );
    // the smoke test's own timings aside ("0.03 s in all")
    const said = (o: Out) => o.findings.map((f) => [f.check, f.status, f.message.replace(/\d+\.\d+ s\b/g, 'N s')]);
    expect(said(runs[1]!.out)).toEqual(said(runs[0]!.out));
  }, 120_000);

  it('a compat libcuda older than the driver: exit 1, CUDA 803 and its meaning', () => {
    const { code, out } = check(['--deep'], 'init=803');
    expect(code).toBe(1);
    expect(smokeFindings(out)).toEqual([
      expect.objectContaining({
        severity: 'error',
        rootCause: 'driver_too_old',
        message: expect.stringMatching(/cudaErrorSystemDriverMismatch \(803\)/),
      }),
    ]);
  });

  it('--deep with a value other than frameworks is a usage error', () => {
    const r = runCli(['check', '--deep=all'], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gpu-env-doctor: --deep takes no value or "frameworks" (got "all")\n');
  });
});
