// `run -- CMD [ARGS...]`: runs the command as the user would, watches GPU memory, and when the command fails,
// explains it with the machine's state at that moment. Our own output goes to stderr (stdout belongs to the
// job, and may be piped on): one line on success; the diagnosis and the memory timeline on failure.
// `--json` / `--markdown` replace that text with the JSON / Markdown report, on stderr too.
import { flag, str, type ParsedArgs } from '../cli/args.js';
import type { Context } from '../cli/context.js';
import { ALL_CHECKS } from '../checks/index.js';
import { runChecks } from '../checks/run-checks.js';
import type { Category } from '../checks/check.js';
import { UsageError } from '../core/errors.js';
import type { Finding } from '../core/finding.js';
import { renderHtml } from '../reporters/html/render.js';
import { renderMarkdown } from '../reporters/markdown.js';
import { buildReportModel, type DiagnosisLike, type RunRecord } from '../reporters/report-model.js';
import { loadExplainer } from '../run/diagnose.js';
import { runJob, type JobResult } from '../run/job.js';
import { failureReport, successLine } from '../run/terminal.js';
import type { Snapshot } from '../snapshot/schema.js';
import { markJobProcesses } from '../run/mark-job.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor, shown as redacted, shownText } from './shared/redaction.js';

export const command: Command = {
  name: 'run',
  summary: 'run a command, watch GPU memory, explain the failure with the state at the moment it failed',
  usage: `Usage: gpu-env-doctor run [--html FILE] [--markdown] [--json] [--redact] [--interval MS] [--tail-lines N]
                         [--no-capture] [--deep] [--timeout SECONDS] -- COMMAND [ARGS...]

Runs COMMAND exactly as you would (stdin, stdout, stderr, exit code and signals pass through), keeps the
last lines of its output, and samples GPU memory per process (nvidia-smi, every --interval ms, default 500).
When it succeeds: one line with the peak memory per GPU and the headroom left.
When it fails: what went wrong (the explain engine on the output's tail, with the machine's state taken the
moment it failed: who held the memory then), and the memory timeline. --html FILE writes the full report.
Our output goes to stderr; the exit code is the command's (128+N when a signal N ended it).
Terminal notes: stdout is handed to the command directly when it is a terminal (colours and progress bars
unchanged); stderr is read through a pipe (so the command sees no terminal there), unless --no-capture.`,
  options: {
    ...PROBE_OPTIONS,
    interval: { type: 'string' },
    'tail-lines': { type: 'string' },
    'no-capture': { type: 'boolean' },
  },
  async run(ctx, args) {
    const argv = args.rest;
    if (argv.length === 0) {
      throw new UsageError(
        args.positionals.length > 0 ? `put the command after --: gpu-env-doctor run -- ${args.positionals.join(' ')}` : 'no command to run (gpu-env-doctor run -- COMMAND [ARGS...])',
      );
    }
    if (args.positionals.length > 0) throw new UsageError(`unexpected "${args.positionals[0]}" before --`);
    const intervalMs = intArg(args, 'interval', 500, 50, 60000);
    const tailLines = intArg(args, 'tail-lines', 500, 10, 100000);
    if (flag(args, 'json') && flag(args, 'markdown')) throw new UsageError('--json and --markdown cannot be combined');
    const htmlPath = str(args, 'html');

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
    }
    const result = runResult(job, argv, findings, diagnosis);
    const redactor = redactorFor(ctx, args, result);
    const shown = redacted(redactor, result);
    const model = buildReportModel({
      kind: 'run',
      generatedAt: new Date(ctx.now()).toISOString(),
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      snapshot: shown.snapshot,
      findings: shown.findings,
      categoryOf: categoryLookup(),
      ...(job.failed ? { diagnosis: shown.diagnosis } : {}),
      run: shown.run,
      log: { title: job.droppedLines > 0 ? `The last ${shown.tail.length} lines of output` : 'The output', lines: shown.tail },
    });

    if (htmlPath !== undefined) {
      try {
        ctx.files.write(htmlPath, renderHtml(model));
      } catch (err) {
        // The job has run: its exit code matters more than our report. Say what went wrong, keep the code.
        ctx.stderr.write(`${TOOL_NAME}: ${shownText(redactor, err instanceof Error ? err.message : String(err))}\n`);
      }
    }
    if (flag(args, 'json')) ctx.stderr.write(`${JSON.stringify(shown, null, 2)}\n`);
    if (flag(args, 'markdown')) ctx.stderr.write(renderMarkdown(model));
    const color = ctx.stderr.isTTY && !flag(args, 'no-color') && (ctx.env.NO_COLOR ?? '') === '';
    if (flag(args, 'json') || flag(args, 'markdown')) {
      /* written above */
    } else if (job.failed) {
      if (job.snapshotError) ctx.stderr.write(`${TOOL_NAME}: could not take the snapshot at the failure: ${shownText(redactor, job.snapshotError)}\n`);
      ctx.stderr.write(failureReport(model, color, htmlPath === undefined ? undefined : shownText(redactor, htmlPath)));
    } else {
      ctx.stderr.write(successLine(model, color));
      if (htmlPath !== undefined) ctx.stderr.write(`Report: ${shownText(redactor, htmlPath)}\n`);
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
  diagnosis: DiagnosisLike | null;
  tail: { n: number; stream: 'stdout' | 'stderr'; text: string }[];
}

function runResult(job: JobResult, argv: string[], findings: Finding[], diagnosis: DiagnosisLike | null): RunJsonResult {
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
    diagnosis,
    tail: job.tail,
  };
}

function intArg(args: ParsedArgs, name: string, dflt: number, min: number, max: number): number {
  const v = str(args, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${v}"`);
  return n;
}

function categoryLookup(): (id: string) => Category {
  const m = new Map(ALL_CHECKS.map((c) => [c.id, c.category]));
  return (id) => m.get(id) ?? 'system';
}
