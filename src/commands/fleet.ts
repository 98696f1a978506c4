// What only one output or --redact needs (the HTML page, the terminal view, the redactor) is imported when asked:
// `fleet --json` over many files loads the checks, the merge and the reading, and starts its worker threads, sooner.
import { failOn, flag, outputFormat, str } from '../cli/args.js';
import { ALL_CHECKS } from '../judge/checks/index.js';
import { UsageError } from '../base/errors.js';
import { SEVERITY_RANK } from '../judge/finding.js';
import { expandInputs, hideSkippedNames, readInput } from '../gather/fleet-inputs.js';
import { FleetMerger } from '../judge/fleet/merge.js';
import { checksLeft, mergeInChunks, startFleetWorkers, type FleetMessage } from '../judge/fleet/parallel.js';
import { createFileSystem, type FileSystem } from '../ports/fs.js';
import type { StreamingWorker } from '../ports/worker.js';
import * as nodePath from 'node:path';
import type { Known } from '../report/redact.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import type { Command } from '../cli/registry.js';
import { optionSpec } from '../cli/options.js';
import { loadConfig } from '../cli/config.js';
import { t } from '../base/i18n/index.js';

export const command: Command = {
  name: 'fleet',
  get summary() {
    return t('cmd.fleet.summary');
  },
  synopsis: 'fleet FILE.json... | DIR... [OPTIONS]',
  get description() {
    return t('cmd.fleet.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor fleet snapshots/', t('cmd.fleet.example1')],
      ['gpu-env-doctor fleet snapshots/ --html fleet.html', t('cmd.fleet.example2')],
    ];
  },
  get exitCodes() {
    return t('cmd.fleet.exitCodes');
  },
  options: optionSpec('fleet'),
  async run(ctx, args, words) {
    const threshold = failOn(args);
    if (args.positionals.length === 0) throw new UsageError(t('usage.fleet.needsFiles'));
    const format = outputFormat(args, ['text', 'json']);
    const redact = flag(args, 'redact');
    const fsys = createFileSystem('/');
    // without --redact, many files are merged on several cores: a worker started now starts while the folders are
    // walked (it waits for the inputs, and does not hold the process if none come)
    const early = redact ? [] : startFleetWorkers(inputShape(fsys, ctx.cwd, args.positionals));
    let merged;
    try {
      merged = await mergeInputs(ctx, args, fsys, { redact, early });
    } finally {
      for (const w of early) w.stop();
    }
    const { merger, known, redaction } = merged;
    const facts = merger.result();
    if (redact) facts.inputs.skipped = hideSkippedNames(facts.inputs.skipped);
    // without --redact, the facts as merged
    const redactor = redaction ? redaction.redactorFor(ctx, args, facts, known) : null;
    const result = redaction ? redaction.shown(redactor, facts) : facts;
    if (result.machines === 0) {
      const first = result.inputs.skipped[0];
      throw new UsageError(
        !first
          ? t('usage.fleet.noneRead')
          : result.inputs.skipped.length > 1
            ? t('usage.fleet.noneReadWhyMore', {
                file: first.file,
                reason: first.reason,
                n: result.inputs.skipped.length - 1,
              })
            : t('usage.fleet.noneReadWhy', { file: first.file, reason: first.reason }),
      );
    }

    const html = str(args, 'html');
    if (html !== undefined) {
      const { renderFleetHtml } = await import('../report/views/fleet-html.js');
      ctx.files.write(
        html,
        renderFleetHtml(words, result, {
          generatedAt: new Date(ctx.now()).toISOString(),
          tool: `${TOOL_NAME} ${TOOL_VERSION}`,
        }),
      );
      ctx.stderr.write(`${TOOL_NAME}: wrote ${redaction ? redaction.shownText(redactor, html) : html}\n`);
    }
    if (format === 'json') ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const [{ fitToWidth }, { renderFleetTerminal }, { visibleDeep }] = await Promise.all([
        import('../report/fit.js'),
        import('../report/views/fleet.js'),
        import('../report/escape.js'),
      ]);
      // Host names and values come from other machines' snapshots: shown with their control characters visible.
      ctx.stdout.write(
        fitToWidth(
          words,
          renderFleetTerminal(words, visibleDeep(result), { color: ctx.color, verbose: flag(args, 'verbose') }),
          ctx.width ?? 80,
        ),
      );
    }
    if (format === 'json' && result.inputs.skipped.length > 0)
      ctx.stderr.write(`${result.inputs.skipped.length} files skipped (see inputs.skipped)\n`);
    return facts.findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[threshold]) ? 1 : 0;
  },
};

type Ctx = Parameters<Command['run']>[0];
type Args = Parameters<Command['run']>[1];

/** The inputs read and merged (several cores unless --redact); under --redact, what the snapshots name. */
async function mergeInputs(
  ctx: Ctx,
  args: Args,
  fsys: FileSystem,
  o: { redact: boolean; early: StreamingWorker<FleetMessage>[] },
) {
  const { redact, early } = o;
  const ignored = loadConfig(
    ctx,
    args,
    ALL_CHECKS.map((c) => c.id),
  ).ignore;

  // The files the user named, at real paths: --root is for probing a machine, not for finding its snapshots.
  const { files, problems, walked } = expandInputs(fsys, ctx.cwd, args.positionals);
  const merger = new FleetMerger({ checks: checksLeft(ignored) });
  // --redact: each snapshot is dropped once merged, so what it names (host, users, GPU ids) is kept here
  const redaction = redact ? await import('./shared/redaction.js') : null;
  const collectKnown = redact ? (await import('../report/redact.js')).collectKnown : null;
  const known = new Map<string, Known>();
  for (const p of problems) merger.skip(p.file, p.reason);
  if (collectKnown) {
    for (const file of files) {
      const input = readInput(fsys, ctx.cwd, file, walked.get(file));
      if ('snapshot' in input) {
        merger.add(input.snapshot, file);
        for (const k of collectKnown(input.snapshot)) known.set(`${k.kind}\0${k.value}`, k);
      } else merger.skip(file, input.problem);
    }
  } else {
    // many files: read, parsed and merged on several cores, joined in input order (the same result)
    await mergeInChunks(merger, { cwd: ctx.cwd, files, walked, ignored }, early);
  }
  return { merger, known: [...known.values()], redaction };
}

/** Whether the arguments name a folder, and how many there are (say whether starting a worker early is worth it). */
function inputShape(fsys: FileSystem, cwd: string, positionals: readonly string[]) {
  const folder = positionals.some((p) => {
    try {
      return fsys.stat(nodePath.resolve(cwd, p)).type === 'dir';
    } catch {
      return false;
    }
  });
  return { folder, named: positionals.length };
}
