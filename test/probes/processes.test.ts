import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { parseSmiXml } from '../../src/gather/nvidia/parse-xml.js';
import { probeProcesses } from '../../src/gather/procfs/processes.js';
import { parseProcStat } from '../../src/gather/procfs/parse.js';
import type { Nvidia } from '../../src/gather/snapshot/schema.js';
import { FIXTURES } from '../helpers/fake-bin.js';
import { makeRoot, REAL_HOG_STAT } from '../helpers/fixture-root.js';

// The real capture: nvidia-smi lists PID 694 holding 142848 MiB (hog/nvidia-smi-q-hog.xml).
function hogNvidia(): Nvidia {
  const x = parseSmiXml(fs.readFileSync(path.join(FIXTURES, 'h200/hog/nvidia-smi-q-hog.xml'), 'utf8'));
  return {
    ok: true,
    driverVersion: x.driverVersion,
    cudaVersion: x.cudaVersion,
    gpus: x.gpus.map((g) => ({ ...g, computeCapability: '9.0' })),
  };
}

const BOOT = 1796200000;
const NOW = (BOOT + 79.86 + 7200) * 1000; // two hours after the hog started (starttime 7986 ticks)

describe('/proc/PID/stat parser', () => {
  it('reads the real hog line', () => {
    expect(parseProcStat(REAL_HOG_STAT)).toEqual({
      pid: 637,
      comm: 'python3',
      state: 'sleeping',
      ppid: 418,
      pgid: 417,
      sid: 417,
      ttyNr: 0,
      tpgid: -1,
      flags: 4194560,
      utime: 499,
      stime: 52,
      starttime: 7986,
    });
  });
  it('survives spaces and parentheses in the command name', () => {
    const line = REAL_HOG_STAT.replace('(python3)', '(pt_data (worker) 1)');
    expect(parseProcStat(line)?.comm).toBe('pt_data (worker) 1');
    expect(parseProcStat(line)?.ppid).toBe(418);
  });
  it('rejects garbage', () => {
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('12 (x) S 1')).toBeNull();
  });
});

