// Combining the log with the machine's facts (a live snapshot, or --from): who holds GPU memory now,
// the driver and the CUDA it supports, the GPUs' compute capability, CUDA_VISIBLE_DEVICES.
// Live facts only strengthen or weaken causes the log already points at: a busy GPU does not explain
// a log that says nothing about memory.
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { fmtMiB } from '../../base/format.js';
import { assess, isStale } from '../procs/verdict.js';
import { frameworkLabel, holderFrameworkLabel, holderPolicy } from '../../gather/procfs/framework.js';
import { CONTEXT_AND_HANDLES_BYTES, torchOomFigures, XLA_REQUEST_GROUPS, xlaRequest } from './analyse/memory.js';
import { fmtBytes, MiB, parseSize } from './analyse/sizes.js';
import type { Board } from './analyse/board.js';
import { compareVersions, smOfCc } from './knowledge-bridge.js';
import { smRunsOn } from './analyse/versions.js';
import type { EnvironmentFacts, LogEvidence } from './types.js';
import type { SignalState } from './collect.js';
import { Collector } from './collect.js';
import { t } from '../../base/i18n/index.js';

/** A holder no larger than a CUDA context with its library handles did not fill the GPU (as in analyse/memory.ts) */
const CONTEXT_MIB = CONTEXT_AND_HANDLES_BYTES / MiB;
/** The job's own processes hold at least this share of the GPU: what filled it is inside the job */
const JOB_HOLDS_SHARE = 0.25;
/** The frameworks that reserve a pool of the GPU up front (JAX's 75%, TensorFlow's nearly all) */
const PREALLOCATING: ReadonlySet<string> = new Set(['jax', 'tensorflow']);

const MEMORY_CAUSES = [
  'gpu_memory_exhausted',
  'memory_held_by_other_process',
  'framework_preallocation',
  'allocator_fragmentation',
] as const;

