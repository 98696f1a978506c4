// `diff` as users run it: the built CLI on saved snapshots, and on one snapshot against "this machine"
// (a temp --root and a fake nvidia-smi replaying the H200's real XML).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeNvidiaSmi, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { clone, h200Root, realSnapshot } from '../fleet/h200-snapshot.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('ged-diff-cli-');
  const a = realSnapshot('h200-idle.json');
  const b = clone(a);
  if (b.nvidia.ok) b.nvidia.driverVersion = '575.57.08';
  b.env.LD_PRELOAD = '/opt/old/libcudnn.so.8';
  b.host.name = 'other-node';
  fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(a));
  fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ schemaVersion: 1, snapshot: b, findings: [] })); // check --json output
  fs.writeFileSync(path.join(dir, 'bad.json'), '{"schemaVersion": 1}');
});

describe('gpu-env-doctor diff', () => {
  it('--json: the ranked differences, exit 1', () => {
    const r = runCli(['diff', 'a.json', 'b.json', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.differences.map((d: { fact: string }) => d.fact)).toEqual(['driver', 'env[LD_PRELOAD]']);
    expect(out.differences[0]).toMatchObject({ impact: 'critical', a: '580.159.04', b: '575.57.08' });
    expect(out.b).toMatchObject({ label: 'b.json', host: 'other-node' });
  });

  it('the same snapshot twice: no differences, exit 0', () => {
    const r = runCli(['diff', 'a.json', 'a.json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No differences that matter · \d+ facts the same$/m);
  });

  it('--markdown prints a table', () => {
    const r = runCli(['diff', 'a.json', 'b.json', '--markdown'], { cwd: dir });
    expect(r.stdout).toContain('| critical | `driver` | `580.159.04` | `575.57.08` |');
  });

  it('bad input: exit 2 with one line', () => {
    for (const args of [
      ['diff', 'bad.json', 'a.json'],
      ['diff', 'missing.json', 'a.json'],
      ['diff'],
      ['diff', 'a.json', 'b.json', 'a.json'],
      ['diff', 'a.json', 'b.json', '--format', 'html'],
    ]) {
      const r = runCli(args, { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(runCli(['diff', 'bad.json', 'a.json'], { cwd: dir }).stderr).toContain(
      'bad.json is not a gpu-env-doctor snapshot',
    );
  });

  it('one file: compared with this machine, probed now', () => {
    const root = tempDir('ged-diff-root-');
    h200Root(root);
    const bin = tempDir('ged-diff-bin-');
    fakeNvidiaSmi(bin, {
      xml: path.join(FIXTURES, 'h200/idle/nvidia-smi-q.xml'),
      csv: path.join(FIXTURES, 'h200/idle/query-gpu.csv'),
    });
    const r = runCli(['diff', 'b.json', '--root', root, '--json'], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.b.label).toBe('this machine');
    expect(out.b.host).toBe('gpu-h200-01');
    const driver = out.differences.find((d: { fact: string }) => d.fact === 'driver');
    expect(driver).toMatchObject({ a: '575.57.08', b: '580.159.04' });
    expect(out.differences.find((d: { fact: string }) => d.fact === 'gpu.model[0]')).toBeUndefined(); // same H200
  });
});
