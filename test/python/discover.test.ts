import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discoverDetailed, discoverEnvironments } from '../../src/gather/python/discover.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { realRunner } from '../../src/ports/runner.js';
import { DEFAULT_PROBE_OPTIONS } from '../../src/gather/probe-env.js';
import { freshRoot, probeEnvFor, venvFiles, writeTree } from './helpers.js';

/** A machine with a system Python, a venv made from it, a conda install with two envs, and pyenv. */
function machine(): string {
  const root = freshRoot();
  writeTree(root, {
    '/usr/bin/python3.12': { mode: 0o755, text: '' },
    '/usr/bin/python3': { link: 'python3.12' },
    '/usr/lib/python3.12/os.py': '',
    '/usr/lib/python3/dist-packages/.keep': '',
    '/usr/local/lib/python3.12/dist-packages/.keep': '',
    ...venvFiles('/opt/torch/.venv'),
    '/opt/conda/bin/python3.11': { mode: 0o755, text: '' },
    '/opt/conda/bin/python3': { link: 'python3.11' },
    '/opt/conda/bin/conda': { mode: 0o755, text: '' },
    '/opt/conda/conda-meta/history': '',
    '/opt/conda/lib/python3.11/site-packages/.keep': '',
    '/opt/conda/envs/tf/conda-meta/history': '',
    '/opt/conda/envs/tf/bin/python3': { mode: 0o755, text: '' },
    '/opt/conda/envs/tf/lib/python3.10/site-packages/.keep': '',
    '/data/envs/jax/conda-meta/history': '',
    '/data/envs/jax/bin/python3': { mode: 0o755, text: '' },
    '/data/envs/jax/lib/python3.12/site-packages/.keep': '',
    '/home/u/.conda/environments.txt': '/opt/conda\n/opt/conda/envs/tf\n/data/envs/jax\n/gone/env\n',
    '/home/u/.pyenv/shims/python3': { mode: 0o755, text: '#!/usr/bin/env bash\nexec pyenv exec "$0" "$@"\n' },
    '/home/u/.pyenv/version': '3.11.7\n',
    '/home/u/.pyenv/versions/3.11.7/bin/python3': { mode: 0o755, text: '' },
    '/home/u/.pyenv/versions/3.11.7/lib/python3.11/site-packages/.keep': '',
    '/home/u/.pyenv/versions/3.9.18/bin/python3': { mode: 0o755, text: '' },
    '/home/u/.pyenv/versions/3.9.18/lib/python3.9/site-packages/.keep': '',
  });
  return root;
}

