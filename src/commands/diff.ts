import { flag, str } from '../cli/args.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../core/errors.js';
import { diffSnapshots } from '../diff/compare.js';
import { renderDiffMarkdown, renderDiffTerminal } from '../diff/render.js';
import { parseSnapshotText } from '../snapshot/load.js';
import type { Snapshot } from '../snapshot/schema.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS, readStdin } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';

const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

export const command: Command = {
  name: 'diff',
  summary: 'what differs between two snapshots, ranked by impact',
  usage: `Usage: gpu-env-doctor diff A.json [B.json] [--all] [--json | --markdown] [--redact] [-v]

Compares two snapshots (saved with "gpu-env-doctor snapshot", or "check --json" outputs) fact by fact:
driver, CUDA, the cuDNN each framework loads, framework builds, nvidia-* wheels, conda packages, GPU
model and memory, environment variables. Differences are ranked by how likely they change what a GPU
job does. With one file, compares it with this machine (probed now). "-" reads a snapshot from stdin.
Noise (PIDs, timestamps, memory in use) is left out unless --all.
Exit code 0: no differences; 1: differences; 2: failure.`,
  options: { ...PROBE_OPTIONS, all: { type: 'boolean' } },
  async run(ctx, args) {
    const files = args.positionals;
    if (files.length === 0 || files.length > 2) throw new UsageError(`diff takes one or two snapshot files (got ${files.length}); see gpu-env-doctor diff --help`);
    if (files.filter((f) => f === '-').length > 1) throw new UsageError('only one of the two snapshots can come from standard input');
    if (str(args, 'from') !== undefined) throw new UsageError('diff takes the snapshots as arguments, not --from');
    const a = await load(ctx, files[0]!);
    const b = files[1] !== undefined ? await load(ctx, files[1]) : await obtainSnapshot(ctx, args);
    const labels = { a: label(files[0]!), b: files[1] !== undefined ? label(files[1]) : 'this machine' };
    const facts = diffSnapshots(a, b, labels, { all: flag(args, 'all') });
    // both machines' names and users are known to the redactor: one set of placeholders for the two sides
    const result = shown(redactorFor(ctx, args, { a, b, facts }), facts);
    const format = str(args, 'format') ?? (flag(args, 'json') ? 'json' : flag(args, 'markdown') ? 'markdown' : 'text');
    if (format === 'json') ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else if (format === 'markdown') ctx.stdout.write(renderDiffMarkdown(result));
    else if (format === 'text') ctx.stdout.write(renderDiffTerminal(result, { color: ctx.color, verbose: flag(args, 'verbose') }));
    else throw new UsageError(`unknown --format "${format}" for diff (text, json or markdown)`);
    return facts.differences.length > 0 ? 1 : 0;
  },
};

const label = (f: string) => (f === '-' ? 'standard input' : f);

async function load(ctx: Context, file: string): Promise<Snapshot> {
  const text = file === '-' ? await readStdin(ctx) : ctx.files.readText(file, MAX_SNAPSHOT_BYTES);
  return parseSnapshotText(text, label(file));
}
