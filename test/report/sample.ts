// A report built from the H200 hog capture (PID 694 holding 139.5 GiB, the conv.py out-of-memory log),
// with hostile text planted wherever a log, a process name or a message reaches the report.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Finding } from '../../src/judge/finding.js';
import { buildReportModel, type DiagnosisLike, type ReportModel, type RunRecord } from '../../src/report/model.js';
import type { MemoryTimeline } from '../../src/gather/nvidia/memory-timeline.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { FIXTURES } from '../helpers/fake-bin.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

export const UUID = 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7';
export const SERIAL = '1653924093097';
export const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '</svg><svg onload="window.__pwned = \'svg\'"><script>window.__pwned = "after-svg"</script>',
  '</textarea></title></style></pre><script>window.__pwned="closer"</script>',
  '\u001b[31mred ANSI text\u001b[0m and ``` backticks ```` inside',
  '<a href="javascript:window.__pwned=1">click</a> @someone #12 | pipe *bold* _em_',
];
export const HOSTILE_NAME = '<img src=x onerror=window.__pwned=9>';

export function hogSnapshot(): Snapshot {
  return {
    schemaVersion: 1,
    tool: { name: 'gpu-env-doctor', version: '0.1.0' },
    collectedAt: '2026-12-02T09:42:00.000Z',
    host: { name: 'gpu-node-17.example.com' },
    self: { pid: 4100, uid: 1001, user: 'alice', pidNamespace: 'pid:[4026531836]' },
    system: {
      os: 'Ubuntu 24.04.3 LTS',
      kernel: '6.8.0-88-generic',
      arch: 'x64',
      container: { kind: 'none', evidence: [] },
      wsl: false,
      kernelModule: {
        version: '580.159.04',
        line: 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04',
      },
      nvidiaDevices: ['/dev/nvidia0', '/dev/nvidiactl', '/dev/nvidia-uvm'],
      uptimeSeconds: 3600,
      clockTicks: 100,
    },
    nvidia: {
      ok: true,
      driverVersion: '580.159.04',
      cudaVersion: '13.0',
      gpus: [
        {
          index: 0,
          name: 'NVIDIA H200',
          uuid: UUID,
          busId: '00000000:00:06.0',
          serial: SERIAL,
          architecture: 'Hopper',
          computeCapability: '9.0',
          memory: { totalMiB: 143771, usedMiB: 142857, freeMiB: 914, reservedMiB: 0 },
          persistenceMode: 'Enabled',
          computeMode: 'Default',
          migMode: 'Disabled',
          ecc: { mode: 'Enabled', volatileUncorrected: 0, aggregateUncorrected: 0, volatileCorrected: 0 },
          retiredPages: { pendingRetirement: null, doubleBit: null, singleBit: null },
          remappedRows: { pending: 'No', failure: 'No', uncorrectable: 0 },
          processes: [
            { pid: 694, name: 'python3', usedMiB: 142848, type: 'C' },
            { pid: 5150, name: HOSTILE_NAME, usedMiB: 12, type: 'C' },
          ],
        },
      ],
    },
    processes: {
      ok: true,
      list: [
        {
          pid: 694,
          gpus: [0],
          usedMiB: 142848,
          listedByNvidiaSmi: true,
          visible: true,
          name: 'python3',
          cmdline: ['python3', '/home/bob/hog.py', '1200', '90'],
          uid: 1002,
          user: 'bob',
          state: 'sleeping',
          ppid: 1,
          orphaned: true,
          parentName: 'systemd',
          startedAt: 0,
          ageSeconds: 5400,
          cpuSeconds: 3.1,
          otherPidNamespace: false,
          holdsDeviceFiles: true,
          isSelfOrAncestor: false,
        },
      ],
    },
    env: {
      CUDA_VISIBLE_DEVICES: '0',
      LD_LIBRARY_PATH: '/home/alice/cuda/lib64:/usr/local/cuda/lib64',
      SSH_CONNECTION_HOST: '10.20.30.40',
    },
    probes: [{ id: 'nvidia-smi', ok: true, durationMs: 120 }],
  } as Snapshot;
}

