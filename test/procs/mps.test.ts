// An MPS control daemon and server are daemons under PID 1 that idle between clients: by design, never stale.
// Facts as the probe records them for the H200 hog (test/fix/helpers.ts), renamed as the MPS binaries appear in
// /proc (comm cut to 15 characters: "nvidia-cuda-mps"), next to a real leftover that fix must still end.
import { describe, expect, it } from 'vitest';
import { setLang } from '../../src/base/i18n/index.js';
import { buildPlan, type LiveSample } from '../../src/judge/fix/plan.js';
import { assess, fixMayEnd, isMps } from '../../src/judge/procs/verdict.js';
import type { HolderProcess, Snapshot } from '../../src/gather/snapshot/schema.js';
import { holder, snapshotWith } from '../fix/helpers.js';

setLang('en');
const self = { pid: 4242, uid: 0, user: 'root', pidNamespace: null };
// the server: adopted by PID 1, hours old, 30 MiB on the GPU, no CPU: everything that makes a leftover
const server = holder({
  pid: 2101,
  name: 'nvidia-cuda-mps',
  cmdline: ['nvidia-cuda-mps-server'],
  usedMiB: 30,
  ageSeconds: 36000,
  cpuSeconds: 0.4,
  recentCpuPercent: 0,
});
const control = holder({
  pid: 2100,
  name: 'nvidia-cuda-mps',
  cmdline: ['/usr/bin/nvidia-cuda-mps-control', '-d'],
  listedByNvidiaSmi: false,
  usedMiB: null,
  gpus: [],
  ageSeconds: 36000,
  cpuSeconds: 0.1,
});

describe('MPS daemons are never stale', () => {
  it('recognised by comm or by the program named in the command line', () => {
    expect(isMps(server)).toBe(true);
    expect(isMps({ name: 'python3', cmdline: ['/opt/cuda/bin/nvidia-cuda-mps-control', '-d'] })).toBe(true);
    expect(isMps(holder())).toBe(false);
    expect(isMps({ name: 'python3', cmdline: ['python3', 'nvidia-cuda-mps-server.py'] })).toBe(false);
  });

  it('the same facts that make the hog "orphaned" make the MPS server active and protected', () => {
    expect(assess(holder(), self).verdict).toBe('orphaned');
    for (const p of [server, control]) {
      const a = assess(p, self);
      expect(a).toMatchObject({ verdict: 'active', reason: expect.stringMatching(/MPS server or control daemon/) });
      expect(a.protectedBy).toMatch(/MPS control daemon or server/);
      expect(fixMayEnd(a)).toBe(false);
    }
  });

  it('fix plans to end the leftover next to them, and neither MPS process', () => {
    const s = snapshotWith([server, control, holder()]);
    const live = (p: HolderProcess): LiveSample => ({
      identity: {
        pid: p.pid,
        startedAt: p.startedAt,
        state: 'sleeping',
        ppid: 1,
        uid: p.uid,
        comm: p.name ?? '?',
        cpuSeconds: p.cpuSeconds ?? 0,
      },
      cpuShare: 0,
    });
    const plan = buildPlan({
      snapshot: s as Snapshot,
      findings: [],
      live: new Map(s.processes.list.map((p) => [p.pid, live(p)])),
      signalling: true,
      force: false,
      envFile: 'gpu-env-doctor.env',
    });
    expect(plan.processes.map((p) => p.pid)).toEqual([694]);
  });
});
