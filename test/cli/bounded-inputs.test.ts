// Inputs the user names are read with bounds (audit M9, M12, L2, L6): a device, FIFO or stdin that never
// ends is a one-line error at the size limit; a folder with link loops counts each file once; JSON nested
// without end is a usage error; explain reads pipes.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';

const SNAP = path.join(FIXTURES, 'snapshots/h200-idle.json');
const LOG = path.join(FIXTURES, 'h200/logs/conv-keep1200-bs64.txt');
const oneLine = (s: string) => s.trim().split('\n');

describe('M9: --from, diff and explain --from on inputs that never end', { timeout: 90000 }, () => {
  it('check --from /dev/zero: one line at the size limit, exit 2', () => {
    const r = runCli(['check', '--from', '/dev/zero'], { timeoutMs: 60000 });
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual(['gpu-env-doctor: /dev/zero is too large (more than 67108864 bytes)']);
  });
  it('diff /dev/zero SNAPSHOT and explain LOG --from /dev/zero: the same', () => {
    const d = runCli(['diff', '/dev/zero', SNAP], { timeoutMs: 60000 });
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/^gpu-env-doctor: \/dev\/zero is too large/);
    const e = runCli(['explain', LOG, '--from', '/dev/zero'], { timeoutMs: 60000 });
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/^gpu-env-doctor: \/dev\/zero is too large/);
  });
  it('check --from - < /dev/zero: standard input too, one line', () => {
    const r = spawnSync('sh', ['-c', `'${process.execPath}' '${CLI}' check --from - < /dev/zero`], {
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toEqual(['gpu-env-doctor: standard input is too large (more than 67108864 bytes)']);
  });
  it('a FIFO that carries a snapshot is read to its end', async () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'snap.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `cat '${SNAP}' > '${fifo}'`]);
    const r = runCli(['check', '--from', fifo, '--json']);
    writer.kill();
    expect(r.code).not.toBe(2);
    expect(JSON.parse(r.stdout).snapshot.host.name).toBeTruthy();
  });
});

describe('M12: fleet DIR with link loops', () => {
  it('counts each file once, whatever links lead to it again', () => {
    const dir = tempDir();
    fs.copyFileSync(SNAP, path.join(dir, 'node1.json'));
    for (const n of [1, 2, 3, 4, 5]) fs.symlinkSync('.', path.join(dir, `l${n}`));
    fs.symlinkSync('node1.json', path.join(dir, 'alias.json'));
    const r = runCli(['fleet', dir, '--json'], { timeoutMs: 60000 });
    expect(JSON.parse(r.stdout).machines).toBe(1);
    // the same file named twice
    expect(
      JSON.parse(runCli(['fleet', path.join(dir, 'node1.json'), path.join(dir, 'l1/node1.json'), '--json']).stdout)
        .machines,
    ).toBe(1);
  });
});

describe('L6: JSON nested without end under an unknown key', { timeout: 60000 }, () => {
  const deep = () => {
    const dir = tempDir();
    const s = fs.readFileSync(SNAP, 'utf8').trimEnd();
    const n = 200000;
    fs.writeFileSync(path.join(dir, 'deep.json'), `${s.slice(0, -1)}, "extra": ${'['.repeat(n)}${']'.repeat(n)}}`);
    return path.join(dir, 'deep.json');
  };
  it('is a one-line usage error for check, check --redact and explain --redact', () => {
    const f = deep();
    for (const args of [
      ['check', '--json', '--from', f],
      ['check', '--redact', '--from', f],
      ['explain', LOG, '--redact', '--from', f],
    ]) {
      const r = runCli(args, { timeoutMs: 60000 });
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toEqual([
        `gpu-env-doctor: ${f} is not a gpu-env-doctor snapshot: it nests deeper than 64 levels`,
      ]);
    }
  });
});

describe('L2: explain reads pipes', { timeout: 60000 }, () => {
  it('<(cat LOG), /dev/stdin on a pipe and a FIFO read like the file', () => {
    const want = runCli(['explain', LOG, '--no-machine', '--json']);
    const causes = (out: string) => JSON.parse(out).causes.map((c: { id: string }) => c.id);
    const sub = spawnSync(
      'bash',
      ['-c', `'${process.execPath}' '${CLI}' explain <(cat '${LOG}') --no-machine --json`],
      { encoding: 'utf8' },
    );
    expect(sub.stderr).toBe('');
    expect(causes(sub.stdout)).toEqual(causes(want.stdout));
    const stdin = spawnSync(
      'bash',
      ['-c', `cat '${LOG}' | '${process.execPath}' '${CLI}' explain /dev/stdin --no-machine --json`],
      { encoding: 'utf8' },
    );
    expect(causes(stdin.stdout)).toEqual(causes(want.stdout));
    const dir = tempDir();
    const fifo = path.join(dir, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    const f = spawnSync(
      'bash',
      ['-c', `cat '${LOG}' > '${fifo}' & '${process.execPath}' '${CLI}' explain '${fifo}' --no-machine --json`],
      { encoding: 'utf8' },
    );
    expect(causes(f.stdout)).toEqual(causes(want.stdout));
    expect(JSON.parse(f.stdout).input.lines).toBe(JSON.parse(want.stdout).input.lines);
  });
});
