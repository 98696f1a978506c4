// Combining the log with the machine's facts (a live snapshot, or --from): who holds GPU memory now,
// the driver and the CUDA it supports, the GPUs' compute capability, CUDA_VISIBLE_DEVICES.
// Live facts only strengthen or weaken causes the log already points at: a busy GPU does not explain
// a log that says nothing about memory.
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { fmtMiB } from '../../base/format.js';
import { assess, isStale } from '../procs/verdict.js';
import { holderFrameworkLabel, holderPolicy } from '../../gather/procfs/framework.js';
import { torchOomFigures } from './analyse/memory.js';
import { fmtBytes } from './analyse/sizes.js';
import type { Board } from './analyse/board.js';
import { compareVersions, smOfCc } from './knowledge-bridge.js';
import { smRunsOn } from './analyse/versions.js';
import type { EnvironmentFacts, LogEvidence } from './types.js';
import type { SignalState } from './collect.js';
import { Collector } from './collect.js';
import { t } from '../../base/i18n/index.js';

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
      for (const p of holders.slice(0, 5)) {
        const { verdict: v, reason, protectedBy } = assess(p, snap.self);
        const share = (p.usedMiB ?? 0) / totalMiB;
        const weight = share >= 0.2 ? (isStale(v) ? 2.0 : 1.4) : 0.4;
        const fw = holderFrameworkLabel(p);
        const gpuTotal = gpus.find((g) => g.index === p.gpus[0])?.memory.totalMiB ?? null;
        const policy = holderPolicy(p, gpuTotal);
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
      // another framework in the failed process (its own figures said so): the maps of a process that loads PyTorch
      // and a preallocating framework name which one holds the share, and its policy is the fix
      if (board.entries.get('framework_preallocation')?.hints.inProcess) {
        const both = snap.processes.list.find((p) => {
          const names = p.framework ? [p.framework.name, ...(p.framework.also ?? [])] : [];
          return names.includes('torch') && names.some((n) => n === 'jax' || n === 'tensorflow');
        });
        if (both?.framework) {
          const names = [both.framework.name, ...(both.framework.also ?? [])];
          const other = names.includes('jax') ? 'jax' : 'tensorflow';
          const text = t('why.m.inProcess', { pid: both.pid, fw: other === 'jax' ? 'JAX' : 'TensorFlow' });
          board.add('framework_preallocation', 0.8, text, [src(text)]);
          board.hint('framework_preallocation', 'inProcessFramework', other);
        }
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
