import { flag, outputFormat, str, type FailOn, type ParsedArgs } from '../cli/args.js';
import { failOnWith, ignoredNote, loadConfig } from '../cli/config.js';
import { optionSpec } from '../cli/options.js';
import type { Check, Category } from '../judge/checks/check.js';
import { UsageError } from '../base/errors.js';
import { exitCodeFor, isProblem, RESULT_SCHEMA_VERSION, type CheckRunResult } from '../judge/result.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import type { Command } from '../cli/registry.js';
import { obtainSnapshotWithSource, startNvidiaEarly } from './shared/obtain-snapshot.js';
import { t } from '../base/i18n/index.js';
import { endChildrenInFlight } from '../ports/runner.js';
import type { Context } from '../ports/context.js';

/**
 * The checks (and their early run, ./shared/prejudge.ts), the terminal renderer and the redactor (~400 KB of
 * code): loaded while nvidia-smi works, not before it starts (it is the long pole: ~0.1 s on a datacenter GPU).
 */
const loadJudging = () =>
  Promise.all([
    import('../judge/checks/index.js'),
    import('../report/terminal.js'),
    import('./shared/redaction.js'),
    import('./shared/prejudge.js'),
  ]).then(([checks, terminal, redaction, prejudge]) => ({
    ALL_CHECKS: checks.ALL_CHECKS,
    renderTerminal: terminal.renderTerminal,
    Prejudge: prejudge.Prejudge,
    ...redaction,
  }));

