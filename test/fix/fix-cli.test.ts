// `fix` end to end: the built CLI, a fake nvidia-smi (the real H200 capture) listing real processes that
// this test starts as leftovers (with /dev/nvidia0 open, in a private mount namespace: helpers/gpu-namespace.ts),
// the real /proc, real signals.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { startGpuNamespace, type GpuNamespace } from '../helpers/gpu-namespace.js';
import { fakeSmiDir, isRunning, killQuietly, flat } from './helpers.js';

let ns: GpuNamespace;
beforeAll(() => {
  ns = startGpuNamespace();
});
afterAll(() => ns.close());
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killQuietly(pid);
});

function leftover(argv = ['sleep', '300'], uid?: number): number {
  const pid = ns.orphan(argv, uid !== undefined ? { uid } : {});
  started.push(pid);
  return pid;
}

function fix(args: string[], pids: number[], opts: { cwd?: string; env?: Record<string, string>; uid?: number } = {}) {
  const bin = fakeSmiDir(pids.map((pid) => ({ pid, usedMiB: 2048 })));
  return ns.cli(['fix', ...args], {
    cwd: opts.cwd ?? tempDir(),
    env: { PATH: `${bin}:${process.env.PATH}`, ...opts.env },
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
  });
}

describe('gpu-env-doctor fix', () => {
  it('--dry-run prints the plan and changes nothing', () => {
    const pid = leftover();
    const cwd = tempDir();
    const r = fix(['--dry-run'], [pid], { cwd, env: { TF_FORCE_GPU_ALLOW_GROWTH: 'yes' } });
    expect(flat(r.stdout)).toMatch(
      new RegExp(`end +PID ${pid} \\(root\\) sleep 300: 2\\.0 GiB on GPU 0, \\d+s old; orphaned`),
    );
    expect(r.stdout).toContain('export TF_FORCE_GPU_ALLOW_GROWTH=true');
    expect(r.code).toBe(1);
    expect(isRunning(pid)).toBe(true);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('without a terminal and without --yes: prints the plan, refuses in one line, exit 2, nothing changed', () => {
    const pid = leftover();
    const r = fix([], [pid]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`PID ${pid}`);
    expect(r.stderr.trim().split('\n')).toEqual([
      'gpu-env-doctor: fix: no terminal to confirm on, so nothing was changed; add --yes to apply the plan, or --dry-run to only print it',
    ]);
    expect(isRunning(pid)).toBe(true);
  });

  it('--yes ends the leftover and writes the settings file; run again, the file is the same', () => {
    const pid = leftover();
    const cwd = tempDir();
    const env = { TF_FORCE_GPU_ALLOW_GROWTH: 'yes' };
    const r = fix(['--yes', '--grace', '2'], [pid], { cwd, env });
    expect(r.stdout).toContain(`✓ ended PID ${pid} (SIGTERM)`);
    expect(r.stdout).toContain('✓ wrote ./gpu-env-doctor.env; load it');
    expect(isRunning(pid)).toBe(false);
    const file = path.join(cwd, 'gpu-env-doctor.env');
    const first = fs.readFileSync(file, 'utf8');
    expect(first).toMatch(/^export TF_FORCE_GPU_ALLOW_GROWTH=true {2}# env\.allocators: /m);
    expect(r.code).toBe(0);

    const again = fix(['--yes'], [], { cwd, env });
    expect(again.stdout).toContain('./gpu-env-doctor.env already has these settings');
    expect(fs.readFileSync(file, 'utf8')).toBe(first);
  });

  it("does not end another user's process as root without --force; does with it", () => {
    const pid = leftover(['sleep', '300'], 65534);
    const r = fix(['--yes'], [pid]);
    expect(flat(r.stdout)).toMatch(/not ended: it belongs to another user \(nobody\); add --force/);
    expect(r.code).toBe(1);
    expect(isRunning(pid)).toBe(true);
    const forced = fix(['--yes', '--force', '--grace', '2'], [pid]);
    expect(forced.stdout).toContain(`✓ ended PID ${pid}`);
    expect(isRunning(pid)).toBe(false);
  });

  it("a user who is not root cannot end root's leftover, even with --force", () => {
    const pid = leftover();
    const cwd = tempDir();
    fs.chmodSync(cwd, 0o777);
    const r = fix(['--yes', '--force'], [pid], { cwd, uid: 65534 });
    expect(flat(r.stdout)).toMatch(/not ended: it belongs to another user \(root\); only root can end it/);
    expect(r.code).toBe(1);
    expect(isRunning(pid)).toBe(true);
  });

  it('does not end a leftover that is still working', () => {
    const pid = leftover(['sh', '-c', 'while :; do :; done']);
    const r = fix(['--yes'], [pid]);
    // Busy during the snapshot's sample (verdict "active": left alone), or only in fix's own 1-second sample.
    expect(flat(r.stdout)).toMatch(
      new RegExp(`not ended: it is working: \\d+% of a CPU|keep +PID ${pid} .*active: working`),
    );
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    // a planned step left undone is something left to do (1); a process left alone as active is not (0)
    expect(r.code).toBe(/not ended: it is working/.test(r.stdout) ? 1 : 0);
    expect(isRunning(pid)).toBe(true);
  });

  it('a saved snapshot only gives a plan: nothing is signalled or written', () => {
    const pid = leftover();
    const cwd = tempDir();
    const bin = fakeSmiDir([{ pid, usedMiB: 2048 }]);
    const snap = ns.cli(['snapshot'], { env: { PATH: `${bin}:${process.env.PATH}` } });
    fs.writeFileSync(path.join(cwd, 'machine.json'), snap.stdout);
    const r = runCli(['fix', '--yes', '--from', 'machine.json'], { cwd });
    expect(flat(r.stdout)).toMatch(/not ended: the facts come from a saved snapshot/);
    expect(r.stderr).toContain('the plan comes from a saved snapshot, so nothing was changed');
    expect(isRunning(pid)).toBe(true);
    expect(fs.readdirSync(cwd)).toEqual(['machine.json']);
  });

  it('--json: the plan and the outcome of each step', () => {
    const pid = leftover();
    const r = fix(['--yes', '--json', '--grace', '2'], [pid]);
    const doc = JSON.parse(r.stdout);
    expect(doc.mode).toBe('applied');
    expect(doc.processes).toEqual([
      expect.objectContaining({ pid, verdict: 'orphaned', action: 'end', outcome: { kind: 'ended', by: 'SIGTERM' } }),
    ]);
    expect(isRunning(pid)).toBe(false);
  });

  it('usage errors are one line with exit 2', () => {
    expect(runCli(['fix', '--grace', 'soon']).stderr).toBe(
      'gpu-env-doctor: --grace must be a number of seconds from 0 to 600, not "soon"\n',
    );
    expect(runCli(['fix', 'now']).code).toBe(2);
  });
});
