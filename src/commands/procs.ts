import { flag, str, type ParsedArgs } from '../cli/args.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../core/errors.js';
import { procRows, procsJson, renderProcs, staleCount } from '../procs/table.js';
import type { Command } from './registry.js';
import { redactDeep, type Redactor } from '../reporters/redact.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor } from './shared/redaction.js';

export const DEFAULT_WATCH_S = 2;

export const command: Command = {
  name: 'procs',
  summary: 'GPU processes: who holds memory, since when, and whether they are stale',
  usage: `Usage: gpu-env-doctor procs [--json] [-v] [--watch [SECONDS]] [--count N] [--from SNAPSHOT.json] [--root DIR] [--redact]

The processes holding GPU memory (or a GPU device file), culprits first: GPU, PID, user, memory, age,
state, parent (gone→NAME when it died and NAME adopted the process), container (same or other PID
namespace), verdict (this job, active, idle, orphaned, stopped, zombie, other user, invisible) and
command line. gpu-env-doctor fix ends the stale ones safely.

  --watch [SECONDS]  refresh every SECONDS (default ${DEFAULT_WATCH_S}) until Ctrl-C; in place on a terminal,
                     one table after another otherwise (one JSON document per line with --json)
  --count N          with --watch: stop after N refreshes
  -v                 full command lines

Exit code 0: no stale process holds GPU memory; 1: some does; 2: failure.`,
  options: { ...PROBE_OPTIONS, watch: { type: 'boolean' }, interval: { type: 'string' }, count: { type: 'string' } },
  async run(ctx, args) {
    const watch = flag(args, 'watch');
    const positional = args.positionals[0];
    if (args.positionals.length > (watch ? 1 : 0)) throw new UsageError(`procs takes no arguments (got "${args.positionals[watch ? 1 : 0]}")`);
    if (!watch) {
      if (str(args, 'count') !== undefined || str(args, 'interval') !== undefined) throw new UsageError('--count and --interval go with --watch');
      return once(ctx, args, redactorFor(ctx, args), 'plain');
    }
    if (str(args, 'from') !== undefined) throw new UsageError('--watch needs this machine: a saved snapshot (--from) never changes');
    const secondsText = positional ?? str(args, 'interval') ?? String(DEFAULT_WATCH_S);
    const seconds = Number(secondsText);
    if (!/^\d+(\.\d+)?$/.test(secondsText) || seconds < 0.1 || seconds > 86_400) throw new UsageError(`--watch takes a number of seconds (0.1 or more), not "${secondsText}"`);
    const countText = str(args, 'count');
    const count = countText === undefined ? Infinity : Number(countText);
    if (countText !== undefined && !(Number.isInteger(count) && count >= 1)) throw new UsageError(`--count must be a whole number of 1 or more, not "${countText}"`);
    // one redactor for the whole stream: a user is the same placeholder in every frame
    return watchLoop(ctx, args, redactorFor(ctx, args), seconds * 1000, count);
  },
};

type Mode = 'plain' | 'tty-frame' | 'stream-frame';

async function once(ctx: Context, args: ParsedArgs, redactor: Redactor | null, mode: Mode, frameNo = 0): Promise<number> {
  const raw = await obtainSnapshot(ctx, args);
  const rawRows = procRows(raw);
  // Verdicts are judged on the facts; what is shown is redacted (the rows carry the processes' users and command lines).
  redactor?.learn({ snapshot: raw, rows: rawRows });
  const { snapshot, rows } = redactor ? redactDeep({ snapshot: raw, rows: rawRows }, redactor) : { snapshot: raw, rows: rawRows };
  if (flag(args, 'json')) {
    const doc = procsJson(snapshot, rows);
    ctx.stdout.write(mode === 'plain' ? `${JSON.stringify(doc, null, 2)}\n` : `${JSON.stringify(doc)}\n`);
  } else {
    const table = renderProcs(snapshot, rows, { color: ctx.color, verbose: flag(args, 'verbose') });
    const stamp = `gpu-env-doctor procs on ${snapshot.host.name}, ${snapshot.collectedAt}`;
    if (mode === 'tty-frame') ctx.stdout.write(`\x1b[H\x1b[2J${stamp} (Ctrl-C to stop)\n${table}`);
    else if (mode === 'stream-frame') ctx.stdout.write(`${frameNo > 0 ? '\n' : ''}--- ${stamp} ---\n${table}`);
    else ctx.stdout.write(table);
  }
  return staleCount(rawRows) > 0 ? 1 : 0;
}

/** Like `watch nvidia-smi`, with verdicts. Ctrl-C (or SIGTERM) ends it between refreshes, with exit code 0. */
async function watchLoop(ctx: Context, args: ParsedArgs, redactor: Redactor | null, intervalMs: number, count: number): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const tty = ctx.stdout.isTTY && !flag(args, 'json');
  if (tty) ctx.stdout.write('\x1b[?25l'); // hide the cursor while redrawing
  let code = 0;
  try {
    for (let n = 0; n < count && !stop.signal.aborted; n++) {
      code = await once(ctx, args, redactor, tty ? 'tty-frame' : 'stream-frame', n);
      if (n + 1 < count) await pause(intervalMs, stop.signal);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (tty) ctx.stdout.write('\x1b[?25h');
  }
  return stop.signal.aborted ? 0 : code;
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