export function combineWithMachine(
  board: Board,
  snap: Snapshot,
  signals: Map<string, SignalState>,
  env: EnvironmentFacts,
): string[] {
  const notes: string[] = [];
  const src = (text: string): LogEvidence => ({ line: 0, text, source: 'machine' });
  const memoryInPlay = MEMORY_CAUSES.some((c) => board.score(c) > 0);

  if (snap.nvidia.ok) {
    const gpus = snap.nvidia.gpus;
    // who holds memory now (not this job or its parents)
    if (memoryInPlay) {
      const holders = snap.processes.list
        .filter((p) => !p.isSelfOrAncestor && (p.usedMiB ?? 0) > 0)
        .sort((a, b) => (b.usedMiB ?? 0) - (a.usedMiB ?? 0));
      const totalMiB = gpus.reduce((a, g) => a + g.memory.totalMiB, 0) || 1;
      // this job's own pool (XLA's preallocation) failed to take its first size: something held the GPU before it
      const ownPoolFailed = poolSteppedDown(signals);
      let competing = false;
      for (const p of holders.slice(0, 5)) {
        const { verdict: v, reason, protectedBy } = assess(p, snap.self);
        const share = (p.usedMiB ?? 0) / totalMiB;
        // a context's worth (another job starting, a monitor) is not what filled the GPU
        const weight = share >= 0.2 ? (isStale(v) ? 2.0 : 1.4) : (p.usedMiB ?? 0) <= CONTEXT_MIB ? 0 : 0.4;
        const fw = holderFrameworkLabel(p);
        const gpuTotal = gpus.find((g) => g.index === p.gpus[0])?.memory.totalMiB ?? null;
        const policy = holderPolicy(p, gpuTotal);
        // Two preallocating pools compete: the holder's memory is its framework's reserve (JAX, TensorFlow) and this
        // job's own preallocation failed beside it. The holder is then that preallocation, not a stray holder: its
        // weight goes to the preallocation, with the framework's setting as the fix.
        if (!competing && ownPoolFailed && share >= 0.2 && policy?.reserve && p.framework) {
          competing = true;
          const text = t('why.m.poolsCompete', {
            pid: p.pid,
            fw: fw ?? '',
            mib: fmtMiB(p.usedMiB),
            gpus: p.gpus.join(',') || '?',
            policy: policy.summary,
          });
          board.stated('framework_preallocation', weight + 1.0, text, [src(text)]);
          board.against('memory_held_by_other_process', 1.6, t('why.m.poolNotStray', { pid: p.pid }));
          if (!protectedBy) board.hint('memory_held_by_other_process', 'pid', String(p.pid));
          continue;
        }
        const text = t(
          fw ? (policy ? 'why.m.holderFwPolicy' : 'why.m.holderFw') : policy ? 'why.m.holderPolicy' : 'why.m.holder',
          {
            pid: p.pid,
            fw: fw ?? '',
            name: p.name ?? '?',
            user: p.user ?? p.uid ?? '?',
            mib: fmtMiB(p.usedMiB),
            gpus: p.gpus.join(',') || '?',
            reason,
            policy: policy?.summary ?? '',
          },
        );
        board.add('memory_held_by_other_process', weight, text, [src(text)]);
        // No `kill PID` to suggest for PID 1, a kernel thread, or a PID that is another namespace's here.
        if (!protectedBy) board.hint('memory_held_by_other_process', 'pid', String(p.pid));
        if (policy && share >= 0.2)
          board.hint('memory_held_by_other_process', 'holderRemedy', `PID ${p.pid} (${fw}): ${policy.remedy}`);
      }
      inJobProcess(board, snap, signals, totalMiB, src);
      // the machine at the failure (a snapshot taken while the job still lived, as `run` takes it): the job's own
      // processes held a large share and no other process more than a context: no other process filled the GPU
      const jobMiB = snap.processes.list.filter((p) => p.isSelfOrAncestor).reduce((a, p) => a + (p.usedMiB ?? 0), 0);
      if (
        snap.processes.ok &&
        jobMiB >= JOB_HOLDS_SHARE * totalMiB &&
        holders.every((p) => (p.usedMiB ?? 0) <= CONTEXT_MIB)
      ) {
        board.against(
          'memory_held_by_other_process',
          2.0,
          t('why.m.jobHoldsIt', { mib: fmtMiB(jobMiB), total: fmtMiB(totalMiB) }),
        );
      }
      // a request larger than every GPU here is the job itself, whatever others hold (the log did not state the
      // GPU's total, or analyse/memory.ts would have said it)
      const requested = requestOf(signals);
      const largestMiB = Math.max(...gpus.map((g) => g.memory.totalMiB));
      if (
        requested !== undefined &&
        largestMiB > 0 &&
        requested > largestMiB * MiB &&
        !env.gpus.some((g) => g.totalMiB !== undefined)
      ) {
        const text = t('why.m.tooLarge', { requested: fmtBytes(requested), total: fmtMiB(largestMiB) });
        board.stated('gpu_memory_exhausted', 2.2, text, [src(text)]);
        board.against('memory_held_by_other_process', 1.0, t('why.noRoomForLarger'));
      }
      // The arithmetic the user needs: would this job have fitted without the biggest holder?
      const fig = torchOomFigures(signals);
      const top = holders[0];
      if (fig && top && (top.usedMiB ?? 0) > 0) {
        const MiB = 1024 * 1024;
        const othersBytes = holders
          .slice(1)
          .filter((p) => p.gpus.some((g) => top.gpus.includes(g)))
          .reduce((a, p) => a + (p.usedMiB ?? 0) * MiB, 0);
        const need = fig.self + fig.requested + othersBytes;
        const fw = holderFrameworkLabel(top);
        const who = `PID ${top.pid}${fw ? ` (${fw}, ${fmtMiB(top.usedMiB)})` : ` (${fmtMiB(top.usedMiB)})`}`;
        const job =
          othersBytes > 0
            ? t('why.m.jobOthers', {
                self: fmtBytes(fig.self),
                requested: fmtBytes(fig.requested),
                others: fmtBytes(othersBytes),
              })
            : t('why.m.job', { self: fmtBytes(fig.self), requested: fmtBytes(fig.requested) });
        if (need <= fig.total) {
          const text = t('why.m.fitsLog', { who, job, total: fmtBytes(fig.total) });
          board.add('memory_held_by_other_process', 0.6, text, [src(text)]);
        } else {
          const text = t('why.m.notFitsLog', { who, job, total: fmtBytes(fig.total) });
          board.add('gpu_memory_exhausted', 0.6, text, [src(text)]);
        }
      }
      if (holders.length === 0 && snap.processes.ok) {
        const usedMiB = gpus.reduce((a, g) => a + g.memory.usedMiB, 0);
        if (usedMiB < totalMiB * 0.1)
          board.against('memory_held_by_other_process', 0.5, t('why.m.noneNow', { mib: fmtMiB(usedMiB) }));
      }
      notes.push(
        t('why.m.memNow', {
          list: gpus
            .map((g) =>
              t('why.m.memGpu', { gpu: g.index, used: fmtMiB(g.memory.usedMiB), total: fmtMiB(g.memory.totalMiB) }),
            )
            .join(t('list.semicolon')),
        }),
      );
    }
    // driver: the CUDA it supports vs the CUDA the log needs
    const driverCuda = snap.nvidia.cudaVersion;
    const need = env.buildCuda?.value;
    if (driverCuda && need && compareVersions(driverCuda, need) < 0) {
      const text = t('why.m.driverOld', { driver: snap.nvidia.driverVersion, cuda: driverCuda, need });
      board.add('driver_too_old', 1.5, text, [src(text)]);
    } else if (driverCuda && board.score('driver_too_old') > 0 && need) {
      board.against(
        'driver_too_old',
        0.6,
        t('why.m.driverEnough', { driver: snap.nvidia.driverVersion, cuda: driverCuda, need }),
      );
    }
    notes.push(t('why.m.driverNote', { driver: snap.nvidia.driverVersion, cuda: driverCuda ?? '?', n: gpus.length }));
    // architecture: the GPUs here against the archs the log says the build has
    const printed = signals.get('torch.supported_archs');
    const archs = printed ? (Collector.matches(printed)[0]!.values.archs ?? '').trim().split(/\s+/) : undefined;
    for (const g of gpus) {
      if (!g.computeCapability) continue;
      if (archs && archs.length > 0 && !smRunsOn(archs, g.computeCapability)) {
        const text = t('why.m.arch', {
          gpu: g.index,
          name: g.name,
          sm: smOfCc(g.computeCapability),
          archs: archs.join(' '),
        });
        board.add('gpu_arch_unsupported', 1.2, text, [src(text)]);
      }
    }
    // no device: CUDA_VISIBLE_DEVICES as the job saw it
    const cvd = snap.env.CUDA_VISIBLE_DEVICES;
    if (board.score('no_device_visible') > 0 && cvd !== undefined) {
      const ids = cvd
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = ids.length === 0 || ids.some((i) => /^\d+$/.test(i) && Number(i) >= gpus.length);
      if (bad) {
        const text = t('why.m.cvd', { cvd, n: gpus.length, max: gpus.length - 1 });
        board.add('no_device_visible', 1.5, text, [src(text)]);
      }
    }
  } else {
    const f = snap.nvidia.failure;
    notes.push(t('why.m.smiNote', { reason: f.reason, message: f.message }));
    if (f.reason === 'nvml-mismatch') {
      const text = t('why.m.smiReports', { message: f.message });
      board.add('hardware_or_driver_fault', 2.0, text, [src(text)]);
    } else if (f.reason === 'driver-not-loaded' || f.reason === 'not-installed') {
      if (board.score('no_device_visible') > 0 || board.score('driver_too_old') > 0) {
        const text = t('why.m.now', { message: f.message });
        board.add('no_device_visible', 1.2, text, [src(text)]);
      }
    }
  }
  return notes;
}

