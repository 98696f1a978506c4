// The snapshot a command judges: the saved one from --from, or this machine's, probed now. Both halves are
// loaded on demand: reading a snapshot back needs the schema validator, probing needs the probes.
import * as nodePath from 'node:path';
import { flag, str, strs, type ParsedArgs } from '../../cli/args.js';
import type { Context } from '../../ports/context.js';
import { UsageError } from '../../base/errors.js';
import { DEFAULT_PROBE_OPTIONS, type DeepMode, type ProbeOptions } from '../../gather/probe-env.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { reportSource, type ReportSource } from '../../report/provenance.js';
import { startNvidiaSmi, type NvidiaRuns } from '../../gather/nvidia/run.js';
import type { WhileWaiting } from '../../gather/snapshot/collect.js';
import { startLibrariesWorker, type LibrariesEarly } from '../../gather/libraries/libraries-job.js';
import { realRunner } from '../../ports/runner.js';
import type { Words } from '../../base/i18n/words.js';
import { t } from '../../base/i18n/index.js';

/** What --from reads at most (as fleet): a snapshot is ~100 KB, one with 20,000 GPU processes ~15 MB. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/** The snapshot, and where it came from (for the report's header). */
export async function obtainSnapshotWithSource(
  words: Words,
  ctx: Context,
  args: ParsedArgs,
  extra: Partial<ProbeOptions> = {},
  scope: 'all' | 'libraries' = 'all',
  started?: NvidiaRuns,
  whileWaiting?: WhileWaiting,
): Promise<{ snapshot: Snapshot; source: ReportSource }> {
  const snapshot = await obtainSnapshot(ctx, args, extra, scope, started, whileWaiting);
  return { snapshot, source: reportSource(words, snapshot, str(args, 'from') ?? null, ctx.now()) };
}

/**
 * nvidia-smi started before the command loads the rest of its code (~0.1 s on a datacenter GPU, waiting on the
 * driver): undefined where the machine is not probed (--from) or --timeout is not a valid value (obtainSnapshot
 * says why). The command passes it on to obtainSnapshot.
 */
export function startNvidiaEarly(ctx: Context, args: ParsedArgs): NvidiaRuns | undefined {
  if (str(args, 'from') !== undefined) return undefined;
  const timeoutMs = timeoutOf(args);
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) return undefined;
  const runs = startNvidiaSmi(ctx.runner, timeoutMs);
  const libraries = startLibrariesEarly(ctx, args, timeoutMs);
  if (libraries) librariesStarted.set(runs, libraries);
  return runs;
}

/** The library scan started beside nvidia-smi, with the options it was started for (JSON). */
const librariesStarted = new WeakMap<NvidiaRuns, { early: LibrariesEarly; options: string }>();

/**
 * The library scan in a worker thread, started with nvidia-smi (src/gather/libraries/libraries-job.ts): only with
 * the real ports, since the worker reads the machine itself, not through the ports it was given. Options that do
 * not parse start none (obtainSnapshot says why).
 */
function startLibrariesEarly(
  ctx: Context,
  args: ParsedArgs,
  timeoutMs: number,
): { early: LibrariesEarly; options: string } | undefined {
  if (ctx.runner !== realRunner) return undefined;
  let options: ProbeOptions;
  try {
    options = probeOptions(args, timeoutMs, {});
  } catch {
    return undefined;
  }
  // the scan waits for no program but `ldconfig -p` where there is no ld cache; past its limit the main thread scans
  const job = { root: ctx.fs.root, env: { ...ctx.env }, options };
  const early = startLibrariesWorker(job, timeoutMs + 2000, ctx.fs);
  return early ? { early, options: JSON.stringify(options) } : undefined;
}

function probeOptions(args: ParsedArgs, timeoutMs: number, extra: Partial<ProbeOptions>): ProbeOptions {
  return {
    ...DEFAULT_PROBE_OPTIONS,
    timeoutMs,
    deep: deepMode(args),
    pythons: strs(args, 'python'),
    allEnvs: flag(args, 'all-envs'),
    ...extra,
  };
}

