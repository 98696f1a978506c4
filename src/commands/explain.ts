// `gpu-env-doctor explain [FILE...|-]`: read an error log (files or standard input, any size), rank the root
// causes with their evidence and fixes. With the machine's facts unless --no-machine (--from uses saved ones).
import * as nodePath from 'node:path';
import { flag, str } from '../cli/args.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../core/errors.js';
import { explainStream, type ExplainInput } from '../explain/engine.js';
import { renderExplainMarkdown } from '../explain/render/markdown.js';
import { renderExplainTerminal } from '../explain/render/terminal.js';
import { createFileSystem, FsError, type FileSystem } from '../ports/fs.js';
import type { Snapshot } from '../snapshot/schema.js';
import { renderHtml } from '../reporters/html/render.js';
import { buildReportModel } from '../reporters/report-model.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor, shown as redacted } from './shared/redaction.js';

/** 1 MiB: big enough that the calls cost nothing, small enough to stay in the CPU's cache while it is scanned */
const CHUNK = 1024 * 1024;
/** progress on a terminal only for inputs this big */
const PROGRESS_MIN_BYTES = 64 * 1024 * 1024;

export const command: Command = {
  name: 'explain',
  summary: 'read an error log, rank the root causes with evidence and fixes',
  usage: `Usage: gpu-env-doctor explain FILE... | -   [--json | --markdown] [--html FILE] [--redact] [-v] [--no-machine | --from SNAPSHOT.json]
                                          [--framework tensorflow|pytorch|jax]

Reads the error output of a failed GPU job (a traceback, a training log of any size, several files, or
standard input with "-"), and prints the likely root causes, ranked, each with the lines that prove it and
the fix. Environment details pasted with the error (issue-template lines, collect_env output, the
nvidia-smi header, pip/conda lists) are read as evidence too.
By default the facts of this machine are combined with the log (who holds GPU memory now, the driver, the
GPUs); --no-machine judges the input alone, --from uses a saved snapshot.
Exit code 0: no cause found; 1: causes found; 2: usage error or unreadable input.`,
  options: { ...PROBE_OPTIONS, framework: { type: 'string' } },
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError('explain needs a log: give a FILE (or several), or "-" to read standard input');
    if (flag(args, 'no-machine') && str(args, 'from') !== undefined) throw new UsageError('--no-machine and --from contradict each other: choose one');
    const stdinCount = args.positionals.filter((p) => p === '-').length;
    if (stdinCount > 1) throw new UsageError('standard input ("-") can be read only once');
    if (stdinCount === 1 && str(args, 'from') === '-') throw new UsageError('standard input cannot be both the log and the --from snapshot');

    const userFs = createFileSystem('/');
    const inputs: ExplainInput[] = [];
    let totalSize = 0;
    for (const p of args.positionals) {
      if (p === '-') {
        inputs.push({ name: 'stdin', chunks: ctx.stdin as AsyncIterable<Uint8Array | string> });
        continue;
      }
      const abs = nodePath.resolve(ctx.cwd, p);
      const size = checkReadable(userFs, abs, p);
      totalSize += size;
      inputs.push({ name: p, chunks: fileChunks(userFs, abs, p, size) });
    }

    const format = str(args, 'format') ?? (flag(args, 'json') ? 'json' : flag(args, 'markdown') ? 'markdown' : 'text');
    if (!['json', 'markdown', 'text'].includes(format)) throw new UsageError(`unknown --format "${format}" (text, json or markdown)`);

    const snapshot = await machineFacts(ctx, args);
    const showProgress = ctx.stderr.isTTY && totalSize >= PROGRESS_MIN_BYTES && format !== 'json';
    const started = ctx.now();
    const diagnosis = await explainStream(inputs, {
      ...(snapshot ? { snapshot } : {}),
      ...(str(args, 'framework') ? { frameworkHint: str(args, 'framework')! } : {}),
      ...(showProgress
        ? { onProgress: (b: number) => ctx.stderr.write(`\rreading: ${Math.round((b / totalSize) * 100)}% of ${Math.round(totalSize / 1048576)} MiB (${Math.round(b / 1048576 / Math.max(0.001, (ctx.now() - started) / 1000))} MiB/s)`) }
        : {}),
    });
    if (showProgress) ctx.stderr.write('\r\x1b[K');
    if (diagnosis.input.bytes === 0) throw new UsageError(`the input is empty (${inputs.map((i) => i.name).join(', ')})`);

    // --redact rewrites the diagnosis and the facts before any renderer sees them: one set of placeholders.
    const redactor = redactorFor(ctx, args, { snapshot, diagnosis });
    const shown = redacted(redactor, diagnosis);
    const shownSnapshot = redacted(redactor, snapshot ?? null);
    const htmlPath = str(args, 'html');
    if (htmlPath !== undefined) {
      const model = buildReportModel({ kind: 'explain', generatedAt: new Date(ctx.now()).toISOString(), tool: { name: TOOL_NAME, version: TOOL_VERSION }, snapshot: shownSnapshot, diagnosis: shown });
      ctx.files.write(htmlPath, renderHtml(model));
    }
    if (format === 'json') ctx.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    else if (format === 'markdown') ctx.stdout.write(renderExplainMarkdown(shown));
    else ctx.stdout.write(renderExplainTerminal(shown, { color: ctx.color, verbose: flag(args, 'verbose'), width: terminalWidth(ctx) }));
    return diagnosis.causes.length > 0 ? 1 : 0;
  },
};

