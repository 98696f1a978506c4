// `run -- CMD [ARGS...]`: runs the command as the user would, watches GPU memory, and when the command fails,
// explains it with the machine's state at that moment. Our own output goes to stderr (stdout belongs to the
// job, and may be piped on): one line on success; the diagnosis and the memory timeline on failure.
// `--json` / `--markdown` replace that text with the JSON / Markdown report, on stderr too.
import { flag, str, type ParsedArgs } from '../cli/args.js';
import { ALL_CHECKS } from '../judge/checks/index.js';
import { runChecks } from '../judge/checks/run-checks.js';
import type { Category } from '../judge/checks/check.js';
import { UsageError } from '../base/errors.js';
import type { Finding } from '../judge/finding.js';
import { isProblem } from '../judge/result.js';
import { renderHtml } from '../report/html/render.js';
import { renderMarkdown } from '../report/markdown.js';
import { buildReportModel, type DiagnosisLike, type RunRecord } from '../report/model.js';
import { loadExplainer } from '../act/run/diagnose.js';
import { runJob, type JobResult } from '../act/run/job.js';
import { failureReport, successLine } from '../report/views/run.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import { markJobProcesses } from '../act/run/mark-job.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import type { Command } from '../cli/registry.js';
import { obtainSnapshot } from './shared/obtain-snapshot.js';
import { redactorFor, shown as redacted, shownText } from './shared/redaction.js';
import { optionSpec } from '../cli/options.js';
import { t } from '../base/i18n/index.js';

export const command: Command = {
  name: 'run',
  get summary() {
    return t('cmd.run.summary');
  },
  synopsis: 'run [OPTIONS] -- COMMAND [ARGS...]',
  get description() {
    return t('cmd.run.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor run -- python train.py --epochs 3', t('cmd.run.example1')],
      ['gpu-env-doctor run --report run.html -- python -u train.py', t('cmd.run.example2')],
      ['gpu-env-doctor run --report run.json -- ./train.sh', t('cmd.run.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.run.exitCodes');
  },
  options: optionSpec('run'),
  async run(ctx, args, words) {
    const argv = args.rest;
    if (argv.length === 0) {
      throw new UsageError(
        args.positionals.length > 0 ? t('usage.run.after', { cmd: args.positionals.join(' ') }) : t('usage.run.none'),
      );
    }
    if (args.positionals.length > 0) throw new UsageError(t('usage.run.before', { arg: args.positionals[0] ?? '' }));
    const intervalMs = intArg(args, 'interval', 500, 50, 60000);
    const tailLines = intArg(args, 'tail-lines', 500, 10, 100000);
    const htmlPath = str(args, 'html');
    const reportPath = str(args, 'report');
    const reportKind = reportPath === undefined ? null : reportKindOf(reportPath);

    const stdinTTY = Boolean((ctx.stdin as { isTTY?: boolean }).isTTY);
    const job = await runJob({
      argv,
      fs: ctx.fs,
      env: ctx.env,
      cwd: ctx.cwd,
      intervalMs,
      tailLines,
      noCapture: flag(args, 'no-capture'),
      stdoutIsTTY: ctx.stdout.isTTY,
      attachedToTerminal: stdinTTY || ctx.stdout.isTTY || ctx.stderr.isTTY,
      snapshot: () => obtainSnapshot(ctx, args),
    });
    if (job.exit.kind === 'spawn-failed') {
      ctx.stderr.write(`${TOOL_NAME}: ${job.exit.message}\n`);
      return job.exitCode;
    }

    let findings: Finding[] = [];
    let diagnosis: DiagnosisLike | null = null;
    if (job.failed) {
      const snapshot = job.snapshot ? markJobProcesses(job.snapshot, job.jobPids) : null;
      if (snapshot) findings = runChecks(ALL_CHECKS, snapshot).flatMap((r) => r.findings);
      diagnosis = (await loadExplainer())(job.tail, snapshot);
      findings = escalateNoGpu(findings, diagnosis);
    }
    const result = runResult(job, argv, findings, diagnosis);
    const redactor = redactorFor(ctx, args, result);
    const shown = redacted(redactor, result);
    const model = buildReportModel(words, {
      kind: 'run',
      generatedAt: new Date(ctx.now()).toISOString(),
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      snapshot: shown.snapshot,
      findings: shown.findings,
      categoryOf: categoryLookup(),
      titleOf: titleLookup(),
      ...(job.failed ? { diagnosis: shown.diagnosis } : {}),
      run: shown.run,
      log: {
        title: job.droppedLines > 0 ? `The last ${shown.tail.length} lines of output` : 'The output',
        lines: shown.tail,
      },
    });

    const writeReport = (path: string, text: string) => {
      try {
        ctx.files.write(path, text);
      } catch (err) {
        // The job has run: its exit code matters more than our report. Say what went wrong, keep the code.
        ctx.stderr.write(`${TOOL_NAME}: ${shownText(redactor, err instanceof Error ? err.message : String(err))}\n`);
      }
    };
    if (htmlPath !== undefined) writeReport(htmlPath, renderHtml(words, model));
    if (reportPath !== undefined && reportKind !== null) {
      writeReport(
        reportPath,
        reportKind === 'json'
          ? `${JSON.stringify(shown, null, 2)}\n`
          : reportKind === 'markdown'
            ? renderMarkdown(words, model)
            : renderHtml(words, model),
      );
    }
    const color = ctx.colorErr ?? (ctx.stderr.isTTY && (ctx.env.NO_COLOR ?? '') === '');
    // the report files' names are echoed as they may be shown (a path can name a home folder)
    const written =
      [htmlPath, reportPath]
        .filter((p): p is string => p !== undefined)
        .map((p) => shownText(redactor, p))
        .join(', ') || undefined;
    if (job.failed) {
      if (job.snapshotError)
        ctx.stderr.write(
          `${TOOL_NAME}: could not take the snapshot at the failure: ${shownText(redactor, job.snapshotError)}\n`,
        );
      ctx.stderr.write(
        failureReport(words, model, color, written, {
          width: ctx.stderr.columns && ctx.stderr.isTTY ? ctx.stderr.columns : (ctx.width ?? 80),
          verbose: flag(args, 'verbose'),
        }),
      );
    } else if (!flag(args, 'quiet')) {
      ctx.stderr.write(successLine(words, model, color));
      if (written !== undefined) ctx.stderr.write(`Report: ${written}\n`);
    }
    return job.exitCode;
  },
};

/** `run --json`: the contract's result shape (schemaVersion, snapshot, findings) plus the run and the diagnosis. */
export interface RunJsonResult {
  schemaVersion: 1;
  run: RunRecord & { snapshotTrigger: string | null };
  snapshot: Snapshot | null;
  findings: Finding[];
  /** what check --json's summary gives (the counts of the findings), with the code run exits with: the job's */
  summary: { errors: number; warnings: number; unknown: number; checks: number; exitCode: number };
  diagnosis: DiagnosisLike | null;
  tail: { n: number; stream: 'stdout' | 'stderr'; text: string }[];
}

function runResult(
  job: JobResult,
  argv: string[],
  findings: Finding[],
  diagnosis: DiagnosisLike | null,
): RunJsonResult {
  return {
    schemaVersion: 1,
    run: {
      argv,
      exitText: job.exitText,
      exitCode: job.exitCode,
      failed: job.failed,
      durationMs: job.durationMs,
      timeline: job.timeline,
      jobPids: job.jobPids,
      totalLines: job.totalLines,
      droppedLines: job.droppedLines,
      snapshotTrigger: job.snapshotTrigger ?? null,
    },
    snapshot: job.snapshot,
    findings,
    summary: {
      errors: findings.filter((f) => f.severity === 'error' && isProblem(f, 'error')).length,
      warnings: findings.filter((f) => f.severity === 'warn' && isProblem(f, 'warn')).length,
      unknown: findings.filter((f) => f.status === 'unknown').length,
      checks: new Set(findings.map((f) => f.check)).size,
      exitCode: job.exitCode,
    },
    diagnosis,
    tail: job.tail,
  };
}

/** The report's format from its file name: .json, .md/.markdown, .html/.htm. */
function reportKindOf(path: string): 'json' | 'markdown' | 'html' {
  const ext = path.toLowerCase().split('.').pop() ?? '';
  if (ext === 'json') return 'json';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'html' || ext === 'htm') return 'html';
  throw new UsageError(t('usage.run.reportExt', { file: path }));
}

