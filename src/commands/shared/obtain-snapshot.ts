// The snapshot a command judges: the saved one from --from, or this machine's, probed now.
import * as nodePath from 'node:path';
import { flag, str, strs, type ParsedArgs } from '../../cli/args.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeOptions } from '../../probes/probe-env.js';
import { collectSnapshot } from '../../snapshot/collect.js';
import { parseSnapshotText } from '../../snapshot/load.js';
import type { Snapshot } from '../../snapshot/schema.js';
import { reportSource, type ReportSource } from '../../reporters/provenance.js';

/** What --from reads at most (as fleet): a snapshot is ~100 KB, one with 20,000 GPU processes ~15 MB. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/** The snapshot, and where it came from (for the report's header). */
export async function obtainSnapshotWithSource(ctx: Context, args: ParsedArgs, extra: Partial<ProbeOptions> = {}): Promise<{ snapshot: Snapshot; source: ReportSource }> {
  const snapshot = await obtainSnapshot(ctx, args, extra);
  return { snapshot, source: reportSource(snapshot, str(args, 'from') ?? null, ctx.now()) };
}

export async function obtainSnapshot(ctx: Context, args: ParsedArgs, extra: Partial<ProbeOptions> = {}): Promise<Snapshot> {
  const from = str(args, 'from');
  if (from !== undefined) {
    const text = from === '-' ? await readStdin(ctx, MAX_SNAPSHOT_BYTES) : ctx.files.readText(from, MAX_SNAPSHOT_BYTES);
    return parseSnapshotText(text, from === '-' ? 'standard input' : from);
  }
  const timeout = str(args, 'timeout');
  const timeoutMs = timeout === undefined ? DEFAULT_PROBE_OPTIONS.timeoutMs : Number(timeout) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a number of seconds greater than 0, not "${timeout}"`);
  for (const p of strs(args, 'python')) {
    // an interpreter or an environment folder, on the machine (under --root when given)
    const machinePath = p.startsWith('/') || ctx.fs.root !== '/' ? p : nodePath.resolve(ctx.cwd, p);
    if (!ctx.fs.exists(machinePath)) throw new UsageError(`--python ${p}: no such file or folder${ctx.fs.root !== '/' ? ` under --root ${ctx.fs.root}` : ''}`);
  }
  const deep = flag(args, 'deep');
  // --deep imports every framework and runs a convolution: seconds, not milliseconds. Say so on a terminal.
  const progress = deep && ctx.stderr.isTTY;
  if (progress) ctx.stderr.write('gpu-env-doctor: --deep: importing each framework and running a small convolution (a few seconds)…');
  try {
    return await collect();
  } finally {
    if (progress) ctx.stderr.write('\r\x1b[K');
  }
  function collect() {
    return collectSnapshot({
    fs: ctx.fs,
    runner: ctx.runner,
    env: ctx.env,
    now: ctx.now,
    pid: ctx.pid,
    options: {
      ...DEFAULT_PROBE_OPTIONS,
      timeoutMs,
      deep,
      pythons: strs(args, 'python'),
      allEnvs: flag(args, 'all-envs'),
      ...extra,
    },
  });
  }
}

/** All of standard input as text; a one-line UsageError as soon as it passes maxBytes (`< /dev/zero` ends). */
export async function readStdin(ctx: Context, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += b.length;
    if (total > maxBytes) throw new UsageError(`standard input is too large (more than ${maxBytes} bytes)`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Options of the commands that probe the machine. */
export const PROBE_OPTIONS = {
  timeout: { type: 'string' },
  deep: { type: 'boolean' },
  python: { type: 'string', multiple: true },
  'all-envs': { type: 'boolean' },
} as const;
