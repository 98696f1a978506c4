// One live sample for `serve`: nvidia-smi (the same probe as `check`) and the processes holding the GPUs,
// joined with /proc, wrapped as a Snapshot so that procs' verdicts apply unchanged. It leaves out the slow
// parts of a full snapshot (Python environments, the library inventory: 0.3 s measured), which the checks
// loop collects once a minute instead; the machine's fixed facts (system, self, environment) come from there.
import { readTextOr } from '../../ports/fs.js';
import { probeNvidia } from '../../gather/nvidia/probe.js';
import { CLOCK_TICKS, probeProcesses, sampleGpuProcessCpu, type CpuSample } from '../../gather/procfs/processes.js';
import type { ProbeEnv } from '../../gather/probe-env.js';
import { probeEnv } from '../../gather/env.js';
import { probeSystem } from '../../gather/system.js';
import { probeSelf } from '../../gather/snapshot/collect.js';
import { SNAPSHOT_SCHEMA_VERSION, type Snapshot } from '../../gather/snapshot/schema.js';
import { TOOL_NAME, TOOL_VERSION } from '../../base/tool-version.js';

/** The facts that do not change from one sample to the next. */
export type BaseFacts = Pick<Snapshot, 'host' | 'self' | 'system' | 'env'>;

export function baseFacts(penv: ProbeEnv): BaseFacts {
  const host =
    (readTextOr(penv.fs, '/proc/sys/kernel/hostname') ?? readTextOr(penv.fs, '/etc/hostname') ?? 'unknown').trim() ||
    'unknown';
  return {
    host: { name: host },
    self: probeSelf(penv),
    system: probeSystem(penv.fs, penv.env, process.arch),
    env: probeEnv(penv.env),
  };
}

export interface PreviousSample {
  snapshot: Snapshot;
  /** performance.now() when its processes were read */
  perfAt: number;
}

/**
 * Takes one sample. The CPU use of each GPU process is measured between the previous sample and this one
 * (a whole interval, a better window than the 0.1 s of a one-off probe), from the CPU times the previous
 * sample already read; the first sample measures across its own nvidia-smi call, as `check` does.
 */
export async function takeSample(
  penv: ProbeEnv,
  base: BaseFacts,
  prev: PreviousSample | null,
): Promise<PreviousSample> {
  const t0 = performance.now();
  const before: CpuSample = prev ? cpuFrom(prev) : sampleGpuProcessCpu(penv.fs, t0);
  const nvidia = await probeNvidia(penv);
  const t1 = performance.now();
  const processes = probeProcesses(penv.fs, nvidia, penv.pid, penv.now(), before, t1);
  const snapshot: Snapshot = {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    collectedAt: new Date(penv.now()).toISOString(),
    ...base,
    nvidia,
    processes,
    probes: [
      {
        id: 'nvidia-smi',
        ok: nvidia.ok,
        durationMs: Math.round((t1 - t0) * 10) / 10,
        ...(nvidia.ok ? {} : { message: nvidia.failure.message }),
      },
    ],
  };
  return { snapshot, perfAt: t1 };
}

function cpuFrom(prev: PreviousSample): CpuSample {
  const ticks = new Map<number, number>();
  for (const p of prev.snapshot.processes.list)
    if (p.cpuSeconds !== null) ticks.set(p.pid, Math.round(p.cpuSeconds * CLOCK_TICKS));
  return { atMs: prev.perfAt, ticks };
}
