// Every JSON document says which version of its shape it is; check --json leads a script to the answer: the
// counts the report's last line gives and the exit code check returns.
import * as path from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(__dirname, '../..');

test.each([
  ['examples/snapshots/h200-orphan-held.json', 'error', { errors: 0, warnings: 1, exitCode: 0 }],
  ['examples/snapshots/h200-orphan-held.json', 'warn', { errors: 0, warnings: 1, exitCode: 1 }],
  ['examples/snapshots/h200-idle.json', 'error', { errors: 0, exitCode: 0 }],
])('check --json --from %s --fail-on %s: summary with counts and the exit code', (snap, failOn, want) => {
  const r = runCli(['check', '--from', path.join(ROOT, snap), '--json', '--fail-on', failOn]);
  const doc = JSON.parse(r.stdout);
  expect(doc.summary).toMatchObject({ ...want, failOn });
  expect(doc.summary.exitCode).toBe(r.code);
  expect(doc.summary.checks).toBeGreaterThan(10);
});

test('compat --json carries schemaVersion', () => {
  const r = runCli(['compat', 'torch==2.1.0+cu121', '--no-machine', '--json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).schemaVersion).toBe(1);
});
