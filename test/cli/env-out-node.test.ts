// M3 of security-audit-2026-12-03: Node 20 scans its whole command line for --env-file and loads that file as
// dotenv before any of the tool runs (a NODE_OPTIONS="--require …" in it runs code). fix's option is --env-out
// now; the old spelling, when it reaches the tool, is a one-line usage error. Runs the built CLI under the Node
// that runs the tests (20 on this project's machines and CI), with the audit's files.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

function setup() {
  const dir = tempDir();
  const marker = path.join(dir, 'EVIL-RAN');
  fs.writeFileSync(
    path.join(dir, 'evil.cjs'),
    `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); console.error('EVIL.CJS RAN')\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'my.env'),
    `NODE_OPTIONS="--require ${path.join(dir, 'evil.cjs')}"\nTF_FORCE_GPU_ALLOW_GROWTH=yes\n`,
  );
  return { dir, marker };
}

function node(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    timeout: 60000,
    env: { PATH: '/usr/bin:/bin', NO_COLOR: '1', COLUMNS: '200' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('fix --env-out: an option name Node does not claim (M3)', () => {
  it('--env-out with the audit’s file: Node does not load it, the tool gets it', () => {
    const { dir, marker } = setup();
    const r = node([CLI, 'fix', '--dry-run', '--no-color', '--env-out', 'my.env'], dir);
    expect(r.stderr).not.toContain('EVIL.CJS RAN');
    expect(fs.existsSync(marker)).toBe(false);
    expect(r.code).not.toBe(9);
    expect(r.code).not.toBe(2);
  });

  it('--env-out naming a file that does not exist yet (the first use) reaches the tool', () => {
    const { dir } = setup();
    const r = node([CLI, 'fix', '--dry-run', '--env-out', 'new.env'], dir);
    expect(r.stderr).not.toContain('not found');
    expect(r.code).not.toBe(9);
    // the tool itself read the value: a folder is refused by the tool, with its own message
    const d = node([CLI, 'fix', '--dry-run', '--env-out', 'sub/'], dir);
    expect(d.stderr.trim()).toBe('gpu-env-doctor: --env-out must name a file, not "sub/"');
    expect(d.code).toBe(2);
  });

  it('the old spelling, when it reaches the tool, is a usage error naming the new one (and nothing of the file runs)', () => {
    const { dir, marker } = setup();
    // `node -- cli.js …`: Node stops looking for its own options at `--`, so the tool sees --env-file
    const r = node(['--', CLI, 'fix', '--dry-run', '--env-file', 'my.env'], dir);
    expect(r.stderr).toContain('--env-file is now --env-out');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(2);
    expect(fs.existsSync(marker)).toBe(false);
    const eq = node(['--', CLI, 'check', '--env-file=my.env'], dir);
    expect(eq.stderr).toContain('--env-file is now --env-out');
    expect(eq.code).toBe(2);
  });

  it.runIf(process.versions.node.split('.')[0] === '20')(
    'on Node 20 the old spelling is Node’s own (why the option was renamed)',
    () => {
      const { dir, marker } = setup();
      const r = node([CLI, 'fix', '--dry-run', '--env-file', 'my.env'], dir);
      expect(fs.existsSync(marker)).toBe(true);
      // and the tool, reached after Node read the file, still refuses to use it
      expect(r.stderr).toContain('--env-file is now --env-out');
      expect(r.code).toBe(2);
    },
  );
});
