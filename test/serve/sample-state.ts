// A shared server as `serve` sees it, for the model, render and screenshot tests: four GPUs of the real H200
// capture (test/fixtures/h200), a JAX job of this user that preallocated, another user's PyTorch job and its
// orphaned DataLoader worker, the real hog left by a crashed run, one free GPU, an hour of memory readings,
// and the real checks' findings on that snapshot.
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { parseSmiXml } from '../../src/gather/nvidia/parse-xml.js';
import type { HolderProcess, Snapshot } from '../../src/gather/snapshot/schema.js';
import { MemoryHistory } from '../../src/report/serve/history.js';
import type { LiveState } from '../../src/report/serve/model.js';
import { holder } from '../fix/helpers.js';
import { smiXml, uuidOf } from './helpers.js';

export const NOW = Date.parse('2026-12-02T14:00:00.000Z');

export const PROCS = {
  jax: holder({
    pid: 4242,
    gpus: [0],
    usedMiB: 107_800,
    name: 'python3',
    cmdline: ['python3', 'train_jax.py', '--steps', '100000'],
    uid: 1000,
    user: 'alice',
    ppid: 4200,
    orphaned: false,
    parentName: 'bash',
    ageSeconds: 2 * 3600 + 420,
    cpuSeconds: 8000,
    recentCpuPercent: 98,
    startTicks: 123456,
  }),
  torch: holder({
    pid: 5150,
    gpus: [1],
    usedMiB: 61_000,
    name: 'python',
    cmdline: ['python', 'train.py', '--batch-size', '64'],
    uid: 1001,
    user: 'bob',
    ppid: 5100,
    orphaned: false,
    parentName: 'bash',
    ageSeconds: 1800,
    cpuSeconds: 1700,
    recentCpuPercent: 100,
    startTicks: 223456,
  }),
  worker: holder({
    pid: 5161,
    gpus: [1],
    usedMiB: 2_050,
    name: 'pt_data_worker',
    cmdline: [
      'python',
      '-c',
      'from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7)',
      '--multiprocessing-fork',
    ],
    uid: 1001,
    user: 'bob',
    ppid: 1,
    orphaned: true,
    parentName: 'systemd',
    ageSeconds: 5400,
    cpuSeconds: 30,
    recentCpuPercent: 0,
    startTicks: 223460,
  }),
  hog: holder({ pid: 666, gpus: [2], usedMiB: 138_600, startTicks: 9000 }),
} satisfies Record<string, HolderProcess>;

export function sampleSnapshot(o: { frameworks?: boolean; hostile?: boolean } = {}): Snapshot {
  const list: HolderProcess[] = [PROCS.jax, PROCS.torch, PROCS.worker, PROCS.hog].map((p) => ({ ...p }));
  if (o.frameworks !== false) {
    // as the process probe reads them from /proc/PID/maps and /proc/PID/environ (the H200 holders' files)
    list[0]!.framework = { name: 'jax', evidence: ['jax_plugins/xla_cuda13/xla_cuda_plugin.so'], env: {} };
    list[1]!.framework = { name: 'torch', evidence: ['torch/lib/libtorch_cuda.so'], env: {} };
  } else for (const p of list) p.framework = null;
  if (o.hostile) list[0]!.cmdline = ['python3', '<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>'];
  const parsed = parseSmiXml(
    smiXml([
      { procs: [{ pid: 4242, usedMiB: 107_800 }] },
      {
        procs: [
          { pid: 5150, usedMiB: 61_000, name: 'python' },
          { pid: 5161, usedMiB: 2_050, name: 'python' },
        ],
      },
      { procs: [{ pid: 666, usedMiB: 138_600 }] },
      { procs: [] },
    ]),
  );
  return {
    schemaVersion: 1,
    tool: { name: 'gpu-env-doctor', version: 'test' },
    collectedAt: new Date(NOW).toISOString(),
    host: { name: 'gpu-node-17.example.com' },
    self: { pid: 777, uid: 1000, user: 'alice', pidNamespace: 'pid:[4026531836]' },
    system: {
      os: 'Ubuntu 24.04.3 LTS',
      kernel: '6.18.44',
      arch: 'x64',
      container: { kind: 'none', evidence: [] },
      wsl: false,
      kernelModule: null,
      nvidiaDevices: ['/dev/nvidia0', '/dev/nvidia1', '/dev/nvidia2', '/dev/nvidia3'],
      uptimeSeconds: 100000,
      clockTicks: 100,
    },
    nvidia: {
      ok: true,
      driverVersion: parsed.driverVersion,
      cudaVersion: parsed.cudaVersion,
      gpus: parsed.gpus.map((g) => ({ ...g, computeCapability: '9.0' })),
    },
    processes: { ok: true, list },
    env: {},
    probes: [],
  };
}

/** An hour of readings: GPU 0 jumps to 75% when the JAX job starts, GPU 1 climbs, GPU 2 full since the crash. */
export function sampleHistory(now = NOW): MemoryHistory {
  const h = new MemoryHistory();
  for (let t = now - 3600_000; t <= now; t += 5000) {
    const m = (now - t) / 60000; // minutes ago
    h.add(t, { uuid: gpuUuid(0), index: 0, usedMiB: m > 50 ? 0 : 107_800, totalMiB: 143771 });
    h.add(t, {
      uuid: gpuUuid(1),
      index: 1,
      usedMiB: m > 30 ? 0 : Math.min(63_050, 20_000 + (30 - m) * 4000),
      totalMiB: 143771,
    });
    if (m < 25 || m > 27)
      h.add(t, { uuid: gpuUuid(2), index: 2, usedMiB: m > 40 ? 90_000 : 138_600, totalMiB: 143771 });
    h.add(t, { uuid: gpuUuid(3), index: 3, usedMiB: m > 20 && m < 35 ? 30_000 : 0, totalMiB: 143771 });
  }
  return h;
}

function gpuUuid(i: number): string {
  return uuidOf(i);
}

export function sampleState(o: { frameworks?: boolean; hostile?: boolean; now?: number } = {}): LiveState {
  const now = o.now ?? NOW;
  const s = sampleSnapshot(o);
  return {
    host: s.host.name,
    now: now + 1500,
    intervalMs: 2000,
    good: { snapshot: s, at: now },
    latest: { snapshot: s, at: now },
    inFlightSince: null,
    hangAfterMs: 4000,
    failingSince: null,
    history: sampleHistory(now).snapshot(now),
    checks: {
      at: now - 20_000,
      findings: runChecks(ALL_CHECKS, s).flatMap((r) => r.findings),
      everyMs: 60_000,
      runningSince: null,
    },
  };
}
