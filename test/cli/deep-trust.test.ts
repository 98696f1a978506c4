// H1 of security-audit-2026-12-03: `check --deep` started the interpreter and loaded the CUDA libraries of every
// conda environment under a scanned conda root, another user's included. Here, as in the audit: a conda root with
// a sticky world-writable envs/ folder holds "bobenv" (owned by uid 1002 when the tests run as root, as on CI)
// whose bin/python is a script that records that it ran and whose libcudnn.so.9 has a constructor (built with
// gcc) that records that it was loaded; a second environment of the caller's own sits beside it; the one the
// caller names with --python lives elsewhere. Every start and every load is counted from those records.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeNvidiaSmi, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { buildFakeCuda } from '../helpers/fake-cuda.js';
import { buildLib } from '../libs/build.js';

const SRC = path.resolve(__dirname, '../fixtures/cuda/fake');
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
const AS_ROOT = process.getuid?.() === 0;
const BOB = 1002;

let home = '';
let named = '';
let bobenv = '';
let mine = '';
let log = '';
let bin = '';

/** A conda environment at `prefix` whose python and libcudnn write "<tag> python" / "<tag> libcudnn" to the log. */
function makeEnv(prefix: string, tag: string): void {
  const sp = path.join(prefix, 'lib/python3.11/site-packages');
  fs.mkdirSync(path.join(prefix, 'conda-meta'), { recursive: true });
  fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
  fs.writeFileSync(
    path.join(prefix, 'bin/python'),
    `#!/bin/sh\necho "${tag} python uid $(id -u) $1 $2" >> ${log}\nexec ${PYTHON} "$@"\n`,
    { mode: 0o755 },
  );
  fs.symlinkSync('python', path.join(prefix, 'bin/python3'));
  const libs = buildFakeCuda({
    cudart: path.join(sp, 'nvidia/cu13/lib'),
    cublas: path.join(sp, 'nvidia/cu13/lib'),
    cudnn: path.join(sp, 'nvidia/cudnn/lib'),
  });
  // libcudnn again, with a constructor that records the load (as the audit's did, without running a shell)
  const rec = path.join(prefix, 'rec.c');
  fs.writeFileSync(
    rec,
    `#include <stdio.h>\n#include <unistd.h>\n__attribute__((constructor)) static void rec(void){ FILE *f = fopen("${log}", "a"); if (f) { fprintf(f, "${tag} libcudnn uid %d\\n", (int)getuid()); fclose(f); } }\n`,
  );
  execFileSync(
    'gcc',
    [
      '-shared',
      '-fPIC',
      '-O1',
      '-o',
      libs.cudnn,
      path.join(SRC, 'cudnn.c'),
      rec,
      '-Wl,-soname,libcudnn.so.9',
      '-lpthread',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  buildLib('/', {
    file: path.join(sp, 'torch/lib/libtorch_cuda.so').slice(1),
    soname: 'libtorch_cuda.so',
    nostdlib: true,
    needed: [libs.cudart, libs.cudnn, libs.cublas],
    rpath: '$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cu13/lib',
  });
  fs.writeFileSync(path.join(sp, 'torch/version.py'), "__version__ = '2.11.0+cu130'\ncuda = '13.0'\n");
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
      dist === 'torch' ? 'torch/lib/libtorch_cuda.so,,\n' : '',
    );
  }
}

beforeAll(() => {
  const root = tempDir('ged-trust-');
  log = path.join(root, 'ran.log');
  fs.writeFileSync(log, '', { mode: 0o666 });
  fs.chmodSync(log, 0o666);
  home = path.join(root, 'home');
  const envs = path.join(home, 'miniconda3/envs');
  fs.mkdirSync(envs, { recursive: true });
  fs.chmodSync(envs, 0o1777);
  bobenv = path.join(envs, 'bobenv');
  mine = path.join(envs, 'mine');
  named = path.join(root, 'work/named');
  makeEnv(bobenv, 'bobenv');
  makeEnv(mine, 'mine');
  makeEnv(named, 'named');
  if (AS_ROOT) execFileSync('chown', ['-R', `${BOB}:${BOB}`, bobenv]);
  bin = tempDir('ged-trust-bin-');
  // python3 on PATH records its starts too: a smoke test started by the fallback name is counted
  fs.writeFileSync(
    path.join(bin, 'python3'),
    `#!/bin/sh\necho "PATH python3 uid $(id -u) $1 $2" >> ${log}\nexec ${PYTHON} "$@"\n`,
    { mode: 0o755 },
  );
  fakeNvidiaSmi(bin, {
    xml: path.join(FIXTURES, 'h200/idle/nvidia-smi-q.xml'),
    csv: path.join(FIXTURES, 'h200/idle/query-gpu.csv'),
  });
}, 120000);

