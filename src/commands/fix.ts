import { failOn, flag, str, type ParsedArgs } from '../cli/args.js';
import type { Context } from '../cli/context.js';
import { ALL_CHECKS } from '../checks/index.js';
import { runChecks } from '../checks/run-checks.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_GRACE_MS, endProcess, writeEnvFile, type ProcessOutcome } from '../fix/apply.js';
import { askYesNo, isInteractive } from '../fix/confirm.js';
import { DEFAULT_ENV_FILE } from '../fix/env-file.js';
import { fixExitCode } from '../fix/exit-code.js';
import { buildPlan, candidatePids, type Plan } from '../fix/plan.js';
import { hasActions, isEmpty, planJson, renderPlan, renderResults, type FixMode, type FixResults } from '../fix/render.js';
import { sampleProcesses } from '../fix/sample.js';
import { realSignals, realSleep, type Signals } from '../ports/signals.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';

export interface FixDeps {
  signals: Signals;
  sleep(ms: number): Promise<void>;
}

export const command: Command = {
  name: 'fix',
  summary: 'apply the safe fixes, after confirmation; --dry-run prints the plan',
  usage: `Usage: gpu-env-doctor fix [--dry-run] [--yes] [--force] [--grace SECONDS] [--env-file FILE]
                         [--json] [--fail-on error|warn] [--from SNAPSHOT.json] [--root DIR] [--redact]

Builds a plan from the current findings and the GPU processes' verdicts, shows it, and after a y/N
confirmation applies its safe part:
  - ends stale GPU processes (orphaned, stopped, long idle, a zombie's parent): SIGTERM, then SIGKILL
    after the grace period (default 5 s). Each PID's start time is read again before every signal and
    must match the snapshot, so a reused PID is never hit. Processes still working (CPU use), another
    user's processes (unless root with --force), shells and service managers are never ended.
  - writes the environment settings the diagnosis calls for (e.g. TF_FORCE_GPU_ALLOW_GROWTH=true) to
    ./gpu-env-doctor.env, for you to source. Shell rc files are never edited.
Package installs, driver changes and environment rebuilds are printed as commands, never run.

  --dry-run        print the plan only (also implied by --from)
  --yes, -y        apply without asking (for scripts); without a terminal, fix refuses unless given
  --force          as root, also end other users' stale processes
  --grace SECONDS  wait this long after SIGTERM before SIGKILL (default 5)
  --env-file FILE  where to write the settings (default ./gpu-env-doctor.env)
  --redact         hide names, addresses, UUIDs and secrets in what is printed (the plan acts on the real facts)

Exit code 0: nothing at or above --fail-on is left to do; 1: something is (an action not taken or
failed, or a problem only you can fix); 2: usage error, or no terminal to confirm on and no --yes.`,
  options: {
    ...PROBE_OPTIONS,
    'dry-run': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    force: { type: 'boolean' },
    grace: { type: 'string' },
    'env-file': { type: 'string' },
  },
  run: (ctx, args) => runFix(ctx, args, { signals: realSignals, sleep: realSleep }),
};

