// endProcess and the signals port against real processes this test starts, on the real /proc.
import { afterEach, describe, expect, it } from 'vitest';
import { endProcess } from '../../src/act/fix/apply.js';
import { readIdentity } from '../../src/gather/procfs/identity.js';
import type { EndProcessStep } from '../../src/judge/fix/plan.js';
import { sampleProcesses } from '../../src/act/fix/sample.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { realSignals, realSleep } from '../../src/ports/signals.js';
import { isRunning, killQuietly, readState, spawnOrphan, waitFor } from './helpers.js';

const rootFs = createFileSystem('/');
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killQuietly(pid);
});

function orphan(argv: string[]): number {
  const pid = spawnOrphan(argv);
  started.push(pid);
  return pid;
}

function stepFor(pid: number, over: Partial<EndProcessStep> = {}): EndProcessStep {
  const id = readIdentity(rootFs, pid);
  if (!id) throw new Error(`no /proc/${pid}`);
  return {
    pid,
    startedAt: id.startedAt,
    uid: id.uid,
    user: 'root',
    name: id.comm,
    cmdline: null,
    state: id.state,
    verdict: 'orphaned',
    why: 'test',
    usedMiB: 520,
    gpus: [0],
    ...over,
  };
}

const deps = (graceMs: number) => ({
  fs: rootFs,
  signals: realSignals,
  sleep: realSleep,
  now: () => Date.now(),
  graceMs,
});

describe('ending real processes', () => {
  it('ends a leftover `sleep 300` with SIGTERM', async () => {
    const pid = orphan(['sleep', '300']);
    expect(await endProcess(stepFor(pid), deps(3000))).toEqual({ kind: 'ended', by: 'SIGTERM' });
    expect(isRunning(pid)).toBe(false);
  });

  it('never signals a PID whose start time differs from the snapshot’s: the process keeps running', async () => {
    const pid = orphan(['sleep', '300']);
    const st = stepFor(pid);
    const r = await endProcess({ ...st, startedAt: st.startedAt! - 10 }, deps(1000));
    expect(r.kind).toBe('refused');
    expect(isRunning(pid)).toBe(true);
  });

  it('ends a stopped process (SIGTERM, then SIGCONT so it acts on it)', async () => {
    const pid = orphan(['sleep', '300']);
    process.kill(pid, 'SIGSTOP');
    waitFor(() => readState(pid) === 'T');
    expect(await endProcess(stepFor(pid), deps(3000))).toEqual({ kind: 'ended', by: 'SIGTERM' });
    expect(isRunning(pid)).toBe(false);
  });

  it('SIGKILLs a process that ignores SIGTERM, after the grace period', async () => {
    // sh ignores TERM and execs sleep, which inherits the ignored disposition
    const pid = orphan(['sh', '-c', "trap '' TERM; exec sleep 300"]);
    waitFor(() => readIdentity(rootFs, pid)?.comm === 'sleep');
    expect(await endProcess(stepFor(pid), deps(300))).toEqual({ kind: 'ended', by: 'SIGKILL' });
    expect(isRunning(pid)).toBe(false);
  });

  it('measures CPU use: a sleeping leftover is idle, a spinning one is busy', async () => {
    const idle = orphan(['sleep', '300']);
    const busy = orphan(['sh', '-c', 'while :; do :; done']);
    const m = await sampleProcesses(rootFs, [idle, busy], { now: () => Date.now(), sleep: realSleep }, 600);
    expect(m.get(idle)!.cpuShare).toBeLessThan(0.05);
    expect(m.get(busy)!.cpuShare).toBeGreaterThan(0.2);
    expect(m.get(busy)!.identity!.startedAt).toBe(readIdentity(rootFs, busy)!.startedAt);
  });

  it('the signals port refuses init and special PIDs, and says when a process is gone', () => {
    expect(realSignals.send(1, 'SIGTERM')).toBe('failed');
    expect(realSignals.send(0, 'SIGTERM')).toBe('failed');
    expect(realSignals.send(-1, 'SIGTERM')).toBe('failed');
    const pid = orphan(['sleep', '300']);
    expect(realSignals.send(pid, 'SIGKILL')).toBe('sent');
    waitFor(() => !isRunning(pid));
    // A killed orphan stays a zombie here (this VM's PID 1 does not reap), so it still accepts signals:
    // take a PID that surely does not exist instead.
    expect(realSignals.send(4194304 + 7, 'SIGTERM')).toBe('no-such-process');
  });
});