describe('discoverEnvironments (files only)', () => {
  it('finds the H200 layout: python3 on PATH is a venv, the base interpreter comes from pyvenv.cfg home', () => {
    const root = machine();
    const envs = discoverDetailed(
      probeEnvFor(root, { PATH: '/opt/torch/.venv/bin:/usr/local/bin:/usr/bin:/bin', HOME: '/home/u' }),
    );
    const venv = envs[0]!;
    expect(venv).toMatchObject({
      prefix: '/opt/torch/.venv',
      kind: 'venv',
      interpreter: '/opt/torch/.venv/bin/python3',
      pythonVersion: '3.12',
      sitePackages: ['/opt/torch/.venv/lib/python3.12/site-packages'],
      active: true,
    });
    const system = envs.find((e) => e.prefix === '/usr')!;
    expect(system.kind).toBe('system');
    expect(system.active).toBe(false);
    expect(system.foundVia).toEqual(expect.arrayContaining(['PATH', 'pyvenv.cfg home']));
    expect(system.sitePackages).toEqual(['/usr/lib/python3/dist-packages', '/usr/local/lib/python3.12/dist-packages']);
    expect(envs.filter((e) => e.active)).toHaveLength(1);
  });

  it('finds conda envs from the list and the envs folder, names them, and skips listed folders that are gone', () => {
    const root = machine();
    const envs = discoverDetailed(
      probeEnvFor(root, { PATH: '/usr/bin', HOME: '/home/u', CONDA_EXE: '/opt/conda/bin/conda' }),
    );
    const conda = envs.filter((e) => e.kind === 'conda');
    expect(conda.map((e) => [e.prefix, e.name ?? null, e.pythonVersion])).toEqual([
      ['/opt/conda', 'base', '3.11'],
      ['/opt/conda/envs/tf', 'tf', '3.10'],
      ['/data/envs/jax', 'jax', '3.12'],
    ]);
    expect(envs.some((e) => e.prefix === '/gone/env')).toBe(false);
  });

  it('makes the activated conda env the active one, with its name', () => {
    const root = machine();
    const envs = discoverDetailed(
      probeEnvFor(root, {
        PATH: '/opt/conda/envs/tf/bin:/usr/bin',
        HOME: '/home/u',
        CONDA_PREFIX: '/opt/conda/envs/tf',
        CONDA_DEFAULT_ENV: 'tf',
      }),
    );
    expect(envs[0]).toMatchObject({ prefix: '/opt/conda/envs/tf', kind: 'conda', active: true, name: 'tf' });
    expect(envs[0]!.foundVia).toEqual(['CONDA_PREFIX', 'PATH', 'conda envs']);
  });

  it("follows pyenv's shim to the version it runs, and lists the other versions", () => {
    const root = machine();
    const envs = discoverDetailed(probeEnvFor(root, { PATH: '/home/u/.pyenv/shims:/usr/bin', HOME: '/home/u' }));
    expect(envs[0]).toMatchObject({
      prefix: '/home/u/.pyenv/versions/3.11.7',
      kind: 'pyenv',
      active: true,
      pythonVersion: '3.11',
    });
    expect(envs.map((e) => e.prefix)).toContain('/home/u/.pyenv/versions/3.9.18');
    // PYENV_VERSION wins over the version file.
    const other = discoverDetailed(
      probeEnvFor(root, { PATH: '/home/u/.pyenv/shims:/usr/bin', HOME: '/home/u', PYENV_VERSION: '3.9.18' }),
    );
    expect(other[0]!.prefix).toBe('/home/u/.pyenv/versions/3.9.18');
  });

  it('takes --python as an interpreter or an environment folder, and records one that does not exist', () => {
    const root = machine();
    const envs = discoverDetailed(
      probeEnvFor(
        root,
        { PATH: '/usr/bin', HOME: '/home/u' },
        { pythons: ['/data/envs/jax/bin/python3', '/opt/torch/.venv', '/nope/bin/python3'] },
      ),
    );
    const named = envs.filter((e) => e.explicit);
    expect(named.map((e) => [e.prefix, e.kind])).toEqual([
      ['/data/envs/jax', 'conda'],
      ['/opt/torch/.venv', 'venv'],
      ['/nope/bin/python3', 'explicit'],
    ]);
    expect(named[2]!.problems[0]).toMatch(/--python \/nope\/bin\/python3: no Python interpreter/);
  });

  it('keeps the shared PythonEnvironment shape for the library inventory', () => {
    const root = machine();
    const envs = discoverEnvironments(probeEnvFor(root, { PATH: '/opt/torch/.venv/bin:/usr/bin', HOME: '/home/u' }));
    expect(Object.keys(envs[0]!).sort()).toEqual([
      'active',
      'interpreter',
      'kind',
      'prefix',
      'pythonVersion',
      'sitePackages',
    ]);
  });

  it('finds the same active environment as the real python3 of this machine', () => {
    let prefix: string;
    try {
      prefix = execFileSync('python3', ['-c', 'import sys; print(sys.prefix)'], { encoding: 'utf8' }).trim();
    } catch {
      return; // no python3 here
    }
    const penv = {
      fs: createFileSystem('/'),
      runner: realRunner,
      env: process.env,
      now: Date.now,
      pid: process.pid,
      options: DEFAULT_PROBE_OPTIONS,
    };
    const active = discoverEnvironments(penv).find((e) => e.active)!;
    expect(fs.realpathSync(active.prefix)).toBe(fs.realpathSync(prefix));
    expect(active.sitePackages.length).toBeGreaterThan(0);
  });
});