export function hogFindings(): Finding[] {
  return [
    {
      check: 'memory.holders',
      severity: 'warn',
      status: 'warn',
      rootCause: 'memory_held_by_other_process',
      message: 'PID 694 (bob) holds 139.5 GiB on GPU 0: orphaned',
      evidence: [{ text: `PID 694 (bob) holds 139.5 GiB on GPU 0 ${HOSTILE[0]}`, source: 'nvidia-smi -q -x' }],
      affects: { pid: 694, gpu: 0 },
      fix: { text: 'End it if it is yours.', commands: [], manual: ['kill 694'] },
    },
    {
      check: 'memory.headroom',
      severity: 'error',
      status: 'fail',
      rootCause: 'gpu_memory_exhausted',
      message: `GPU 0: only 914 MiB free ${HOSTILE[1]}`,
      evidence: [],
    },
    {
      check: 'gpu.driver',
      severity: 'info',
      status: 'ok',
      rootCause: null,
      message: 'NVIDIA driver: ok',
      evidence: [],
    },
  ];
}

export function convLog(): string[] {
  const real = fs.readFileSync(path.join(FIXTURES, 'h200/logs/conv-keep1200-bs64.txt'), 'utf8').trimEnd().split('\n');
  return [...HOSTILE, ...real];
}

export function hogDiagnosis(logLines: string[]): DiagnosisLike {
  const oom = logLines.findIndex((l) => l.startsWith('torch.OutOfMemoryError'));
  return {
    causes: [
      {
        id: 'memory_held_by_other_process',
        confidence: 0.9,
        summary: `Process 637 held 138.62 GiB when the job asked for 784 MiB ${HOSTILE[2]}`,
        evidence: [{ line: oom + 1, text: logLines[oom] ?? '' }],
        fix: {
          text: 'End the process that holds the memory, or use another GPU.',
          commands: ['gpu-env-doctor procs'],
          manual: ['kill 637'],
        },
      },
      { id: 'gpu_memory_exhausted', confidence: 0.1, summary: 'The job itself may not fit.', evidence: [] },
    ],
  };
}

/** A timeline of `points` samples on GPU 0, the job failing at the end. */
export function hogTimeline(points: number): MemoryTimeline {
  const pts = Array.from({ length: points }, (_, i) => ({
    t: i * 500,
    usedMiB: 141000 + (i % 3) * 600,
    jobMiB: i === 0 ? null : 500 + i * 10,
  }));
  return {
    available: true,
    intervalMs: 500,
    gpus: [{ index: 0, uuid: UUID, totalMiB: 143771, peakUsedMiB: 142857, peakJobMiB: 896, points: pts }],
    processes: [
      {
        pid: 694,
        gpuUuid: UUID,
        peakMiB: 142848,
        lastMiB: 142848,
        firstSeen: 0,
        lastSeen: (points - 1) * 500,
        isJob: false,
      },
      {
        pid: 7001,
        gpuUuid: UUID,
        peakMiB: 896,
        lastMiB: 896,
        firstSeen: 500,
        lastSeen: (points - 1) * 500,
        isJob: true,
      },
    ],
    failureAt: (points - 1) * 500 + 120,
  };
}

export function hogRunModel(points = 12): ReportModel {
  const lines = convLog();
  const run: RunRecord = {
    argv: ['python3', 'test/fixtures/h200/conv.py', '0', '64', '`whoami`', '<b>'],
    exitText: 'exit code 1',
    exitCode: 1,
    failed: true,
    durationMs: (points - 1) * 500 + 150,
    timeline: hogTimeline(points),
    jobPids: [7001],
    totalLines: lines.length,
    droppedLines: 0,
  };
  return buildReportModel(wordsFor(getLang()), {
    kind: 'run',
    generatedAt: '2026-12-02T09:43:00.000Z',
    tool: { name: 'gpu-env-doctor', version: '0.1.0' },
    snapshot: hogSnapshot(),
    findings: hogFindings(),
    categoryOf: (id) => (id.startsWith('memory.') ? 'memory' : 'gpu'),
    diagnosis: hogDiagnosis(lines),
    run,
    log: { title: 'The output', lines: lines.map((text, i) => ({ n: i + 1, text, stream: 'stderr' as const })) },
  });
}
