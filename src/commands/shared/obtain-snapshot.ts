// The snapshot a command judges: the saved one from --from, or this machine's, probed now. Both halves are
// loaded on demand: reading a snapshot back needs the schema validator, probing needs the probes.
import { flag, str, strs, type ParsedArgs } from '../../cli/args.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { DEFAULT_PROBE_OPTIONS, type DeepMode, type ProbeOptions } from '../../probes/probe-env.js';
import type { Snapshot } from '../../snapshot/schema.js';

const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

/** `scope`: 'libraries' collects only what `libs` shows (src/snapshot/collect.ts). */
export async function obtainSnapshot(ctx: Context, args: ParsedArgs, extra: Partial<ProbeOptions> = {}, scope: 'all' | 'libraries' = 'all'): Promise<Snapshot> {
  const from = str(args, 'from');
  if (from !== undefined) {
    const text = from === '-' ? await readStdin(ctx) : ctx.files.readText(from, MAX_SNAPSHOT_BYTES);
    const { parseSnapshotText } = await import('../../snapshot/load.js');
    return parseSnapshotText(text, from === '-' ? 'standard input' : from);
  }
  const timeout = str(args, 'timeout');
  const timeoutMs = timeout === undefined ? DEFAULT_PROBE_OPTIONS.timeoutMs : Number(timeout) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a number of seconds, not "${timeout}"`);
  const { collectSnapshot } = await import('../../snapshot/collect.js');
  return collectSnapshot({
    fs: ctx.fs,
    runner: ctx.runner,
    env: ctx.env,
    now: ctx.now,
    pid: ctx.pid,
    options: {
      ...DEFAULT_PROBE_OPTIONS,
      timeoutMs,
      deep: deepMode(args),
      pythons: strs(args, 'python'),
      allEnvs: flag(args, 'all-envs'),
      ...extra,
    },
  }, scope);
}

export async function readStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** `--deep` (the native cuDNN smoke test), `--deep=frameworks` (also the framework imports), or neither. */
export function deepMode(args: ParsedArgs): DeepMode {
  const v = str(args, 'deep');
  if (v === undefined) return 'off';
  if (v === 'native' || v === 'frameworks') return v;
  throw new UsageError(`--deep takes no value or "frameworks" (got "${v}")`);
}

/** Options of the commands that probe the machine. */
export const PROBE_OPTIONS = {
  timeout: { type: 'string' },
  deep: { type: 'string' },
  python: { type: 'string', multiple: true },
  'all-envs': { type: 'boolean' },
} as const;
