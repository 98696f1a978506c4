// L5 of security-audit-2026-12-03: ./.gpu-env-doctor.json in the working directory was trusted: its escape
// sequences reached the terminal, a link to /etc/shadow printed its first characters, a FIFO hung `check`, and
// a config shipped in a cloned repository removed the GPU sections without naming the file. Each of the
// audit's steps, with the built CLI over the H200 snapshot that has an error (138.6 GiB held).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';

const HELD = path.join(FIXTURES, 'snapshots/h200-memory-held.json');
const AS_ROOT = process.getuid?.() === 0;

function dirWith(content?: string): { cwd: string; file: string } {
  const cwd = tempDir('ged-cfg-');
  const file = path.join(cwd, '.gpu-env-doctor.json');
  if (content !== undefined) fs.writeFileSync(file, content, { mode: 0o644 });
  return { cwd, file };
}
/** The summary line, unwrapped (the last paragraph of the report). */
const summaryOf = (stdout: string) => stdout.trimEnd().split('\n\n').pop()!.replace(/\n +/g, ' ');
const check = (cwd: string, extra: string[] = []) =>
  runCli(['check', '--from', HELD, '--no-color', ...extra], { cwd, env: { HOME: cwd }, timeoutMs: 20000 });

describe('the config file in the working directory (L5)', () => {
  it('escape sequences in a broken file never reach the terminal, and its content is never quoted', () => {
    const { cwd, file } = dirWith('\x1b]52;c;SGk=\x07\x1b[2J{');
    const r = check(cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`gpu-env-doctor: config ${file}: not valid JSON\n`);
  });

  it('an escape sequence in a check id is shown, not interpreted', () => {
    const { cwd } = dirWith('{"ignore":["\\u001b]52;c;SGk=\\u0007\\u001b[2J"]}');
    const r = check(cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(r.stderr).toContain('unknown check "\\x1b]52;c;SGk=\\x07\\x1b[2J"');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a link (to /etc/shadow) is not followed: not read, said on stderr, nothing of the target shown', () => {
    const { cwd, file } = dirWith();
    fs.symlinkSync('/etc/shadow', file);
    const r = check(cwd);
    expect(r.stderr).toBe(
      `gpu-env-doctor: not reading ${file}: it is a symbolic link; give --config ${file} to use it anyway\n`,
    );
    expect(summaryOf(r.stdout)).toMatch(/^! 0 errors, 1 warning · /); // judged as without a config
    expect(r.stdout).not.toContain('root:');
  });

  it('a FIFO does not hang check (and a FIFO named with --config is one line, exit 2)', () => {
    const { cwd, file } = dirWith();
    execFileSync('mkfifo', [file]);
    const t0 = Date.now();
    const r = check(cwd);
    expect(Date.now() - t0).toBeLessThan(15000);
    expect(r.stderr).toBe(
      `gpu-env-doctor: not reading ${file}: it is not a regular file; give --config ${file} to use it anyway\n`,
    );
    expect(summaryOf(r.stdout)).toMatch(/^! 0 errors, 1 warning · /);
    const named = check(cwd, ['--config', file]);
    expect(named.stderr).toBe(`gpu-env-doctor: cannot read the config ${file}: it is not a regular file\n`);
    expect(named.code).toBe(2);
  });

  it('a file others can write is not read', () => {
    const { cwd, file } = dirWith('{"ignore":["memory.headroom"]}');
    fs.chmodSync(file, 0o666);
    const r = check(cwd);
    expect(r.stderr).toBe(
      `gpu-env-doctor: not reading ${file}: other users can write it (mode 0666); give --config ${file} to use it anyway\n`,
    );
    expect(summaryOf(r.stdout)).toMatch(/^! 0 errors, 1 warning · /);
  });

  it.runIf(AS_ROOT)('another user’s file is not read; named with --config it is', () => {
    const { cwd, file } = dirWith('{"ignore":["memory.headroom"]}');
    fs.chownSync(file, 1002, 1002);
    const r = check(cwd);
    expect(r.stderr).toBe(
      `gpu-env-doctor: not reading ${file}: it belongs to another user (uid 1002); give --config ${file} to use it anyway\n`,
    );
    expect(summaryOf(r.stdout)).toMatch(/^! 0 errors, 1 warning · /);
    expect(summaryOf(check(cwd, ['--config', file]).stdout)).toMatch(/^✓ 0 errors, 0 warnings, 1 accepted/);
  });

  it('a config that removes sections is named, with the checks it hides, in the summary line', () => {
    const ids = [
      'memory.headroom',
      'memory.holders',
      'memory.unattributed',
      'gpu.health',
      'gpu.driver',
      'gpu.presence',
    ];
    const { cwd, file } = dirWith(JSON.stringify({ ignore: ids }));
    const r = check(cwd, ['--no-color']);
    const summary = summaryOf(r.stdout);
    expect(summary).toContain(`(ignored by the config file ${file})`);
    expect(summary).toMatch(/not judged: [a-z., ]*memory\.headroom/);
    for (const id of ['memory.headroom', 'gpu.driver']) expect(summary).toContain(id);
    const json = JSON.parse(check(cwd, ['--json']).stdout) as { configFile?: string; ignoredChecks?: string[] };
    expect(json.configFile).toBe(file);
    // fix says it too, before its plan
    const fix = runCli(['fix', '--from', HELD, '--no-color'], { cwd, env: { HOME: cwd } });
    expect(fix.stderr).toContain(`gpu-env-doctor: fix: not judged: `);
    expect(fix.stderr).toContain(`(ignored by the config file ${file})`);
    // --ignore alone names itself, not a file
    const flagOnly = runCli(['check', '--from', HELD, '--no-color', '--ignore', 'memory.headroom'], {
      cwd: tempDir('ged-cfg-none-'),
      env: { HOME: '/nonexistent' },
    });
    expect(summaryOf(flagOnly.stdout)).toContain('not judged: memory.headroom (ignored by --ignore)');
  });
});
