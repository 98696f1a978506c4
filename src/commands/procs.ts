import { flag, str, type ParsedArgs } from '../cli/args.js';
import type { Context } from '../ports/context.js';
import { UsageError } from '../base/errors.js';
import { procRows, procsJson, renderProcs, staleCount } from '../report/views/procs.js';
import type { Command } from '../cli/registry.js';
import { redactDeep, type Redactor } from '../report/redact.js';
import { obtainSnapshotWithSource } from './shared/obtain-snapshot.js';
import { redactorFor } from './shared/redaction.js';
import { optionSpec } from '../cli/options.js';
import { visibleLine } from '../report/escape.js';
import { headerLines } from '../report/provenance.js';
import { filterRows, parseProcFilter } from './shared/proc-filter.js';
import { t } from '../base/i18n/index.js';
import type { Words } from '../base/i18n/words.js';

export const DEFAULT_WATCH_S = 2;

export const command: Command = {
  name: 'procs',
  get summary() {
    return t('cmd.procs.summary');
  },
  synopsis: 'procs [OPTIONS]',
  get description() {
    return t('cmd.procs.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor procs', t('cmd.procs.example1')],
      ['gpu-env-doctor procs --gpu 0,2 --user alice', t('cmd.procs.example2')],
      ['gpu-env-doctor procs --watch 5', t('cmd.procs.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.procs.exitCodes');
  },
  options: optionSpec('procs'),
  async run(ctx, args, words) {
    const watch = flag(args, 'watch');
    const positional = args.positionals[0];
    if (args.positionals.length > (watch ? 1 : 0))
      throw new UsageError(t('usage.procs.noArgs', { arg: args.positionals[watch ? 1 : 0] ?? '' }));
    if (!watch) {
      if (str(args, 'count') !== undefined || str(args, 'interval') !== undefined)
        throw new UsageError(t('usage.procs.watchOnly'));
      return once(words, ctx, args, redactorFor(ctx, args), 'plain');
    }
    if (str(args, 'from') !== undefined) throw new UsageError(t('usage.procs.watchFrom'));
    const secondsText = positional ?? str(args, 'interval') ?? String(DEFAULT_WATCH_S);
    const seconds = Number(secondsText);
    if (!/^\d+(\.\d+)?$/.test(secondsText) || seconds < 0.1 || seconds > 86_400)
      throw new UsageError(t('usage.procs.watch', { value: secondsText }));
    const countText = str(args, 'count');
    const count = countText === undefined ? Infinity : Number(countText);
    if (countText !== undefined && !(Number.isInteger(count) && count >= 1))
      throw new UsageError(t('usage.procs.count', { value: countText }));
    // one redactor for the whole stream: a user is the same placeholder in every frame
    return watchLoop(words, ctx, args, redactorFor(ctx, args), seconds * 1000, count);
  },
};

type Mode = 'plain' | 'tty-frame' | 'stream-frame';

async function once(
  words: Words,
  ctx: Context,
  args: ParsedArgs,
  redactor: Redactor | null,
  mode: Mode,
  frameNo = 0,
): Promise<number> {
  const filter = parseProcFilter(str(args, 'gpu'), str(args, 'user'));
  const got = await obtainSnapshotWithSource(words, ctx, args);
  // --gpu/--user select on the facts (the real user name); verdicts are judged on the facts too. What is shown
  // (the rows carry the processes' users and command lines, the header the snapshot's file and host) is redacted.
  const rawRows = filterRows(procRows(got.snapshot), got.snapshot, filter);
  const raw = { snapshot: got.snapshot, rows: rawRows, source: got.source };
  redactor?.learn(raw);
  const { snapshot, rows, source } = redactor ? redactDeep(raw, redactor) : raw;
  if (flag(args, 'json')) {
    const doc = procsJson(snapshot, rows);
    ctx.stdout.write(mode === 'plain' ? `${JSON.stringify(doc, null, 2)}\n` : `${JSON.stringify(doc)}\n`);
  } else {
    const table = renderProcs(words, snapshot, rows, {
      color: ctx.color,
      verbose: flag(args, 'verbose'),
      width: ctx.width ?? 80,
      filtered: filter !== null,
    });
    const stamp = visibleLine(t('procs.stamp', { host: snapshot.host.name, at: snapshot.collectedAt }));
    const head = headerLines(words, 'procs', source);
    if (mode === 'tty-frame') ctx.stdout.write(`\x1b[H\x1b[2J${stamp}${t('procs.ctrlC')}\n${table}`);
    else if (mode === 'stream-frame') ctx.stdout.write(`${frameNo > 0 ? '\n' : ''}--- ${stamp} ---\n${table}`);
    else ctx.stdout.write(head.sub ? `${visibleLine(head.title)}\n  ${visibleLine(head.sub)}\n${table}` : table);
  }
  return staleCount(rawRows) > 0 ? 1 : 0;
}

/** Like `watch nvidia-smi`, with verdicts. Ctrl-C (or SIGTERM) ends it between refreshes, with exit code 0. */
async function watchLoop(
  words: Words,
  ctx: Context,
  args: ParsedArgs,
  redactor: Redactor | null,
  intervalMs: number,
  count: number,
): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const tty = ctx.stdout.isTTY && !flag(args, 'json');
  if (tty) ctx.stdout.write('\x1b[?25l'); // hide the cursor while redrawing
  let code = 0;
  try {
    for (let n = 0; n < count && !stop.signal.aborted && !ctx.stdout.closed; n++) {
      code = await once(words, ctx, args, redactor, tty ? 'tty-frame' : 'stream-frame', n);
      if (n + 1 < count) await pause(intervalMs, stop.signal);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (tty) ctx.stdout.write('\x1b[?25h');
  }
  // Stopped by Ctrl-C, or by the reader going away (`procs --watch | head`): both are the way to end a watch.
  return stop.signal.aborted || ctx.stdout.closed ? 0 : code;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
