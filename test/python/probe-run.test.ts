// The shipped probe under real interpreters (this machine's python3 with stand-in frameworks), and fake
// interpreters that crash or hang, through the real runner: timeouts, process groups, exit codes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convVerdict } from '../../src/judge/checks/python/conv-verdict.js';
import { interpretProbeRun, PROBE_MARK, runFrameworkProbe } from '../../src/gather/python/framework-probe.js';
import { deepProbe, probePython } from '../../src/gather/python/probe.js';
import { realRunner } from '../../src/ports/runner.js';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';
import { writeFakeFrameworks } from './fake-frameworks.js';
import { distInfo, probeEnvFor, torchVersionPy, writeTree } from './helpers.js';

const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

function fakeSitePackages(): string {
  const dir = tempDir('ged-fakefw-');
  writeFakeFrameworks(dir, '.');
  return dir;
}

const baseEnv = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/root',
  ...extra,
});
const opts = (
  env: Record<string, string>,
  o: Partial<{ mode: 'configured' | 'memory-growth'; timeoutMs: number }> = {},
) => ({ conv: true, mode: o.mode ?? 'configured', timeoutMs: o.timeoutMs ?? 20000, env, alone: true }) as const;

/** Running (a zombie waiting for a parent that does not reap counts as gone: it holds nothing). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

describe('src/gather/python/assets/probe.py under the real python3', () => {
  it('reports a framework that is not installed as an import error with the exact text', async () => {
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: tempDir('ged-empty-') })),
    );
    expect(p.exit).toBe('ok');
    expect(p.imported).toBe(false);
    expect(p.importError).toMatchObject({ type: 'ModuleNotFoundError', message: "No module named 'torch'" });
    expect(p.importError!.traceback).toContain('Traceback (most recent call last)');
    expect(p.conv).toEqual([]);
  });

  it("reports torch's facts and a passing convolution", async () => {
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'ok' })),
    );
    expect(p.imported).toBe(true);
    expect(p.info).toMatchObject({
      version: '2.11.0+cu130',
      cudaBuild: '13.0',
      cudnnVersion: 91900,
      archList: ['sm_75', 'sm_80', 'sm_86', 'sm_90', 'sm_100', 'sm_120'],
      devices: [{ index: 0, name: 'NVIDIA H200', capability: [9, 0], totalMiB: 143155 }],
    });
    expect(p.conv).toEqual([
      expect.objectContaining({ mode: 'configured', ok: true, error: null, freeMiB: 1200, totalMiB: 143155 }),
    ]);
    expect(convVerdict(p)).toEqual({ kind: 'pass' });
  });

  it('retries torch in-process after empty_cache() with cudnn.benchmark off, which tells memory from cuDNN', async () => {
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'oom-once' })),
    );
    expect(p.conv.map((c) => [c.mode, c.ok])).toEqual([
      ['configured', false],
      ['no-cache', true],
    ]);
    expect(p.conv[0]!.error!.message).toMatch(/^CUDA out of memory\. Tried to allocate 784\.00 MiB/);
    expect(convVerdict(p).kind).toBe('memory-preallocation');

    const oom = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'oom' })),
    );
    expect(oom.conv.map((c) => c.ok)).toEqual([false, false]);
    expect(convVerdict(oom)).toMatchObject({ kind: 'memory', signature: 'CUDA error: out of memory' });

    const cudnn = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'cudnn' })),
    );
    expect(convVerdict(cudnn)).toMatchObject({
      kind: 'cudnn',
      signature: 'cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH',
    });
  });

  it("takes the user's path first, and the cuDNN version check that raises after the convolution reaches the facts", async () => {
    // torch caches the cuDNN version even when its check raises: a version() query before the convolution
    // would have swallowed the failure (check --deep said ✓ on the H200 while the user's script failed).
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'version-check' })),
    );
    expect(p.conv).toEqual([expect.objectContaining({ mode: 'configured', ok: true })]);
    expect(p.info).toMatchObject({ cudnnCompiled: [9, 19, 0], cudnnRuntime: [9, 14, 0] });
    const errors = p.info!.errors as Record<string, { type: string; message: string }>;
    expect(errors.cudnnVersion).toMatchObject({ type: 'RuntimeError' });
    expect(errors.cudnnVersion!.message).toMatch(
      /^cuDNN version incompatibility: PyTorch was compiled {2}against \(9, 19, 0\) but found runtime version \(9, 14, 0\)/,
    );
  });

  it('keeps what was printed before a segfault, and makes the death the convolution result', async () => {
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'segv' })),
    );
    expect(p.exit).toBe('signal');
    expect(p.imported).toBe(true);
    // The build's plain attributes are read before the convolution; the queries after it died with it.
    expect(p.info).toMatchObject({ version: '2.11.0+cu130', cudaBuild: '13.0' });
    expect(p.info).not.toHaveProperty('cudnnVersion');
    expect(p.conv).toEqual([
      expect.objectContaining({
        mode: 'configured',
        ok: false,
        error: { type: 'ProcessDied', message: 'the probe was killed by SIGSEGV' },
      }),
    ]);
    expect(convVerdict(p).kind).toBe('other');
  });

  it('kills a hanging probe at the limit, with its whole process group', async () => {
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'torch',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'hang' }), { timeoutMs: 3000 }),
    );
    expect(p.exit).toBe('timeout');
    expect(p.imported).toBe(true);
    expect(p.conv[0]).toMatchObject({ ok: false, error: { type: 'ProcessDied' } });
    expect(p.conv[0]!.error!.message).toMatch(/did not answer within the time limit/);
  });

  it('reports an import that fails on a missing library, with the message the loader gave', async () => {
    const p = await runFrameworkProbe(
      realRunner,
      PYTHON,
      'tensorflow',
      opts(baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TF_IMPORT: 'missing-cudnn' })),
    );
    expect(p.importError).toMatchObject({
      type: 'ImportError',
      message: 'libcudnn.so.8: cannot open shared object file: No such file or directory',
    });
  });
});

describe('src/gather/python/assets/probe.py on every interpreter this machine has', () => {
  it('runs with the standard library alone, old and new Pythons alike', async () => {
    const { discoverEnvironments } = await import('../../src/gather/python/discover.js');
    const envs = discoverEnvironments(
      probeEnvFor('/', { PATH: process.env.PATH ?? '/usr/bin', HOME: process.env.HOME ?? '/root' }, { allEnvs: true }),
    );
    const interpreters = envs.map((e) => e.interpreter).filter((x): x is string => x !== null);
    expect(interpreters.length).toBeGreaterThan(0);
    for (const py of interpreters) {
      const p = await runFrameworkProbe(realRunner, py, 'jax', opts(baseEnv({ PYTHONPATH: tempDir('ged-empty-') })));
      // Whatever the interpreter has installed, the probe itself must run and report the import.
      expect([py, p.exit, typeof p.imported]).toEqual([py, 'ok', 'boolean']);
    }
  });
});

describe('deepProbe: every framework at once, then alone, then with memory growth', () => {
  it('clears JAX of a cuDNN suspicion when it runs without preallocation', async () => {
    const penv = probeEnvFor(
      '/',
      baseEnv({ PYTHONPATH: fakeSitePackages(), FAKE_TORCH_CONV: 'ok', FAKE_JAX_CONV: 'prealloc' }),
    );
    const [torch, jax] = await deepProbe(penv, PYTHON, ['torch', 'jax']);
    expect(torch!.conv.map((c) => [c.mode, c.ok, c.alone])).toEqual([['configured', true, false]]);
    // JAX failed beside torch, failed again alone, and ran with XLA_PYTHON_CLIENT_PREALLOCATE=false.
    expect(jax!.conv.map((c) => [c.mode, c.ok, c.alone])).toEqual([
      ['configured', false, true],
      ['memory-growth', true, true],
    ]);
    expect(jax!.conv[0]!.error!.message).toContain('failed to create cublas handle: the resource allocation failed');
    expect(jax!.stderrTail).toContain('RESOURCE_EXHAUSTED: : CUDA_ERROR_OUT_OF_MEMORY');
    expect(jax!.stderrTail).toContain('--- with XLA_PYTHON_CLIENT_PREALLOCATE=false ---');
    expect(convVerdict(jax!).kind).toBe('memory-preallocation');
  });
});

describe('fake interpreters', () => {
  it('replays a recorded probe output, ignoring what libraries printed around it', () => {
    const stdout = [
      'some library banner',
      `${PROBE_MARK}{"stage": "start", "framework": "jax"}`,
      `${PROBE_MARK}{"stage": "import", "ok": true, "seconds": 1.2}`,
      `${PROBE_MARK}{"stage": "info", "info": {"version": "0.11.2", "backend": "gpu"}, "errors": {}}`,
      `${PROBE_MARK}{"stage": "conv", "mode": "configured", "ok": true, "error": null, "seconds": 0.4}`,
      `${PROBE_MARK}{"stage": "libraries", "loaded": ["/v/nvidia/cudnn/lib/libcudnn.so.9"]}`,
      `${PROBE_MARK}{"stage": "done"}`,
      `${PROBE_MARK}{"stage": "conv", "mode": "configured", "ok": tru`,
    ].join('\n');
    const p = interpretProbeRun(
      'jax',
      '/x/python3',
      { kind: 'ok', stdout, stderr: 'W warning\n', durationMs: 1500 },
      { conv: true, mode: 'configured', alone: true },
    );
    expect(p).toMatchObject({
      imported: true,
      info: { version: '0.11.2', backend: 'gpu' },
      loadedLibraries: ['/v/nvidia/cudnn/lib/libcudnn.so.9'],
      stderrTail: 'W warning\n',
    });
    expect(p.conv).toHaveLength(1);
    expect(p.conv[0]).toMatchObject({ ok: true, durationMs: 400 });
  });

  it('records an interpreter that dies before printing anything, and one that cannot be run', async () => {
    const dir = tempDir('ged-fakepy-');
    const crash = fakeBin(
      dir,
      'python3',
      'echo "Fatal Python error: init_fs_encoding: failed to get the Python codec" >&2\nexit 1',
    );
    const p = await runFrameworkProbe(realRunner, crash, 'torch', opts(baseEnv({})));
    expect(p).toMatchObject({ exit: 'non-zero', imported: null, conv: [] });
    expect(p.exitDetail).toContain('exited with 1: Fatal Python error: init_fs_encoding');
    const missing = await runFrameworkProbe(realRunner, path.join(dir, 'nope'), 'torch', opts(baseEnv({})));
    expect(missing).toMatchObject({ exit: 'not-found', imported: null });
  });

  it('leaves no process behind when the interpreter and its children hang', async () => {
    const dir = tempDir('ged-fakepy-');
    const pids = path.join(dir, 'pids');
    const hang = fakeBin(dir, 'python3', `sleep 30 &\necho "$$ $!" > '${pids}'\nwait`);
    const p = await runFrameworkProbe(realRunner, hang, 'jax', opts(baseEnv({}), { timeoutMs: 500 }));
    expect(p.exit).toBe('timeout');
    const [shell, child] = fs.readFileSync(pids, 'utf8').trim().split(' ').map(Number) as [number, number];
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(shell)).toBe(false);
    expect(alive(child)).toBe(false);
  });
});

describe('probePython --deep end to end', () => {
  it('finds a venv made from this python3, reads its files, and probes its frameworks', async () => {
    const root = tempDir('ged-venv-');
    const prefix = path.join(root, 'venv');
    const sp = `${prefix}/lib/python${execFileSync(PYTHON, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim()}/site-packages`;
    writeTree('/', {
      [`${prefix}/pyvenv.cfg`]: `home = ${path.dirname(PYTHON)}\ninclude-system-site-packages = false\n`,
      [`${prefix}/bin/python3`]: { link: PYTHON },
      ...distInfo(sp, 'torch', '2.11.0'),
      ...distInfo(sp, 'nvidia-cudnn-cu13', '9.19.0.56'),
    });
    writeFakeFrameworks('/', sp);
    writeTree('/', { [`${sp}/torch/version.py`]: torchVersionPy('2.11.0+cu130', '13.0') });
    const py = await probePython(
      probeEnvFor(
        '/',
        { PATH: '/usr/bin:/bin', FAKE_TORCH_CONV: 'oom' },
        { deep: 'frameworks', pythons: [`${prefix}/bin/python3`] },
      ),
    );
    const env = py.environments.find((e) => e.prefix === prefix)!;
    // The stand-in tensorflow package has no build_info.py: found, build unknown.
    expect(env.frameworks.map((f) => [f.framework, f.gpuBuild])).toEqual([
      ['torch', true],
      ['tensorflow', null],
    ]);
    const torch = env.probes.find((p) => p.framework === 'torch')!;
    expect(torch.info).toMatchObject({ cudnnVersion: 91900 });
    expect(convVerdict(torch)).toMatchObject({ kind: 'memory' });
    expect(env.probes.find((p) => p.framework === 'tensorflow')).toMatchObject({ imported: true, conv: [] });
  });

  it('does not run interpreters that live under --root', async () => {
    const py = await probePython(probeEnvFor(tempDir('ged-root-'), { PATH: '/usr/bin' }, { deep: 'frameworks' }));
    expect(py.deepSkipped).toMatch(/does not run with --root/);
  });
});