/**
 * The job failed and the diagnosis says no GPU was visible: then "no GPU on this machine" is not a skipped
 * check but the error itself, and every output (terminal, Markdown, HTML) must say so, never "no problems".
 */
export function escalateNoGpu(findings: Finding[], diagnosis: DiagnosisLike | null): Finding[] {
  if (diagnosis?.causes[0]?.id !== 'no_device_visible') return findings;
  return findings.map(
    (f): Finding =>
      f.check === 'gpu.driver' &&
      (f.status === 'skip' || f.status === 'warn') &&
      (f.rootCause === null || f.rootCause === 'no_device_visible')
        ? {
            ...f,
            severity: 'error',
            status: 'fail',
            rootCause: 'no_device_visible',
            message: f.message.replace(
              /^No NVIDIA GPU or driver on this machine/,
              'No NVIDIA GPU or driver on this machine, and the job failed for want of one',
            ),
          }
        : f,
  );
}

function intArg(args: ParsedArgs, name: string, dflt: number, min: number, max: number): number {
  const v = str(args, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(t('usage.wholeNumber', { name, min, max, value: v }));
  return n;
}

function titleLookup(): (id: string) => string {
  const m = new Map(ALL_CHECKS.map((c) => [c.id, c.title]));
  return (id) => m.get(id) ?? id;
}

function categoryLookup(): (id: string) => Category {
  const m = new Map(ALL_CHECKS.map((c) => [c.id, c.category]));
  return (id) => m.get(id) ?? 'system';
}