async function machineFacts(ctx: Context, args: Parameters<Command['run']>[1]): Promise<Snapshot | undefined> {
  if (flag(args, 'no-machine')) return undefined;
  if (str(args, 'from') !== undefined) return obtainSnapshot(ctx, args); // a bad --from is the user's error: exit 2
  try {
    return await obtainSnapshot(ctx, args);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    ctx.stderr.write(`gpu-env-doctor: could not read this machine's facts (${(err as Error).message.split('\n')[0]}); judging the log alone\n`);
    return undefined;
  }
}

/** size of a readable regular file, or a one-line UsageError */
function checkReadable(fs: FileSystem, abs: string, shown: string): number {
  try {
    const st = fs.stat(abs);
    if (st.type === 'dir') throw new UsageError(`${shown} is a directory, not a log file`);
    fs.openReader(abs).close(); // opens it: permission errors surface here, before any output (nothing read: a pipe keeps its bytes)
    return st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${shown}: ${describe(err)}`);
  }
}

/**
 * The file in chunks through one reused buffer (the reader copies what it keeps): also reads special files such
 * as pipes and /dev/stdin until they end.
 */
function* fileChunks(fs: FileSystem, abs: string, shown: string, _size: number): Generator<Uint8Array> {
  let reader: ReturnType<FileSystem['openReader']>;
  try {
    reader = fs.openReader(abs);
  } catch (err) {
    throw new UsageError(`cannot read ${shown}: ${describe(err)}`);
  }
  const buf = Buffer.allocUnsafe(CHUNK);
  let offset = 0;
  try {
    for (;;) {
      let n: number;
      try {
        n = reader.readInto(buf, offset);
      } catch (err) {
        throw new UsageError(`cannot read ${shown}: ${describe(err)}`);
      }
      if (n === 0) return;
      offset += n;
      yield buf.subarray(0, n);
    }
  } finally {
    reader.close();
  }
}

/** terminal width helper */
/** the terminal's width when stdout is one (evidence lines are cut to it), else the renderer's default */
function terminalWidth(ctx: Context): number | undefined {
  const cols = (ctx.stdout as { columns?: unknown }).columns;
  return typeof cols === 'number' && cols > 0 ? cols : undefined;
}

function describe(err: unknown): string {
  if (err instanceof FsError) {
    if (err.code === 'ENOENT') return 'no such file';
    if (err.code === 'EACCES') return 'permission denied';
    if (err.code === 'EISDIR') return 'is a directory';
    return err.message.split('\n')[0] ?? err.code;
  }
  return (err as Error).message?.split('\n')[0] ?? String(err);
}
