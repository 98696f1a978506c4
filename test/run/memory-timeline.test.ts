import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TimelineBuilder } from '../../src/gather/nvidia/memory-timeline.js';
import { FIXTURES } from '../helpers/fake-bin.js';

const HOG_APPS = fs.readFileSync(path.join(FIXTURES, 'h200/hog/compute-apps-hog.csv'), 'utf8');
const UUID = 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7';

describe('TimelineBuilder (nvidia-smi -lms lines in, peaks and a timeline out)', () => {
  it('reads the real --query-compute-apps capture (header and MiB units included) and keeps each process peak', () => {
    const tl = new TimelineBuilder({ intervalMs: 500, isJob: () => false });
    HOG_APPS.split('\n').forEach((l) => tl.appLine(l, 0));
    HOG_APPS.split('\n').forEach((l) => tl.appLine(l.replace('142848', '100'), 500));
    const r = tl.result();
    expect(r.processes).toEqual([
      { pid: 694, gpuUuid: UUID, peakMiB: 142848, lastMiB: 100, firstSeen: 0, lastSeen: 500, isJob: false },
    ]);
  });

  it('records GPU memory points, the peak per GPU, and the job share from its processes', () => {
    const jobPid = 4242;
    const tl = new TimelineBuilder({ intervalMs: 500, isJob: (pid) => pid === jobPid });
    tl.gpuLine(`0, ${UUID}, 0, 143771`, 0);
    tl.appLine(`${jobPid}, 2048, ${UUID}`, 400);
    tl.appLine(`694, 139000, ${UUID}`, 400);
    tl.gpuLine(`0, ${UUID}, 141048, 143771`, 500);
    tl.gpuLine(`0, ${UUID}, 139000, 143771`, 3000); // the job's last sample is too old: not counted now
    const r = tl.result(3100);
    expect(r.available).toBe(true);
    expect(r.failureAt).toBe(3100);
    const g = r.gpus[0]!;
    expect(g).toMatchObject({ index: 0, uuid: UUID, totalMiB: 143771, peakUsedMiB: 141048, peakJobMiB: 2048 });
    expect(g.points).toEqual([
      { t: 0, usedMiB: 0, jobMiB: null },
      { t: 500, usedMiB: 141048, jobMiB: 2048 },
      { t: 3000, usedMiB: 139000, jobMiB: 0 },
    ]);
    expect(r.processes.map((p) => [p.pid, p.isJob, p.jobBy])).toEqual([
      [694, false, undefined],
      [jobPid, true, 'process-tree'],
    ]);
  });

  it('in a container (PIDs not in our /proc) takes a process that appeared after sampling began for the job', () => {
    const tl = new TimelineBuilder({ intervalMs: 500, isJob: () => null });
    tl.gpuLine(`0, ${UUID}, 142857, 143771`, 40);
    tl.appLine(`694, 142848, ${UUID}`, 45); // there from the start: someone else's
    tl.appLine(`1578, 896, ${UUID}`, 2540); // appeared while the job ran
    tl.gpuLine(`0, ${UUID}, 143753, 143771`, 2545);
    const r = tl.result();
    expect(r.processes.map((p) => [p.pid, p.isJob, p.jobBy])).toEqual([
      [694, false, undefined],
      [1578, true, 'timing'],
    ]);
    expect(r.gpus[0]!.peakJobMiB).toBe(896);
  });

  it('counts "appeared later" from the process loop\'s first sample, not the memory loop\'s (the two start apart on a loaded machine)', () => {
    const tl = new TimelineBuilder({ intervalMs: 100, isJob: () => null });
    tl.gpuLine(`0, ${UUID}, 142857, 143771`, 10);
    tl.gpuLine(`0, ${UUID}, 142857, 143771`, 110);
    tl.appLine(`694, 142848, ${UUID}`, 180); // the process loop's first answer, 170 ms after the memory loop's
    tl.appLine(`1578, 896, ${UUID}`, 400); // appeared while the job ran
    tl.gpuLine(`0, ${UUID}, 143753, 143771`, 410);
    const r = tl.result();
    expect(r.processes.map((p) => [p.pid, p.isJob])).toEqual([
      [694, false],
      [1578, true],
    ]);
    expect(r.gpus[0]!.peakJobMiB).toBe(896);
  });

  it('asks whether a PID is the job once per PID', () => {
    let asked = 0;
    const tl = new TimelineBuilder({ intervalMs: 100, isJob: () => (asked++, true) });
    for (let t = 0; t < 50; t++) tl.appLine(`77, 10, ${UUID}`, t * 100);
    expect(asked).toBe(1);
  });

  it('stays bounded on a long job, and the peak survives the thinning', () => {
    const tl = new TimelineBuilder({ intervalMs: 500, maxPoints: 100, isJob: () => false });
    for (let i = 0; i < 10000; i++) tl.gpuLine(`0, ${UUID}, ${i === 7777 ? 140000 : 1000 + (i % 7)}, 143771`, i * 500);
    const g = tl.result().gpus[0]!;
    expect(g.points.length).toBeLessThanOrEqual(100);
    expect(g.points.length).toBeGreaterThan(40);
    expect(Math.max(...g.points.map((p) => p.usedMiB))).toBe(140000);
    expect(g.peakUsedMiB).toBe(140000);
  });

  it('ignores lines that are not samples ([N/A], errors) and says when nothing was sampled', () => {
    const tl = new TimelineBuilder({ intervalMs: 500, isJob: () => false });
    tl.gpuLine('0, GPU-x, [N/A], [N/A]', 0);
    tl.appLine('No devices were found', 0);
    tl.appLine('', 0);
    const r = tl.result();
    expect(r.available).toBe(false);
    expect(r.note).toBe('nvidia-smi printed no samples');
    expect(r.gpus).toEqual([]);
  });
});
