import { describe, expect, it } from 'vitest';
import { markJobProcesses } from '../../src/act/run/mark-job.js';
import { verdictOf } from '../../src/judge/procs/verdict.js';
import { planted } from '../helpers/snapshots.js';

describe("the job's own processes in the snapshot taken at its failure", () => {
  // The real run on the H200: the hog (PID 3091) and the failing job (PID 3157) both held memory.
  const s = planted('h200-memory-held', (x) => {
    const hog = x.processes.list[0]!;
    x.processes.list.push({
      ...hog,
      pid: 3157,
      ppid: 3150,
      orphaned: false,
      usedMiB: 894,
      cmdline: ['python3', 'conv.py', '0', '64'],
    });
    x.processes.list.push({
      ...hog,
      pid: 3160,
      ppid: 3157,
      orphaned: false,
      usedMiB: 300,
      cmdline: ['python3', '-c', 'worker'],
    });
    x.processes.list.push({ ...hog, pid: 3170, nvidiaSmiPid: 9157, ppid: 1, orphaned: true, usedMiB: 100 });
  });
  it('are "this job", by PID, by nvidia-smi\'s host PID, or as children; others keep their verdict', () => {
    const m = markJobProcesses(s, [3157, 9157]);
    const v = Object.fromEntries(m.processes.list.map((p) => [p.pid, verdictOf(p, m.self)]));
    // 589: the capture predates the session facts, so whether PID 1 adopted it cannot be told: unknown
    expect(v).toEqual({ 589: 'unknown', 3157: 'this job', 3160: 'this job', 3170: 'this job' });
    expect(s.processes.list.every((p) => !p.isSelfOrAncestor)).toBe(true); // the input is not changed
  });
});