/**
 * Another framework in the failed job's own process. The job's process (marked as this job in a snapshot taken at
 * the failure, as `run` takes it; or, where the log's own figures already say another framework holds memory in it,
 * any process that maps the failing framework beside another) maps two frameworks, holds a large share of the GPU,
 * and the log says the failing framework itself had (nearly) none of it: the other framework's pool holds it. Its
 * policy is the fix (JAX's, TensorFlow's setting; PyTorch's or CuPy's cache).
 */
function inJobProcess(
  board: Board,
  snap: Snapshot,
  signals: Map<string, SignalState>,
  totalMiB: number,
  src: (text: string) => LogEvidence,
): void {
  const failing = failingFramework(signals);
  const statedInProcess = board.entries.get('framework_preallocation')?.hints.inProcess !== undefined;
  const namesOf = (p: Snapshot['processes']['list'][number]) =>
    p.framework ? [p.framework.name, ...(p.framework.also ?? [])] : [];
  const candidates = snap.processes.list
    .filter((p) => namesOf(p).length >= 2 && (p.isSelfOrAncestor || statedInProcess))
    .filter((p) => failing === null || namesOf(p).includes(failing))
    .sort((a, b) => Number(b.isSelfOrAncestor) - Number(a.isSelfOrAncestor) || (b.usedMiB ?? 0) - (a.usedMiB ?? 0));
  const job = candidates[0];
  if (!job) return;
  const names = namesOf(job);
  const others = names.filter((n) => n !== failing);
  const other = others.find((n) => PREALLOCATING.has(n)) ?? others[0];
  if (!other) return;
  if (statedInProcess) {
    // the log's figures stated it; the maps name which framework
    const text = t('why.m.inProcess', { pid: job.pid, fw: frameworkLabel(other) });
    board.add('framework_preallocation', 0.8, text, [src(text)]);
    board.hint('framework_preallocation', 'inProcessFramework', other);
    return;
  }
  const held = (job.usedMiB ?? 0) >= JOB_HOLDS_SHARE * totalMiB;
  if (!held || !failingHadLittle(signals)) return;
  const text = t('why.m.inJob', {
    pid: job.pid,
    fws: names.map(frameworkLabel).join(' + '),
    mib: fmtMiB(job.usedMiB),
    total: fmtMiB(totalMiB),
    failing: failing ? frameworkLabel(failing) : '?',
    other: frameworkLabel(other),
  });
  board.stated('framework_preallocation', 1.5, text, [src(text)]);
  board.hint('framework_preallocation', 'inProcessFramework', other);
  board.against('memory_held_by_other_process', 1.0, t('why.m.notOtherProcess', { pid: job.pid }));
}