export async function runFix(ctx: Context, args: ParsedArgs, deps: FixDeps): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`fix takes no arguments (got "${args.positionals[0]}")`);
  const threshold = failOn(args);
  const graceText = str(args, 'grace');
  const graceMs = graceText === undefined ? DEFAULT_GRACE_MS : Number(graceText) * 1000;
  if (!Number.isFinite(graceMs) || graceMs < 0 || graceMs > 600_000) throw new UsageError(`--grace must be a number of seconds from 0 to 600, not "${graceText}"`);
  const envFile = str(args, 'env-file') ?? DEFAULT_ENV_FILE;
  if (envFile.trim() === '' || envFile.endsWith('/')) throw new UsageError(`--env-file must name a file, not "${envFile}"`);
  const json = flag(args, 'json');
  const fromSaved = str(args, 'from') !== undefined;

  const signalling: true | string = fromSaved
    ? 'the facts come from a saved snapshot: run fix on the machine itself'
    : ctx.fs.root !== '/'
      ? `with --root ${ctx.fs.root} the PIDs read there need not be this machine's, so fix signals none of them`
      : true;
  const snapshot = await obtainSnapshot(ctx, args);
  const findings = runChecks(ALL_CHECKS, snapshot).flatMap((r) => r.findings);
  const live = signalling === true ? await sampleProcesses(ctx.fs, candidatePids(snapshot), { now: ctx.now, sleep: deps.sleep }) : new Map();
  const plan = buildPlan({ snapshot, findings, live, signalling, force: flag(args, 'force'), envFile });
  const ages = new Map(snapshot.processes.list.map((p) => [p.pid, p.ageSeconds]));
  // The plan acts on the facts; with --redact, what is printed (plan, question, results) is a redacted copy.
  const redactor = redactorFor(ctx, args, { snapshot, plan });
  const view = shown(redactor, { plan, host: snapshot.host.name });
  const planText = () => renderPlan(view.plan, { color: ctx.color, graceMs, host: view.host, ages });

  const finish = (mode: FixMode, r: FixResults | null): number => {
    const results = shown(redactor, r);
    if (json) ctx.stdout.write(`${JSON.stringify(planJson(view.plan, mode, results, ages), null, 2)}\n`);
    else if (results) ctx.stdout.write(renderResults(view.plan, results, { color: ctx.color }));
    return fixExitCode(plan, mode, r, threshold);
  };

  const dryRun = flag(args, 'dry-run') || fromSaved;
  if (dryRun || isEmpty(plan) || !hasActions(plan)) {
    if (!json) ctx.stdout.write(planText());
    if (fromSaved && !flag(args, 'dry-run') && (plan.processes.length > 0 || plan.env.length > 0)) ctx.stderr.write('gpu-env-doctor: fix: the plan comes from a saved snapshot, so nothing was changed\n');
    return finish(fromSaved ? 'saved-snapshot' : 'dry-run', null);
  }

  if (!flag(args, 'yes')) {
    if (!isInteractive(ctx.stdin)) {
      if (!json) ctx.stdout.write(planText());
      finish('not-confirmed', null);
      ctx.stderr.write('gpu-env-doctor: fix: no terminal to confirm on, so nothing was changed; add --yes to apply the plan, or --dry-run to only print it\n');
      return 2;
    }
    (json ? ctx.stderr : ctx.stdout).write(planText());
    const ok = await askYesNo(ctx.stdin, ctx.stderr, `\n${describeActions(view.plan)}?`);
    if (!ok) {
      ctx.stderr.write('Nothing changed.\n');
      return finish('declined', null);
    }
  } else if (!json) {
    ctx.stdout.write(planText());
  }
  return finish('applied', await apply(plan, ctx, deps, graceMs));
}

function describeActions(plan: Plan): string {
  const n = plan.processes.filter((p) => !p.blocked).length;
  const parts = [...(n > 0 ? [`end ${n === 1 ? 'this process' : `these ${n} processes`}`] : []), ...(plan.env.length > 0 ? [`write ${plan.env.length === 1 ? 'the setting' : 'the settings'} to ${plan.envFile}`] : [])];
  return `${parts.join(' and ').replace(/^./, (c) => c.toUpperCase())}`;
}

async function apply(plan: Plan, ctx: Context, deps: FixDeps, graceMs: number): Promise<FixResults> {
  // All at once: each step checks and signals only its own PID, so the grace periods need not add up.
  const outcomes = await Promise.all(
    plan.processes.map(async (st) => [st.pid, await endProcess(st, { fs: ctx.fs, signals: deps.signals, sleep: deps.sleep, now: ctx.now, graceMs })] as const),
  );
  return { processes: new Map<number, ProcessOutcome>(outcomes), envFile: writeEnvFile(plan, ctx.files) };
}