describe('GPU process probe', () => {
  it('joins nvidia-smi with /proc: an orphaned hog, its owner, age and CPU use', () => {
    const root = makeRoot({
      bootTime: BOOT,
      procs: [
        {
          pid: 694,
          ppid: 1,
          uid: 1001,
          gpuFd: true,
          cmdline: ['python3', 'hog.py', '1200', '600'],
          starttime: 7986,
          utime: 499,
        },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.ok).toBe(true);
    expect(r.list).toHaveLength(1);
    expect(r.list[0]).toMatchObject({
      pid: 694,
      gpus: [0],
      usedMiB: 142848,
      listedByNvidiaSmi: true,
      visible: true,
      user: 'bob',
      uid: 1001,
      state: 'sleeping',
      ppid: 1,
      orphaned: true,
      parentName: 'init',
      ageSeconds: 7200,
      cpuSeconds: 5.51,
      holdsDeviceFiles: true,
      isSelfOrAncestor: false,
      otherPidNamespace: false,
      cmdline: ['python3', 'hog.py', '1200', '600'],
    });
  });

  it('records the facts that show adoption: its session and its parent’s, their start times', () => {
    const root = makeRoot({ bootTime: BOOT, procs: [{ pid: 694, ppid: 1, gpuFd: true, starttime: 7986 }] });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list[0]).toMatchObject({
      pgid: 417,
      sid: 417,
      ttyNr: 0,
      parentSid: 1,
      parentStartTicks: 7986,
      startTicks: 7986,
      kernelThread: false,
      serviceUnit: null,
      orphaned: true,
    });
  });

  it('a child of init in init’s own session (a service, a job the init started) is not called orphaned', () => {
    const root = makeRoot({ procs: [{ pid: 694, ppid: 1, sid: 1, pgid: 694, gpuFd: true }] });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list[0]).toMatchObject({ pid: 694, orphaned: null, parentName: 'init' });
  });

  it('reads the systemd service a process runs in, and kernel threads', () => {
    const root = makeRoot({
      procs: [
        { pid: 694, ppid: 1, sid: 694, gpuFd: true, cgroup: '0::/system.slice/ollama.service\n' },
        { pid: 2, ppid: 0, comm: 'kthreadd', flags: 0x00208040, cmdline: [] },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list.find((p) => p.pid === 694)).toMatchObject({
      serviceUnit: 'ollama.service',
      orphaned: null,
      kernelThread: false,
    });
    const kroot = makeRoot({ procs: [{ pid: 694, ppid: 2, comm: 'kworker/0:1', flags: 0x00208040, cmdline: [] }] });
    expect(probeProcesses(createFileSystem(kroot), hogNvidia(), 4242, NOW).list[0]).toMatchObject({
      pid: 694,
      kernelThread: true,
    });
  });

  it('a listed PID whose process here has no /dev/nvidia* open, in a complete scan, is marked (M2); not when the scan is incomplete', () => {
    const dev = { '/dev/nvidia0': '', '/dev/nvidiactl': '' };
    const complete = makeRoot({ procs: [{ pid: 694, ppid: 1, comm: 'sleep' }], files: dev });
    const r = probeProcesses(createFileSystem(complete), hogNvidia(), 4242, NOW);
    expect(r.deviceScanComplete).toBe(true);
    expect(r.list[0]).toMatchObject({ pid: 694, visible: true, holdsDeviceFiles: false, gpuNotOpenHere: true });
    // a machine with no /dev/nvidia<N> at all: nothing could have it open, so its absence proves nothing
    const noNodes = makeRoot({ procs: [{ pid: 694, ppid: 1, comm: 'sleep' }] });
    expect(probeProcesses(createFileSystem(noNodes), hogNvidia(), 4242, NOW).list[0]!.gpuNotOpenHere).toBeUndefined();
    const partial = makeRoot({
      procs: [
        { pid: 694, ppid: 1, comm: 'sleep' },
        { pid: 900, ppid: 1, fdUnreadable: true },
      ],
      files: dev,
    });
    const q = probeProcesses(createFileSystem(partial), hogNvidia(), 4242, NOW);
    expect(q.deviceScanComplete).toBe(false);
    expect(q.list[0]!.gpuNotOpenHere).toBeUndefined();
    // a zombie has closed every file: the scan says nothing about it
    const zombie = makeRoot({ procs: [{ pid: 694, ppid: 1, state: 'Z' }], files: dev });
    expect(probeProcesses(createFileSystem(zombie), hogNvidia(), 4242, NOW).list[0]!.gpuNotOpenHere).toBeUndefined();
  });

  it('for a process old enough to be idle, whether its owner has a process with a terminal (is logged in)', () => {
    const root = makeRoot({
      bootTime: BOOT,
      procs: [
        { pid: 694, ppid: 1, uid: 1001, gpuFd: true, starttime: 7986 },
        { pid: 800, ppid: 1, uid: 1000, comm: 'bash', ttyNr: 34816 },
      ],
    });
    expect(probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW).list[0]).toMatchObject({
      uid: 1001,
      ownerHasTerminal: false,
    });
    fs.writeFileSync(path.join(root, 'proc/800/status'), 'Name:\tbash\nUid:\t1001\t1001\t1001\t1001\n');
    expect(probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW).list[0]).toMatchObject({
      ownerHasTerminal: true,
    });
    // a young process: not read
    expect(
      probeProcesses(createFileSystem(root), hogNvidia(), 4242, (BOOT + 79.86 + 60) * 1000).list[0]!.ownerHasTerminal,
    ).toBeUndefined();
  });

  it('a child of a live parent is not orphaned', () => {
    const root = makeRoot({
      procs: [
        { pid: 500, ppid: 1, comm: 'bash' },
        { pid: 694, ppid: 500, gpuFd: true },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list[0]).toMatchObject({ pid: 694, orphaned: false, parentName: 'bash' });
  });

  it('inside a container, pairs the host PID nvidia-smi reports with the local process that has the GPU open', () => {
    // The real capture: nvidia-smi said 694 while the hog was 637 in the container (hog/hog-1200.txt).
    const root = makeRoot({
      procs: [
        { pid: 637, ppid: 418, gpuFd: true },
        { pid: 418, ppid: 1, comm: 'bash' },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list).toHaveLength(1);
    expect(r.list[0]).toMatchObject({
      pid: 637,
      nvidiaSmiPid: 694,
      usedMiB: 142848,
      listedByNvidiaSmi: true,
      visible: true,
      orphaned: false,
    });
  });

  it('does not take an unrelated local process with the same PID for the GPU process', () => {
    const root = makeRoot({
      procs: [
        { pid: 694, ppid: 1, comm: 'sshd' },
        { pid: 637, ppid: 1, gpuFd: true },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    const gpuProc = r.list.find((p) => p.listedByNvidiaSmi);
    expect(gpuProc).toMatchObject({ pid: 637, nvidiaSmiPid: 694, name: 'python3' });
  });

  it('marks a listed PID that is not in this /proc as invisible, and leaves it unpaired when ambiguous', () => {
    const root = makeRoot({
      procs: [
        { pid: 10, ppid: 1, gpuFd: true },
        { pid: 11, ppid: 1, gpuFd: true },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list.find((p) => p.pid === 694)).toMatchObject({
      visible: false,
      listedByNvidiaSmi: true,
      usedMiB: 142848,
    });
    expect(r.list.filter((p) => !p.listedByNvidiaSmi).map((p) => p.pid)).toEqual([10, 11]);
  });

  it('recognises our own process and its ancestors', () => {
    const root = makeRoot({ selfPid: 694, procs: [] });
    fs.symlinkSync('/dev/nvidia0', path.join(root, 'proc/694/fd/11'));
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 694, NOW);
    expect(r.list[0]).toMatchObject({ pid: 694, isSelfOrAncestor: true });
  });

  it('reports a stopped and a zombie process state', () => {
    const root = makeRoot({
      procs: [
        { pid: 694, ppid: 1, state: 'T', gpuFd: true },
        { pid: 700, ppid: 1, state: 'Z', gpuFd: true },
      ],
    });
    const r = probeProcesses(createFileSystem(root), hogNvidia(), 4242, NOW);
    expect(r.list.map((p) => [p.pid, p.state])).toEqual([
      [694, 'stopped'],
      [700, 'zombie'],
    ]);
  });

  it('says so when /proc is not there', () => {
    const r = probeProcesses(createFileSystem(fs.mkdtempSync('/tmp/ged-empty-')), hogNvidia(), 1, NOW);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/proc/);
  });
});

describe('recent CPU use, sampled across the nvidia-smi call', () => {
  it('tells a working detached job from a leftover that only holds memory', async () => {
    const { sampleGpuProcessCpu } = await import('../../src/gather/procfs/processes.js');
    const { verdictOf } = await import('../../src/judge/procs/verdict.js');
    const { statLine } = await import('../helpers/fixture-root.js');
    const root = makeRoot({ procs: [{ pid: 694, ppid: 1, gpuFd: true, utime: 499 }] });
    const fsys = createFileSystem(root);
    const before = sampleGpuProcessCpu(fsys, 1000);
    // 200 ms later the process has used 15 ticks (150 ms) of CPU: 75% of a core
    fs.writeFileSync(path.join(root, 'proc/694/stat'), `${statLine({ pid: 694, ppid: 1, utime: 514 })}\n`);
    const busy = probeProcesses(fsys, hogNvidia(), 4242, NOW, before, 1200).list[0]!;
    expect(busy.recentCpuPercent).toBe(75);
    expect(verdictOf(busy, { pid: 4242, uid: 1000, user: 'alice', pidNamespace: null })).toBe('active');
    const idle = probeProcesses(fsys, hogNvidia(), 4242, NOW, sampleGpuProcessCpu(fsys, 1000), 1200).list[0]!;
    expect(idle.recentCpuPercent).toBe(0);
    expect(verdictOf(idle, { pid: 4242, uid: 1000, user: 'alice', pidNamespace: null })).toBe('orphaned');
    // a window too short to tell: no figure, and the verdict falls back to the parent alone
    expect(
      probeProcesses(fsys, hogNvidia(), 4242, NOW, sampleGpuProcessCpu(fsys, 1000), 1010).list[0]!.recentCpuPercent,
    ).toBeNull();
  });
});