/** the framework whose out-of-memory message the log carries (the one that failed), or null */
function failingFramework(signals: Map<string, SignalState>): string | null {
  if (signals.has('cupy.out_of_memory')) return 'cupy';
  if (signals.has('torch.oom.current') || signals.has('torch.oom.legacy') || signals.has('torch.oom.generic'))
    return 'torch';
  if (signals.has('xla.failed_to_allocate') || XLA_REQUEST_GROUPS.some((g) => signals.has(g))) return 'jax';
  return null;
}

/** XLA's preallocation asked for its fraction and stepped down ("Failed to allocate device memory of X" with
 *  shrinking sizes): the pool never got the size it first asked for */
function poolSteppedDown(signals: Map<string, SignalState>): boolean {
  const st = signals.get('xla.failed_to_allocate');
  if (!st) return false;
  const sizes = Collector.matches(st)
    .map((m) => Number(m.values.bytes ?? NaN))
    .filter(Number.isFinite);
  return sizes.length >= 2 && sizes[1]! < sizes[0]!;
}

/** the failing framework's own pool held (nearly) nothing: CuPy's "allocated so far" within a context, or XLA's
 *  pool that never got its first size */
function failingHadLittle(signals: Map<string, SignalState>): boolean {
  const cupy = signals.get('cupy.out_of_memory');
  if (cupy) {
    const soFar = parseSize(Collector.matches(cupy).at(-1)!.values.soFar);
    if (soFar !== undefined && soFar <= CONTEXT_AND_HANDLES_BYTES) return true;
  }
  return poolSteppedDown(signals);
}

/** the size the failed request asked for, from a message that does not state the GPU's total with it (PyTorch's
 *  does: analyse/memory.ts weighs its request against that total), or undefined */
function requestOf(signals: Map<string, SignalState>): number | undefined {
  const cupy = signals.get('cupy.out_of_memory');
  if (cupy) {
    const n = parseSize(/Out of memory allocating ([\d,]+) bytes/.exec(Collector.matches(cupy).at(-1)!.text)?.[1]);
    if (n !== undefined) return n;
  }
  return xlaRequest(signals);
}
