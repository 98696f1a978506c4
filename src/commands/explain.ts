// `gpu-env-doctor explain [FILE...|-]`: read an error log (files or standard input, any size), rank the root
// causes with their evidence and fixes. With the machine's facts unless --no-machine (--from uses saved ones).
import * as nodePath from 'node:path';
import { flag, outputFormat, str } from '../cli/args.js';
import type { Context } from '../ports/context.js';
import { UsageError } from '../base/errors.js';
import { explainStream, type ExplainInput } from '../judge/explain/engine.js';
import { answerJson, answerOf } from '../report/views/explain/answer.js';
import { createFileSystem, type FileReader, type FileSystem } from '../ports/fs.js';
import { osReason } from '../ports/os-reason.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import type { Command } from '../cli/registry.js';
import { optionSpec } from '../cli/options.js';
import { visibleLine } from '../report/escape.js';
import { headerLines, reportSource } from '../report/provenance.js';
import { fillPlaceholders } from '../report/finding-lines.js';
import { joinList, t } from '../base/i18n/index.js';

/** 1 MiB: big enough that the calls cost nothing, small enough to stay in the CPU's cache while it is scanned */
const CHUNK = 1024 * 1024;
/** progress on a terminal only for inputs this big */
const PROGRESS_MIN_BYTES = 64 * 1024 * 1024;

