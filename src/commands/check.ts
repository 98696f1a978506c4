import { failOn, flag, str } from '../cli/args.js';
import { ALL_CHECKS } from '../checks/index.js';
import { runChecks } from '../checks/run-checks.js';
import type { Category } from '../checks/check.js';
import { exitCodeFor, RESULT_SCHEMA_VERSION, type CheckRunResult } from '../core/result.js';
import { renderTerminal } from '../reporters/terminal.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';
import { UsageError } from '../core/errors.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';

export const command: Command = {
  name: 'check',
  summary: 'inspect this machine, print findings with evidence and fixes',
  usage: `Usage: gpu-env-doctor check [--json] [-v] [--from SNAPSHOT.json] [--root DIR] [--fail-on error|warn]
                           [--deep] [--python PATH]... [--all-envs] [--timeout SECONDS]
                           [--markdown] [--html FILE] [--redact] [--format text|json|markdown|prometheus]

Inspects this machine (or a saved snapshot) and prints one line per area, then the problems with
their evidence and fix. Exit code 0: nothing at or above --fail-on; 1: findings at or above it; 2: failure.`,
  options: PROBE_OPTIONS,
  async run(ctx, args) {
    const threshold = failOn(args);
    if (args.positionals.length > 0) throw new UsageError(`check takes no arguments (got "${args.positionals[0]}")`);
    const snapshot = await obtainSnapshot(ctx, args);
    const results = runChecks(ALL_CHECKS, snapshot);
    const findings = results.flatMap((r) => r.findings);
    const raw: CheckRunResult = { schemaVersion: RESULT_SCHEMA_VERSION, snapshot, findings };
    // --redact rewrites the result itself, before any renderer sees it: every output shows the same placeholders.
    const result = shown(redactorFor(ctx, args, raw), raw);
    // The Markdown and HTML renderers are loaded only when asked for.
    const format = str(args, 'format') ?? (flag(args, 'json') ? 'json' : flag(args, 'markdown') ? 'markdown' : 'text');
    const categoryOf = categoryLookup();
    const model = async () => {
      const { buildReportModel } = await import('../reporters/report-model.js');
      return buildReportModel({ kind: 'check', generatedAt: new Date(ctx.now()).toISOString(), tool: { name: TOOL_NAME, version: TOOL_VERSION }, snapshot: result.snapshot, findings: result.findings, categoryOf });
    };
    const htmlPath = str(args, 'html');
    if (htmlPath !== undefined) ctx.files.write(htmlPath, (await import('../reporters/html/render.js')).renderHtml(await model()));
    if (format === 'json') {
      ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else if (format === 'prometheus') {
      ctx.stdout.write((await import('../reporters/prometheus.js')).renderPrometheus(result));
    } else if (format === 'markdown') {
      ctx.stdout.write((await import('../reporters/markdown.js')).renderMarkdown(await model()));
    } else if (format === 'text') {
      ctx.stdout.write(renderTerminal(result.snapshot, result.findings, { color: ctx.color, verbose: flag(args, 'verbose'), threshold, categoryOf }));
    } else {
      throw new UsageError(`unknown --format "${format}" (text, json, markdown or prometheus)`);
    }
    return exitCodeFor(findings, threshold);
  },
};

function categoryLookup(): (id: string) => Category {
  const m = new Map(ALL_CHECKS.map((c) => [c.id, c.category]));
  return (id) => m.get(id) ?? 'system';
}
