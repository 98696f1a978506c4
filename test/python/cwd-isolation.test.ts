// check --deep must not import modules from the caller's working directory (audit M11): `python -c` puts
// the cwd first on sys.path, and the probe's own `import json` came before it could drop that entry.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { realRunner } from '../../src/ports/runner.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const EVIL = (marker: string) => `import os, sys
open(${JSON.stringify(marker)}, 'a').write('%s ran as uid %d\\n' % (__name__, os.getuid()))
sys.path = [p for p in sys.path if p not in ('', os.getcwd())]
del sys.modules[__name__]
import importlib
globals().update(importlib.import_module(__name__).__dict__)
`;

describe('the Python probe never runs code from the working directory (M11)', () => {
  it('check --deep in a folder holding json.py and traceback.py: neither runs', () => {
    const cwd = tempDir('ged-cwd-');
    const marker = path.join(cwd, 'PWNED');
    fs.writeFileSync(path.join(cwd, 'json.py'), EVIL(marker));
    fs.writeFileSync(path.join(cwd, 'traceback.py'), EVIL(marker));
    // A venv that looks like it has torch (the deep probe runs only where a framework is found)
    const v = tempDir('ged-venv-');
    const sp = path.join(v, 'lib/python3.11/site-packages');
    fs.mkdirSync(path.join(v, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(sp, 'torch-2.1.0.dist-info'), { recursive: true });
    fs.mkdirSync(path.join(sp, 'torch'), { recursive: true });
    fs.symlinkSync('/usr/bin/python3', path.join(v, 'bin/python3'));
    fs.writeFileSync(path.join(v, 'pyvenv.cfg'), 'home = /usr/bin\nversion = 3.11.2\n');
    fs.writeFileSync(
      path.join(sp, 'torch-2.1.0.dist-info/METADATA'),
      'Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0\n',
    );
    fs.writeFileSync(path.join(sp, 'torch/version.py'), "__version__ = '2.1.0+cu121'\ncuda = '12.1'\n");
    fs.writeFileSync(path.join(sp, 'torch/__init__.py'), 'raise ImportError("fake")\n');
    const r = runCli(['check', '--deep=frameworks', '--json'], {
      cwd,
      env: { VIRTUAL_ENV: v, PATH: `${v}/bin:${process.env.PATH}` },
      timeoutMs: 60000,
    });
    expect(r.stdout).toContain('"schemaVersion"');
    // the probe did run: torch's import error came back
    expect(r.stdout).toMatch(/ImportError|fake/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('the runner starts such a program in a new empty folder of its own, removed afterwards', async () => {
    const r = await realRunner.run('python3', ['-c', 'import os, sys; print(os.getcwd()); print(os.listdir("."))'], {
      isolatedCwd: true,
    });
    expect(r.kind).toBe('ok');
    const [dir, listing] = (r.kind === 'ok' ? r.stdout : '').trim().split('\n');
    expect(dir).toMatch(/\/gpu-env-doctor-[^/]+$/);
    expect(dir).not.toBe(process.cwd());
    expect(listing).toBe('[]');
    expect(fs.existsSync(dir!)).toBe(false);
  });
});