export const command: Command = {
  name: 'explain',
  get summary() {
    return t('cmd.explain.summary');
  },
  synopsis: 'explain [FILE...|-] [OPTIONS]',
  get description() {
    return t('cmd.explain.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor explain train.log', t('cmd.explain.example1')],
      ['python train.py 2>&1 | tail -200 | gpu-env-doctor explain', t('cmd.explain.example2')],
      ['gpu-env-doctor explain -', t('cmd.explain.example3')],
      ['gpu-env-doctor explain slurm-1234.out --from node7.json', t('cmd.explain.example4')],
    ];
  },
  get exitCodes() {
    return t('cmd.explain.exitCodes');
  },
  options: optionSpec('explain'),
  async run(ctx, args, words) {
    // standard input is asked about only when it may be read (process.stdin builds a stream: ~2 ms of a start)
    const stdinIsTTY =
      args.positionals.length === 0 || args.positionals.includes('-')
        ? Boolean((ctx.stdin as { isTTY?: boolean }).isTTY)
        : false;
    // `cat log | gpu-env-doctor explain`: a piped standard input is the log, as with jq and rg.
    const positionals = args.positionals.length === 0 && !stdinIsTTY ? ['-'] : args.positionals;
    if (positionals.length === 0) throw new UsageError(t('usage.explain.needsLog'));
    const framework = str(args, 'framework');
    if (framework !== undefined && !FRAMEWORK_NAMES.includes(framework.toLowerCase()))
      throw new UsageError(t('usage.explain.framework', { value: framework }));
    if (flag(args, 'no-machine') && str(args, 'from') !== undefined)
      throw new UsageError(t('usage.explain.noMachineFrom'));
    const stdinCount = positionals.filter((p) => p === '-').length;
    if (stdinCount > 1) throw new UsageError(t('usage.explain.stdinOnce'));
    if (stdinCount === 1 && str(args, 'from') === '-') throw new UsageError(t('usage.explain.stdinBoth'));

    const userFs = createFileSystem('/');
    const inputs: ExplainInput[] = [];
    let totalSize = 0;
    const format = outputFormat(args, ['text', 'json', 'markdown']);
    for (const p of positionals) {
      if (p === '-') {
        if (stdinIsTTY)
          ctx.stderr.write(`${TOOL_NAME}: paste the error output, then press Ctrl-D on a line of its own\n`);
        inputs.push({ name: 'stdin', chunks: ctx.stdin as AsyncIterable<Uint8Array | string> });
        continue;
      }
      const abs = nodePath.resolve(ctx.cwd, p);
      // A file name is shown as text: a control character in it is made visible, never sent to the terminal.
      const shown = visibleLine(p);
      const { reader, regular } = openReadable(userFs, abs, shown);
      // Only a regular file is sniffed (a positional read of its head): a pipe's bytes are read once, in order.
      const kind = regular ? sniff(reader, shown) : 'log';
      totalSize += reader.size;
      inputs.push({
        name: shown,
        chunks: kind === 'gzip' ? gunzip(fileChunks(reader, shown), shown) : fileChunks(reader, shown),
        // a regular file's ranges can be read apart (a big one's first pass over threads); a pipe's cannot
        ...(regular && kind === 'log' ? { file: { path: abs, reader, sizeNow: () => sizeNow(userFs, abs) } } : {}),
      });
    }

    const snapshot = await machineFacts(ctx, args);
    const showProgress = ctx.stderr.isTTY && totalSize >= PROGRESS_MIN_BYTES && format !== 'json';
    const started = ctx.now();
    const diagnosis = await explainStream(inputs, {
      ...(snapshot ? { snapshot } : {}),
      ...(framework ? { frameworkHint: framework } : {}),
      ...(showProgress
        ? {
            onProgress: (b: number) =>
              ctx.stderr.write(
                `\rreading: ${Math.round((b / totalSize) * 100)}% of ${Math.round(totalSize / 1048576)} MiB ` +
                  `(${Math.round(b / 1048576 / Math.max(0.001, (ctx.now() - started) / 1000))} MiB/s)`,
              ),
          }
        : {}),
    });
    if (showProgress) ctx.stderr.write('\r\x1b[K');
    if (diagnosis.input.bytes === 0)
      throw new UsageError(t('explain.err.empty', { inputs: inputs.map((i) => i.name).join(', ') }));

    // --redact rewrites the diagnosis and the facts before any renderer sees them: one set of placeholders.
    // Placeholders of the fixes (the index of an idle GPU) filled with what the machine says, then redacted.
    const filled = snapshot ? fillDiagnosis(diagnosis, snapshot) : diagnosis;
    // (The redactor is loaded only with --redact: a plain explain starts faster.)
    const redaction = flag(args, 'redact') ? await import('./shared/redaction.js') : null;
    const redactor = redaction ? redaction.redactorFor(ctx, args, { snapshot, diagnosis: filled }) : null;
    const shown = redaction ? redaction.shown(redactor, filled) : filled;
    const shownSnapshot = redaction ? redaction.shown(redactor, snapshot ?? null) : (snapshot ?? null);
    const shownText = (t: string) => (redaction ? redaction.shownText(redactor, t) : t);
    // facts from a saved snapshot: which file, which host, how old, as every other command says it
    const fromFile = str(args, 'from');
    const source = snapshot && fromFile !== undefined ? reportSource(words, snapshot, fromFile, ctx.now()) : null;
    const head = source ? headerLines(words, 'explain', source) : null;
    const snapshotLine =
      source && head?.sub
        ? shownText(t('explain.snapshotFacts', { file: source.file ?? '', sub: head.sub }))
        : undefined;
    const htmlPath = str(args, 'html');
    if (htmlPath !== undefined) {
      const [{ buildReportModel }, { renderHtml }, { inputLine }] = await Promise.all([
        import('../report/model.js'),
        import('../report/html/render.js'),
        import('../report/views/explain/terminal.js'),
      ]);
      const model = buildReportModel(words, {
        kind: 'explain',
        generatedAt: new Date(ctx.now()).toISOString(),
        tool: { name: TOOL_NAME, version: TOOL_VERSION },
        snapshot: shownSnapshot,
        diagnosis: shown,
        inputLine: joinList([inputLine(words, shown), ...(snapshotLine ? [snapshotLine] : [])]),
      });
      ctx.files.write(htmlPath, renderHtml(words, model));
      if (format !== 'json') ctx.stderr.write(`${TOOL_NAME}: wrote ${shownText(htmlPath)}\n`);
    }
    // the one answer (headline, next step, cause order) every other format shows, as data beside the diagnosis
    if (format === 'json') {
      const answer = answerJson(answerOf(words, shown, { snapshot: shownSnapshot }));
      ctx.stdout.write(`${JSON.stringify({ ...shown, answer }, null, 2)}\n`);
    } else if (format === 'markdown') {
      const { renderExplainMarkdown } = await import('../report/views/explain/markdown.js');
      ctx.stdout.write(
        renderExplainMarkdown(words, shown, { snapshot: shownSnapshot, ...(snapshotLine ? { snapshotLine } : {}) }),
      );
    } else {
      // the terminal view (and the report's block renderer under it) only for terminal output: --json never loads it
      const { renderExplainTerminal } = terminalView ?? (await import('../report/views/explain/terminal.js'));
      ctx.stdout.write(
        renderExplainTerminal(words, shown, {
          color: ctx.color,
          verbose: flag(args, 'verbose'),
          width: ctx.width ?? terminalWidth(ctx),
          snapshot: shownSnapshot,
          ...(snapshotLine ? { snapshotLine } : {}),
        }),
      );
    }
    return diagnosis.causes.length > 0 ? 1 : 0;
  },
};

type TerminalView = typeof import('../report/views/explain/terminal.js');
let terminalView: TerminalView | undefined;
/** The terminal view, already loaded with the command (explain's own start bundles it: src/cli/explain-start.ts):
 *  used as it is, not imported again from a second file holding the same module. */
export function preloadTerminalView(view: TerminalView): void {
  terminalView = view;
}

// what the diagnosis takes as a hint (src/judge/explain/diagnose.ts chooseFramework): Keras is TensorFlow's, Paddle is
// PaddlePaddle's
const FRAMEWORK_NAMES = ['tensorflow', 'tf', 'keras', 'pytorch', 'torch', 'jax', 'paddle', 'paddlepaddle'];

