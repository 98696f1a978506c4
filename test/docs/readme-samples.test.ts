// The README's sample outputs are what the built CLI prints from the inputs the README names (scripts/readme-samples.mjs):
// a change of wording or layout that is not carried to the README fails here.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

it('README.md shows what check and explain print now', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/readme-samples.mjs'), '--check'], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}, 60_000);
