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
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';

const CHUNK = 4 * 1024 * 1024;
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
    // (The redactor is loaded only with --redact: a plain explain starts faster.)
    const redaction = flag(args, 'redact') ? await import('./shared/redaction.js') : null;
    const redactor = redaction ? redaction.redactorFor(ctx, args, { snapshot, diagnosis }) : null;
    const shown = redaction ? redaction.shown(redactor, diagnosis) : diagnosis;
    const shownSnapshot = redaction ? redaction.shown(redactor, snapshot ?? null) : (snapshot ?? null);
    // (The HTML report is loaded only when asked for: a plain explain starts faster.)
    const htmlPath = str(args, 'html');
    if (htmlPath !== undefined) {
      const [{ buildReportModel }, { renderHtml }] = await Promise.all([import('../reporters/report-model.js'), import('../reporters/html/render.js')]);
      const model = buildReportModel({ kind: 'explain', generatedAt: new Date(ctx.now()).toISOString(), tool: { name: TOOL_NAME, version: TOOL_VERSION }, snapshot: shownSnapshot, diagnosis: shown });
      ctx.files.write(htmlPath, renderHtml(model));
    }
    if (format === 'json') ctx.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    else if (format === 'markdown') ctx.stdout.write(renderExplainMarkdown(shown));
    else ctx.stdout.write(renderExplainTerminal(shown, { color: ctx.color, verbose: flag(args, 'verbose') }));
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
    fs.readBytes(abs, 0, 1); // opens it: permission errors surface here, before any output
    return st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${shown}: ${describe(err)}`);
  }
}

/** The file in 4 MiB chunks (also reads special files such as pipes and /dev/stdin until they end). */
function* fileChunks(fs: FileSystem, abs: string, shown: string, size: number): Generator<Uint8Array> {
  let offset = 0;
  for (;;) {
    let buf: Buffer;
    try {
      buf = fs.readBytes(abs, offset, CHUNK);
    } catch (err) {
      throw new UsageError(`cannot read ${shown}: ${describe(err)}`);
    }
    if (buf.length === 0) return;
    offset += buf.length;
    yield buf;
    if (size > 0 && offset >= size && buf.length < CHUNK) return;
  }
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
