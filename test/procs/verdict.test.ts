// The verdict on a GPU holder: stale only on evidence (audit H1). Facts as the probe records them; the
// default holder is the H200 hog adopted by PID 1 (its session is not PID 1's).
import { describe, expect, it } from 'vitest';
import { adoptionOf } from '../../src/judge/procs/adoption.js';
import { assess, isStale } from '../../src/judge/procs/verdict.js';
import { holder } from '../fix/helpers.js';

const self = { pid: 4242, uid: 0, user: 'root', pidNamespace: null };
const v = (over: Parameters<typeof holder>[0]) => assess(holder(over), self);

describe('adoption: only facts that a fork by the current parent cannot produce', () => {
  it('the session differs from the parent’s and is not its own: adopted', () => {
    expect(adoptionOf(holder()).kind).toBe('adopted');
  });
  it('a session leader (a daemon, setsid) under PID 1: no evidence', () => {
    expect(adoptionOf(holder({ pid: 417 })).kind).toBe('unknown');
  });
  it('a session outside this PID namespace (0): no evidence', () => {
    expect(adoptionOf(holder({ sid: 0 })).kind).toBe('unknown');
  });
  it('the same session as PID 1 (a job the init started): no evidence', () => {
    expect(adoptionOf(holder({ sid: 1, parentSid: 1 })).kind).toBe('unknown');
  });
  it('a parent that started after the child: adopted, whatever its name', () => {
    expect(adoptionOf(holder({ ppid: 40, parentName: 'bash', parentSid: 417, parentStartTicks: 9000 }))).toMatchObject({
      kind: 'adopted',
      evidence: expect.stringMatching(/started after it/),
    });
  });
  it('a live ordinary parent in the same session: parented', () => {
    expect(adoptionOf(holder({ ppid: 40, parentName: 'bash' })).kind).toBe('parented');
  });
  it('a snapshot from before these facts were recorded: unknown, even where it said "orphaned"', () => {
    const old = holder({
      orphaned: true,
      sid: undefined,
      parentSid: undefined,
      startTicks: undefined,
      parentStartTicks: undefined,
      pgid: undefined,
    });
    expect(assess(old, self).verdict).toBe('unknown');
  });
});

describe('verdicts', () => {
  it('stale: orphaned with evidence, stopped, zombie', () => {
    expect(v({}).verdict).toBe('orphaned');
    expect(v({ state: 'stopped', ppid: 40, parentName: 'bash' }).verdict).toBe('stopped');
    expect(v({ state: 'zombie' }).verdict).toBe('zombie');
    expect(['orphaned', 'stopped', 'zombie', 'idle'].every((x) => isStale(x as never))).toBe(true);
  });
  it('a process stopped by a debugger (tracing stop) is not stale', () => {
    expect(v({ state: 'tracing-stop' })).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/debugger/),
    });
  });
  it('busy during the probe: active, even when adopted', () => {
    expect(v({ recentCpuPercent: 90 }).verdict).toBe('active');
  });
  it('a systemd service’s process: unknown, with the unit', () => {
    expect(v({ sid: 694, serviceUnit: 'ollama.service' }).reason).toMatch(/systemd service ollama\.service/);
  });
  it('idle for hours: stale only for another user who is logged out', () => {
    const idle = { ppid: 40, parentName: 'bash', ageSeconds: 7200, cpuSeconds: 2 } as const;
    expect(v({ ...idle }).verdict).toBe('unknown'); // ours: we are logged in
    expect(v({ ...idle, uid: 1001, user: 'alice', ownerHasTerminal: true }).verdict).toBe('other user');
    expect(v({ ...idle, uid: 1001, user: 'alice', ownerHasTerminal: false }).verdict).toBe('idle');
    expect(v({ ...idle, uid: 1001, user: 'alice' }).verdict).toBe('other user'); // not read: not evidence
    // under a possible supervisor, idleness and a logged-out owner are still not enough
    expect(
      v({ ...idle, ppid: 1, parentName: 'supervisord', sid: 1, parentSid: 1, uid: 1001, ownerHasTerminal: false })
        .verdict,
    ).toBe('unknown');
  });
  it('protected whatever the facts: PID 1, a kernel thread, our ancestors, another namespace’s PID', () => {
    expect(v({ pid: 1, ppid: 0, state: 'stopped' }).protectedBy).toMatch(/PID 1/);
    expect(v({ kernelThread: true }).protectedBy).toBe('it is a kernel thread');
    expect(v({ isSelfOrAncestor: true })).toMatchObject({ verdict: 'this job' });
    expect(v({ gpuNotOpenHere: true })).toMatchObject({
      verdict: 'unknown',
      protectedBy: expect.stringMatching(/no \/dev\/nvidia\* open/),
    });
  });
});
