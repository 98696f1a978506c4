// `procs` end to end: the built CLI, a fake nvidia-smi replaying the real H200 capture with a real
// leftover process in its list (holding /dev/nvidia0 in a private mount namespace: helpers/gpu-namespace.ts),
// the real /proc.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { startGpuNamespace, type GpuNamespace } from '../helpers/gpu-namespace.js';
import { fakeSmiDir, killQuietly } from '../fix/helpers.js';

let ns: GpuNamespace;
beforeAll(() => {
  ns = startGpuNamespace();
});
afterAll(() => ns.close());
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killQuietly(pid);
});

function withLeftover(): { pid: number; env: Record<string, string> } {
  const pid = ns.orphan(['sleep', '300']);
  started.push(pid);
  return { pid, env: { PATH: `${fakeSmiDir([{ pid, usedMiB: 142848 }])}:${process.env.PATH}` } };
}

describe('gpu-env-doctor procs', () => {
  it('shows a leftover as orphaned, with its memory and command, and exits 1', () => {
    const { pid, env } = withLeftover();
    const r = ns.cli(['procs'], { env });
    expect(r.stdout).toMatch(
      new RegExp(
        `^0 +${pid} +root +139\\.5 GiB +\\d+s +sleeping +gone→\\S+(?: \\S+)* +same +orphaned +- +sleep 300$`,
        'm',
      ),
    );
    expect(r.stdout).toContain('1 stale process holding GPU memory');
    expect(r.code).toBe(1);
  });

  it('--json gives the verdict with every fact', () => {
    const { pid, env } = withLeftover();
    const doc = JSON.parse(ns.cli(['procs', '--json'], { env }).stdout);
    expect(doc.processes).toEqual([
      expect.objectContaining({
        pid,
        verdict: 'orphaned',
        stale: true,
        usedMiB: 142848,
        cmdline: ['sleep', '300'],
        ppid: 1,
      }),
    ]);
  });

  it('--from a saved snapshot: the real H200 capture names no process here, so nothing is stale', () => {
    const dir = tempDir();
    const snap = runCli(['snapshot'], { env: { PATH: `${fakeSmiDir([])}:${process.env.PATH}` } });
    fs.writeFileSync(path.join(dir, 's.json'), snap.stdout);
    const r = runCli(['procs', '--from', 's.json'], { cwd: dir });
    expect(r.stdout).toContain('No process holds GPU memory.');
    expect(r.code).toBe(0);
  });

  it('--watch without a terminal: one table after another, each stamped; --count stops it', () => {
    const { env } = withLeftover();
    const r = ns.cli(['procs', '--watch', '0.2', '--count', '3'], { env });
    expect(r.stdout.match(/^--- gpu-env-doctor procs on .+ ---$/gm)).toHaveLength(3);
    expect(r.stdout.match(/orphaned +- +sleep 300/g)).toHaveLength(3);
    expect(r.stdout).not.toContain('\x1b[');
    const json = ns.cli(['procs', '--watch', '0.2', '--count', '2', '--json'], { env });
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).stale),
    ).toEqual([1, 1]);
  });

  it('--watch stops cleanly on Ctrl-C (SIGINT): exit 0, no stack trace', async () => {
    const { env } = withLeftover();
    const argv = ns.argv([process.execPath, CLI, 'procs', '--watch', '0.3']);
    const child = spawn(argv[0]!, argv.slice(1), { env: { ...env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ((out.match(/^--- /gm) ?? []).length >= 2) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  it('usage errors: one line, exit 2', () => {
    for (const [args, msg] of [
      [['procs', '--watch', 'soon'], '--watch takes a number of seconds (0.1 or more), not "soon"'],
      [['procs', '--count', '2'], '--count and --interval go with --watch'],
      [
        ['procs', '--watch', '--from', path.join(FIXTURES, 'nothing.json')],
        '--watch needs this machine: a saved snapshot (--from) never changes',
      ],
      [['procs', 'extra'], 'procs takes no arguments (got "extra")'],
    ] as const) {
      const r = runCli([...args]);
      expect(r.stderr).toBe(`gpu-env-doctor: ${msg}\n`);
      expect(r.code).toBe(2);
    }
  });
});
