// The two nvidia-smi calls of the GPU probe, apart from their parsers, so that a command can start them before it
// loads the probes: nvidia-smi takes ~0.1 s on a datacenter GPU, mostly waiting on the driver, and `check` spends that
// time loading its code and reading files (src/commands/shared/obtain-snapshot.ts starts them, ./probe.ts reads
// their answers).
import { earlyStartOf, type ProcessRunner, type RunOptions, type RunResult } from '../../ports/runner.js';
import { QUERY_GPU_FIELDS } from './parse-query.js';

export const NVIDIA_SMI = 'nvidia-smi';
export const XML_ARGS = ['-q', '-x'] as const;
/** `nvidia-smi -L`: run only when a GPU has MIG on (./probe.ts), for the MIG devices' UUIDs */
export const LIST_ARGS = ['-L'] as const;
export const QUERY_ARGS = [`--query-gpu=${QUERY_GPU_FIELDS.join(',')}`, '--format=csv,noheader,nounits'] as const;

/** Far above a real answer (8 GPUs with thousands of processes is a few MiB), far below what hurts the parser. */
export const MAX_XML_BYTES = 16 * 1024 * 1024;
const MAX_QUERY_BYTES = 1024 * 1024;

/** Started nvidia-smi calls: when they started (performance.now(), for the probe's timing) and their results. */
export interface NvidiaRuns {
  startedAt: number;
  results: Promise<[xml: RunResult, query: RunResult]>;
}

/** The two calls check starts first, with their options: the same for a start from dist/cli.js (src/cli/early.ts). */
export function nvidiaCalls(timeoutMs: number): [string, readonly string[], RunOptions][] {
  // into files: nvidia-smi writes its answer in many small writes and would otherwise wait for our reads
  const opts = { timeoutMs, stdoutToFile: true };
  return [
    [NVIDIA_SMI, XML_ARGS, { ...opts, maxBytes: MAX_XML_BYTES }],
    [NVIDIA_SMI, QUERY_ARGS, { ...opts, maxBytes: MAX_QUERY_BYTES }],
  ];
}

export function startNvidiaSmi(runner: ProcessRunner, timeoutMs: number): NvidiaRuns {
  const now = performance.now();
  const [xml, query] = nvidiaCalls(timeoutMs).map(([command, args, options]) => runner.run(command, args, options));
  // a run the real runner took over from the executable's start counts from its own spawn
  const startedAt = earlyStartOf(xml!) ?? now;
  return { startedAt, results: Promise.all([xml!, query!]) };
}