/** What a file is, from its first bytes: a log, or something explain should not read as one. */
function sniff(reader: FileReader, shown: string): 'log' | 'gzip' {
  let head: Buffer;
  try {
    head = reader.read(0, 4096);
  } catch (err) {
    throw new UsageError(t('explain.err.cannotRead', { file: shown, why: osReason(err) }));
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x7f && head.subarray(1, 4).toString('latin1') === 'ELF')
    throw new UsageError(t('usage.explain.elf', { file: shown }));
  const text = head.toString('utf8');
  if (
    /^\s*\{/.test(text) &&
    /"schemaVersion"/.test(text) &&
    /"collectedAt"|"snapshot"/.test(text) &&
    /"nvidia"|"host"/.test(text)
  ) {
    throw new UsageError(t('usage.explain.snapshot', { file: shown }));
  }
  return 'log';
}

/** A gzip-compressed log (rotated logs, Slurm archives), decompressed as it is read. */
async function* gunzip(src: Iterable<Uint8Array>, shown: string): AsyncGenerator<Uint8Array> {
  const zlib = await import('node:zlib'); // loaded for a gzip input only
  const z = zlib.createGunzip();
  let failed: Error | null = null;
  z.on('error', (e) => (failed = e));
  const feed = (async () => {
    for (const c of src) {
      if (failed) return;
      // copied: the reader reuses one buffer for every chunk, and zlib may still hold this one
      if (!z.write(Buffer.from(c))) await new Promise((r) => z.once('drain', r));
    }
    z.end();
  })();
  try {
    for await (const out of z) yield out as Uint8Array;
  } catch (err) {
    throw new UsageError(t('usage.explain.gzip', { file: shown, why: (err as Error).message }));
  }
  await feed;
  if (failed) throw new UsageError(t('usage.explain.gzip', { file: shown, why: (failed as Error).message }));
}

function fillDiagnosis<D extends { causes: { fix: { text: string; commands: string[]; manual?: string[] } }[] }>(
  d: D,
  s: Snapshot,
): D {
  return {
    ...d,
    causes: d.causes.map((c) => ({
      ...c,
      fix: {
        ...c.fix,
        text: fillPlaceholders(c.fix.text, s),
        commands: c.fix.commands.map((x) => fillPlaceholders(x, s)),
        ...(c.fix.manual ? { manual: c.fix.manual.map((x) => fillPlaceholders(x, s)) } : {}),
      },
    })),
  };
}

async function machineFacts(ctx: Context, args: Parameters<Command['run']>[1]): Promise<Snapshot | undefined> {
  if (flag(args, 'no-machine')) return undefined;
  // the probes' code is loaded only when the machine's facts are asked for: `--no-machine` starts without it
  const { obtainSnapshot } = await import('./shared/obtain-snapshot.js');
  if (str(args, 'from') !== undefined) return obtainSnapshot(ctx, args); // a bad --from is the user's error: exit 2
  try {
    return await obtainSnapshot(ctx, args);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    ctx.stderr.write(
      `gpu-env-doctor: could not read this machine's facts (${(err as Error).message.split('\n')[0]}); judging the ` +
        `log alone\n`,
    );
    return undefined;
  }
}

/**
 * The input opened once, before any output (a permission error is a one-line UsageError here), and kept open
 * for reading: a pipe (`<(cmd)`, /dev/stdin) or a FIFO gives its bytes only once, and a FIFO closed and opened
 * again could cost its writer a SIGPIPE in between.
 */
function openReadable(fs: FileSystem, abs: string, shown: string): { reader: FileReader; regular: boolean } {
  try {
    const st = fs.stat(abs);
    if (st.type === 'dir') throw new UsageError(t('explain.err.dirNotLog', { file: shown }));
    return { reader: fs.openReader(abs), regular: st.type === 'file' };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(t('explain.err.cannotRead', { file: shown, why: osReason(err) }));
  }
}

/**
 * The file in chunks through one reused buffer (the reader copies what it keeps): also reads special files such
 * as pipes and /dev/stdin until they end.
 */
function* fileChunks(reader: FileReader, shown: string): Generator<Uint8Array> {
  const buf = Buffer.allocUnsafe(CHUNK);
  let offset = 0;
  try {
    for (;;) {
      let n: number;
      try {
        n = reader.readInto(buf, offset);
      } catch (err) {
        throw new UsageError(t('explain.err.cannotRead', { file: shown, why: osReason(err) }));
      }
      if (n === 0) return;
      offset += n;
      yield buf.subarray(0, n);
    }
  } finally {
    reader.close();
  }
}

/** the file's size now (-1 when it cannot be looked at): a size other than the one opened means it changed */
function sizeNow(fs: FileSystem, abs: string): number {
  try {
    return fs.stat(abs).size;
  } catch {
    return -1;
  }
}

/** the terminal's width when stdout is one (evidence lines are cut to it), else the renderer's default */
function terminalWidth(ctx: Context): number | undefined {
  const cols = (ctx.stdout as { columns?: unknown }).columns;
  return typeof cols === 'number' && cols > 0 ? cols : undefined;
}
