// The GPU & driver probe: `nvidia-smi -q -x` for nearly everything, `--query-gpu` for the compute capability.
import type { Gpu, Nvidia, ProbeFailure } from '../snapshot/schema.js';
import { describeFailure, type RunResult } from '../../ports/runner.js';
import type { ProbeEnv } from '../probe-env.js';
import { parseSmiXml } from './parse-xml.js';
import { parseQueryGpu } from './parse-query.js';
import { parseSmiList } from './parse-list.js';
import { LIST_ARGS, NVIDIA_SMI, startNvidiaSmi, type NvidiaRuns } from './run.js';

/** `started`: the calls, when the command started them already (./run.ts); else they are started here. */
export async function probeNvidia(penv: ProbeEnv, started?: NvidiaRuns): Promise<Nvidia> {
  const [xmlRun, queryRun] = await (started ?? startNvidiaSmi(penv.runner, penv.options.timeoutMs)).results;
  if (xmlRun.kind !== 'ok') return { ok: false, failure: classifyFailure(xmlRun) };
  let parsed;
  try {
    parsed = parseSmiXml(xmlRun.stdout);
  } catch (err) {
    // nvidia-smi sometimes prints its error on stdout with exit code 0 (old versions): classify that text too.
    const known = classifyText(xmlRun.stdout + xmlRun.stderr);
    return {
      ok: false,
      failure: known ?? {
        reason: 'unparseable',
        message: `nvidia-smi -q -x printed something that is not its XML (${(err as Error).message})`,
      },
    };
  }
  const rows = queryRun.kind === 'ok' ? parseQueryGpu(queryRun.stdout) : [];
  const gpus = parsed.gpus.map((g) => {
    const row = rows.find((r) => r.uuid === g.uuid) ?? rows.find((r) => r.busId === g.busId);
    return { ...g, computeCapability: row?.computeCapability ?? null };
  });
  return {
    ok: true,
    driverVersion: parsed.driverVersion,
    cudaVersion: parsed.cudaVersion,
    gpus: await withMig(penv, gpus),
  };
}

/** A GPU with MIG on: its MIG devices' UUIDs and profiles from `nvidia-smi -L` (a third call, on MIG machines only). */
async function withMig<G extends Omit<Gpu, 'computeCapability'>>(penv: ProbeEnv, gpus: G[]): Promise<G[]> {
  if (!gpus.some((g) => (g.migMode ?? '').toLowerCase() === 'enabled')) return gpus;
  const r = await penv.runner.run(NVIDIA_SMI, LIST_ARGS, { timeoutMs: penv.options.timeoutMs, maxBytes: 1024 * 1024 });
  if (r.kind !== 'ok') return gpus;
  return mergeMigList(gpus, parseSmiList(r.stdout));
}

/** The listed UUIDs and profiles joined to the XML's MIG devices: by GI/CI where the UUID says them, else by index. */
export function mergeMigList<G extends Omit<Gpu, 'computeCapability'>>(
  gpus: G[],
  listed: ReturnType<typeof parseSmiList>,
): G[] {
  return gpus.map((g) => {
    const rows = listed.get(g.uuid.toLowerCase());
    if (!rows || rows.length === 0) return g;
    const known = g.migDevices ?? [];
    const merged = rows.map((r) => {
      const d =
        r.gpuInstanceId !== null
          ? known.find((k) => k.gpuInstanceId === r.gpuInstanceId && k.computeInstanceId === r.computeInstanceId)
          : known.find((k) => k.index === r.index);
      return {
        index: d?.index ?? r.index,
        gpuInstanceId: d?.gpuInstanceId ?? r.gpuInstanceId,
        computeInstanceId: d?.computeInstanceId ?? r.computeInstanceId,
        profile: r.profile,
        uuid: r.uuid,
        memory: d?.memory ?? { totalMiB: null, usedMiB: null, freeMiB: null },
      };
    });
    const rest = known.filter((k) => !merged.some((m) => m.index === k.index));
    return { ...g, migDevices: [...merged, ...rest] };
  });
}

/** nvidia-smi's own words for the failures users meet, mapped to a reason. */
export function classifyText(out: string): ProbeFailure | null {
  const line = (re: RegExp) =>
    out
      .split('\n')
      .find((l) => re.test(l))
      ?.trim() ??
    out.trim().split('\n')[0] ??
    '';
  if (/Driver\/library version mismatch/i.test(out)) return { reason: 'nvml-mismatch', message: line(/mismatch/i) };
  if (/couldn't communicate with the NVIDIA driver/i.test(out))
    return { reason: 'driver-not-loaded', message: line(/communicate/i) };
  if (/No devices were found/i.test(out)) return { reason: 'failed', message: 'No devices were found' };
  if (/Failed to initialize NVML/i.test(out)) return { reason: 'failed', message: line(/NVML/i) };
  return null;
}

function classifyFailure(r: Exclude<RunResult, { kind: 'ok' }>): ProbeFailure {
  switch (r.kind) {
    case 'not-found':
      return { reason: 'not-installed', message: 'nvidia-smi was not found on PATH' };
    case 'permission':
      return { reason: 'permission', message: describeFailure(NVIDIA_SMI, r) };
    case 'timeout':
      return {
        reason: 'timeout',
        message:
          'nvidia-smi did not answer in time: the driver may be hung (a GPU fallen off the bus, or a stuck process ' +
          'in the kernel)',
      };
    case 'signal':
    case 'non-zero':
      return classifyText(`${r.stdout}\n${r.stderr}`) ?? { reason: 'failed', message: describeFailure(NVIDIA_SMI, r) };
  }
}