export const command: Command = {
  name: 'check',
  get summary() {
    return t('cmd.check.summary');
  },
  synopsis: 'check [OPTIONS]',
  get description() {
    return t('cmd.check.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor check', t('cmd.check.example1')],
      ['gpu-env-doctor check -q && python train.py', t('cmd.check.example2')],
      ['gpu-env-doctor check --deep', t('cmd.check.example6')],
      ['gpu-env-doctor check --from machine.json', t('cmd.check.example3')],
      ['gpu-env-doctor check --markdown --redact', t('cmd.check.example4')],
      ['gpu-env-doctor check --ignore memory.headroom --fail-on warn', t('cmd.check.example5')],
    ];
  },
  get exitCodes() {
    return t('cmd.check.exitCodes');
  },
  options: optionSpec('check'),
  async run(ctx, args, words) {
    if (args.positionals.length > 0) throw new UsageError(t('usage.check.noArgs', { arg: args.positionals[0] ?? '' }));
    const started = startNvidiaEarly(ctx, args);
    const judging = loadJudging();
    let prepared: Awaited<ReturnType<typeof prepare>>;
    let obtained: Awaited<ReturnType<typeof obtainSnapshotWithSource>>;
    let prejudge: InstanceType<Awaited<typeof judging>['Prejudge']>;
    try {
      prepared = await prepare(ctx, args, judging);
      // the checks begin on the snapshot so far while nvidia-smi works; after its answer only the GPU's part runs
      prejudge = new (await judging).Prejudge(prepared.ALL_CHECKS);
      obtained = await obtainSnapshotWithSource(words, ctx, args, {}, 'all', started, (soFar, answered) =>
        prejudge.beginChecks(soFar, answered),
      );
    } catch (err) {
      // a refused option ends the command now: the nvidia-smi started for it must not hold the exit
      if (started) endChildrenInFlight();
      throw err;
    }
    const { ALL_CHECKS, config, threshold, format } = prepared;
    const { snapshot, source } = obtained;
    const { renderTerminal, redactorFor, shown, shownText } = await judging;
    const all = prejudge.finishChecks(snapshot).flatMap((r) => r.findings);
    const ignored = new Set(config.ignore);
    const findings = all.filter((f) => !ignored.has(f.check));
    const ignoredCount = all.filter((f) => ignored.has(f.check) && f.status !== 'ok' && f.status !== 'skip').length;
    // which checks were left out and by which file: whenever that changes the output, the summary says so
    const note = ignoredNote(config, new Set(all.map((f) => f.check)));
    const raw: CheckRunResult = { schemaVersion: RESULT_SCHEMA_VERSION, snapshot, findings };
    // --redact rewrites the result itself, before any renderer sees it: every output shows the same placeholders.
    // The report's header (which file, which host) goes through the same redactor: host-1 there as in the facts.
    const redactor = redactorFor(ctx, args, raw);
    const result = shown(redactor, raw);
    const shownSource = shown(redactor, source);
    const categoryOf = categoryLookup(ALL_CHECKS);
    // The Markdown and HTML renderers are loaded only when asked for.
    const model = async () => {
      const { buildReportModel } = await import('../report/model.js');
      return buildReportModel(words, {
        kind: 'check',
        generatedAt: new Date(ctx.now()).toISOString(),
        tool: { name: TOOL_NAME, version: TOOL_VERSION },
        snapshot: result.snapshot,
        findings: result.findings,
        categoryOf,
        titleOf: titleLookup(ALL_CHECKS),
        source: shownSource,
      });
    };
    const htmlPath = str(args, 'html');
    if (htmlPath !== undefined) {
      ctx.files.write(htmlPath, (await import('../report/html/render.js')).renderHtml(words, await model()));
      if (format !== 'json') ctx.stderr.write(`${TOOL_NAME}: wrote ${shownText(redactor, htmlPath)}\n`);
    }
    if (format === 'json') {
      // the summary a script reads first: the counts the report's last line gives, and the exit code check returns
      const summary = {
        errors: result.findings.filter((f) => f.severity === 'error' && isProblem(f, 'error')).length,
        warnings: result.findings.filter((f) => f.severity === 'warn' && isProblem(f, 'warn')).length,
        unknown: result.findings.filter((f) => f.status === 'unknown').length,
        checks: new Set(result.findings.map((f) => f.check)).size,
        ignored: ignoredCount,
        failOn: threshold,
        exitCode: exitCodeFor(findings, threshold),
      };
      const fromFile = config.file !== null && config.ignoreFromFile.length > 0 ? { configFile: config.file } : {};
      const ignored = config.ignore.length > 0 ? { ignoredChecks: config.ignore, ...fromFile } : {};
      ctx.stdout.write(`${JSON.stringify({ ...result, summary, ...ignored }, null, 2)}\n`);
    } else if (format === 'prometheus') {
      ctx.stdout.write((await import('../report/prometheus.js')).renderPrometheus(result));
    } else if (format === 'markdown') {
      ctx.stdout.write((await import('../report/markdown.js')).renderMarkdown(words, await model()));
    } else {
      ctx.stdout.write(
        renderTerminal(words, result.snapshot, result.findings, {
          color: ctx.color,
          verbose: flag(args, 'verbose'),
          quiet: flag(args, 'quiet'),
          threshold,
          categoryOf,
          width: ctx.width ?? 80,
          source: shownSource,
          ignored: ignoredCount,
          ...(note !== null ? { ignoredNote: note } : {}),
        }),
      );
    }
    return exitCodeFor(findings, threshold);
  },
};

/** The options, checked before anything is read (the check ids, for --ignore, are in the judging code). */
async function prepare(ctx: Context, args: ParsedArgs, judging: ReturnType<typeof loadJudging>) {
  const { ALL_CHECKS } = await judging;
  const config = loadConfig(
    ctx,
    args,
    ALL_CHECKS.map((c) => c.id),
  );
  const threshold: FailOn = failOnWith(str(args, 'fail-on'), config.failOn);
  const format = outputFormat(args, ['text', 'json', 'markdown', 'prometheus']);
  if (flag(args, 'quiet') && format !== 'text') throw new UsageError(t('usage.check.quietFormat', { format }));
  return { ALL_CHECKS, config, threshold, format };
}

function titleLookup(ALL_CHECKS: readonly Check[]): (id: string) => string {
  const m = new Map(ALL_CHECKS.map((c) => [c.id, c.title]));
  return (id) => m.get(id) ?? id;
}

function categoryLookup(ALL_CHECKS: readonly Check[]): (id: string) => Category {
  const m = new Map(ALL_CHECKS.map((c) => [c.id, c.category]));
  return (id) => m.get(id) ?? 'system';
}