function timeoutOf(args: ParsedArgs): number {
  const timeout = str(args, 'timeout');
  return timeout === undefined ? DEFAULT_PROBE_OPTIONS.timeoutMs : Number(timeout) * 1000;
}

/**
 * `scope`: 'libraries' collects only what `libs` shows (src/gather/snapshot/collect.ts). `started`: the nvidia-smi
 * calls startNvidiaEarly began (with the same --timeout). `whileWaiting`: the command's work on the snapshot so
 * far while nvidia-smi works (collect.ts).
 */
export async function obtainSnapshot(
  ctx: Context,
  args: ParsedArgs,
  extra: Partial<ProbeOptions> = {},
  scope: 'all' | 'libraries' = 'all',
  started?: NvidiaRuns,
  whileWaiting?: WhileWaiting,
): Promise<Snapshot> {
  const from = str(args, 'from');
  if (from !== undefined) {
    const text = from === '-' ? await readStdin(ctx, MAX_SNAPSHOT_BYTES) : ctx.files.readText(from, MAX_SNAPSHOT_BYTES);
    const { parseSnapshotText } = await import('../../gather/snapshot/load.js');
    return parseSnapshotText(text, from === '-' ? 'standard input' : from);
  }
  const timeout = str(args, 'timeout');
  const timeoutMs = timeoutOf(args);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError(t('usage.timeout', { value: timeout }));
  for (const p of strs(args, 'python')) {
    // an interpreter or an environment folder, on the machine (under --root when given)
    const machinePath = p.startsWith('/') || ctx.fs.root !== '/' ? p : nodePath.resolve(ctx.cwd, p);
    if (!ctx.fs.exists(machinePath))
      throw new UsageError(
        ctx.fs.root !== '/' ? t('usage.pythonRoot', { path: p, root: ctx.fs.root }) : t('usage.python', { path: p }),
      );
  }
  const options = probeOptions(args, timeoutMs, extra);
  // --deep=frameworks imports every framework and runs a convolution: seconds, not milliseconds. Say so on a terminal.
  const progress = options.deep === 'frameworks' && ctx.stderr.isTTY;
  if (progress)
    ctx.stderr.write(
      'gpu-env-doctor: --deep=frameworks: importing each framework and running a small convolution (a few seconds)…',
    );
  // nvidia-smi first (~0.1 s on a datacenter GPU, waiting on the driver), then the probes' code is loaded while it
  // works
  const nvidiaStarted = scope === 'all' ? (started ?? startNvidiaSmi(ctx.runner, options.timeoutMs)) : undefined;
  // the scan started with it, when it was started for these very options (else it is not used: the scan runs here)
  const early = started ? librariesStarted.get(started) : undefined;
  if (early && (scope !== 'all' || early.options !== JSON.stringify(options))) early.early.worker?.stop();
  const librariesEarly =
    early && scope === 'all' && early.options === JSON.stringify(options) ? early.early : undefined;
  const { collectSnapshot } = await import('../../gather/snapshot/collect.js');
  try {
    return await collectSnapshot(
      {
        fs: ctx.fs,
        runner: ctx.runner,
        env: ctx.env,
        now: ctx.now,
        pid: ctx.pid,
        options,
        // said before anything is run on the caller's behalf (which interpreters --all-envs --deep starts)
        announce: (line) => ctx.stderr.write(`${progress ? '\r\x1b[K' : ''}gpu-env-doctor: ${line}\n`),
      },
      scope,
      nvidiaStarted,
      whileWaiting,
      librariesEarly,
    );
  } finally {
    if (progress) ctx.stderr.write('\r\x1b[K');
  }
}

/** All of standard input as text; a one-line UsageError as soon as it passes maxBytes (`< /dev/zero` ends). */
export async function readStdin(ctx: Context, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += b.length;
    if (total > maxBytes) throw new UsageError(t('usage.stdinTooLarge', { max: maxBytes }));
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `--deep` (the native cuDNN smoke test), `--deep=frameworks` (also the framework imports), or neither. */
export function deepMode(args: ParsedArgs): DeepMode {
  const v = str(args, 'deep');
  if (v === undefined) return 'off';
  if (v === 'native' || v === 'frameworks') return v;
  throw new UsageError(t('usage.deep', { value: v }));
}
