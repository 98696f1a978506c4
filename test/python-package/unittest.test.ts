// The Python package and wheel (python/, scripts/wheel/build_wheel.py) are tested with the standard library's
// unittest: this runs that suite, so `npm test` covers it.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../..');

it('the wheel installs offline into a fresh venv and works without Node (python -m unittest)', () => {
  const r = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', 'python/tests', '-v'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 240000,
  });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stderr).toMatch(/Ran [1-9]\d* tests/);
}, 300000);