interface Out {
  snapshot: {
    smoke?: {
      skipped: string | null;
      runs: { interpreter: string }[];
      notRun?: { environment: string; interpreter: string | null; reason: string }[];
    };
    python: { environments: { prefix: string; scanned: boolean }[] };
  };
  findings: { check: string; status: string; message: string }[];
}

function deep(args: string[]): { out: Out; stderr: string; ran: string[] } {
  fs.writeFileSync(log, '');
  const r = runCli(['check', '--json', ...args], {
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home, FAKE_CUDA: '' },
    timeoutMs: 90000,
  });
  let out: Out;
  try {
    out = JSON.parse(r.stdout) as Out;
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 800)}`);
  }
  return { out, stderr: r.stderr, ran: fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('check --deep runs only what the caller named or is running (H1)', () => {
  it('the audit’s setup: only the --python environment starts; bobenv and the other scanned one are read, not run', () => {
    const { out, ran } = deep(['--deep', '--python', `${named}/bin/python3`]);
    // one interpreter started, one libcudnn loaded: the named environment's
    expect(ran.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['named python', 'named libcudnn']);
    expect(out.snapshot.smoke!.runs.map((r) => r.interpreter)).toEqual([`${named}/bin/python3`]);
    // the others were found and read for the facts
    expect(out.snapshot.python.environments.map((e) => e.prefix)).toEqual(expect.arrayContaining([bobenv, mine]));
    const notRun = out.snapshot.smoke!.notRun ?? [];
    expect(notRun.map((n) => n.environment).sort()).toEqual([bobenv, mine].sort());
    for (const n of notRun)
      expect(n.reason).toMatch(/^not named: found through conda envs \(name it with --python, or give --all-envs\)$/);
    // and the report says so
    const said = out.findings
      .filter((f) => f.check === 'libs.cudnn-smoke' && f.status === 'skip')
      .map((f) => f.message);
    expect(said).toEqual(
      expect.arrayContaining([`not run for ${bobenv}: ${notRun.find((n) => n.environment === bobenv)!.reason}`]),
    );
  }, 120000);

  it('with nothing named and nothing active, nothing of the scanned roots runs; the report says why', () => {
    const { out, ran } = deep(['--deep']);
    expect(ran).toEqual([]);
    expect(out.snapshot.smoke!.runs).toEqual([]);
    expect(out.snapshot.smoke!.skipped).toContain(`${bobenv}: not named`);
    // --deep was asked and tested nothing: shown without -v (unknown), one line per environment left out
    expect(
      out.findings
        .filter((f) => f.check === 'libs.cudnn-smoke')
        .map((f) => [f.status, f.message])
        .sort(),
    ).toEqual(
      [bobenv, mine].sort().map((e) => ['unknown', expect.stringMatching(new RegExp(`^not run for ${e}: not named`))]),
    );
  }, 120000);

  it('the active environment (CONDA_PREFIX) is run: the caller is running it', () => {
    fs.writeFileSync(log, '');
    const r = runCli(['check', '--json', '--deep'], {
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home, FAKE_CUDA: '', CONDA_PREFIX: mine },
      timeoutMs: 90000,
    });
    const ran = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(ran.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['mine python', 'mine libcudnn']);
    expect((JSON.parse(r.stdout) as Out).snapshot.smoke!.notRun!.map((n) => n.environment)).toEqual([bobenv]);
  }, 120000);

  it.runIf(AS_ROOT)(
    '--all-envs says first which interpreters it starts, and refuses another user’s environment',
    () => {
      const { out, stderr, ran } = deep(['--deep', '--all-envs']);
      expect(ran.map((l) => l.split(' ').slice(0, 2).join(' ')).sort()).toEqual(['mine libcudnn', 'mine python']);
      expect(ran.some((l) => l.startsWith('bobenv'))).toBe(false);
      const bob = out.snapshot.smoke!.notRun!.find((n) => n.environment === bobenv)!;
      expect(bob.reason).toBe(
        `the environment ${bobenv} belongs to another user (uid ${BOB}); name it with --python to run it anyway`,
      );
      expect(stderr).toContain(
        `gpu-env-doctor: --all-envs --deep: starting ${mine}/bin/python3; not starting: ${bobenv} (the environment ${bobenv} belongs to another user`,
      );
    },
    120000,
  );

  it.runIf(AS_ROOT)(
    '--all-envs --deep=frameworks does not import in another user’s environment either',
    () => {
      const { out, stderr, ran } = deep(['--deep=frameworks', '--all-envs']);
      expect(ran.some((l) => l.startsWith('bobenv'))).toBe(false);
      expect(stderr).toContain(`not starting: ${bobenv} (the environment ${bobenv} belongs to another user`);
      expect(out.snapshot.python.environments.find((e) => e.prefix === bobenv)).toMatchObject({ scanned: true });
    },
    120000,
  );

  it('naming another user’s environment with --python runs it (the caller chose it)', () => {
    const { ran } = deep(['--deep', '--python', bobenv]);
    expect(ran.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['bobenv python', 'bobenv libcudnn']);
  }, 120000);
});
