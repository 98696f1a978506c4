// An absent value is said in the words of its fact: a variable is "(not set)", a library a framework loads is
// "not installed" (never "(not set)"), anything else "(none)".
import * as path from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(__dirname, '../..');

test('diff against a machine without the framework: not installed, not "(not set)"', () => {
  // this machine, with no nvidia-smi and no framework on the path, against the H200's snapshot
  const vs = runCli(['diff', path.join(ROOT, 'examples/snapshots/h200-idle.json')], { env: { PATH: '/nonexistent' } });
  const out = vs.stdout.replace(/\u00a0/g, ' ');
  expect(out).toMatch(/libcudart\.so\.13[\s\S]*?→ not installed/);
  expect(out).toMatch(/LD_LIBRARY_PATH: \S+ → \(not set\)/);
  expect(out).not.toMatch(/\.so\.\d+\) → \(not set\)/);
  expect(vs.code).not.toBe(2);
});
