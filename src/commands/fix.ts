import { flag, str, type ParsedArgs } from '../cli/args.js';
import type { Context } from '../ports/context.js';
import { ALL_CHECKS } from '../judge/checks/index.js';
import { runChecks } from '../judge/checks/run-checks.js';
import { UsageError } from '../base/errors.js';
import { DEFAULT_GRACE_MS, endProcess, writeEnvFile, type ProcessOutcome } from '../act/fix/apply.js';
import { askYesNo, isInteractive } from '../act/fix/confirm.js';
import { DEFAULT_ENV_FILE } from '../judge/fix/env-file.js';
import { fixExitCode } from '../act/fix/exit-code.js';
import { buildPlan, candidatePids, type Plan } from '../judge/fix/plan.js';
import {
  hasActions,
  isEmpty,
  planJson,
  renderPlan,
  renderResults,
  type FixMode,
  type FixResults,
} from '../report/views/fix.js';
import { sampleWindow } from '../act/fix/sample.js';
import { gpuWorkOf, readGpuActivity } from '../gather/nvidia/gpu-activity.js';
import { readGpuFree, type GpuFree } from '../gather/nvidia/gpu-free.js';
import type { LiveSample, SampleWindow } from '../judge/fix/plan.js';
import { realSignals, realSleep, type Signals } from '../ports/signals.js';
import { ancestry } from '../gather/procfs/processes.js';
import type { Command } from '../cli/registry.js';
import { obtainSnapshotWithSource } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';
import { optionSpec } from '../cli/options.js';
import { failOnWith, ignoredNote, loadConfig } from '../cli/config.js';
import { headerLines } from '../report/provenance.js';
import { t } from '../base/i18n/index.js';
import type { Words } from '../base/i18n/words.js';

export interface FixDeps {
  signals: Signals;
  sleep(ms: number): Promise<void>;
}

export const command: Command = {
  name: 'fix',
  get summary() {
    return t('cmd.fix.summary');
  },
  synopsis: 'fix [OPTIONS]',
  get description() {
    return t('cmd.fix.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor fix', t('cmd.fix.example1')],
      ['gpu-env-doctor fix --dry-run', t('cmd.fix.example2')],
      ['gpu-env-doctor fix --yes --grace 10', t('cmd.fix.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.fix.exitCodes');
  },
  options: optionSpec('fix'),
  run: (ctx, args, words) => runFix(words, ctx, args, { signals: realSignals, sleep: realSleep }),
};

export async function runFix(words: Words, ctx: Context, args: ParsedArgs, deps: FixDeps): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(t('usage.fix.noArgs', { arg: args.positionals[0] ?? '' }));
  const config = loadConfig(
    ctx,
    args,
    ALL_CHECKS.map((c) => c.id),
  );
  const threshold = failOnWith(str(args, 'fail-on'), config.failOn);
  const graceText = str(args, 'grace');
  const graceMs = graceText === undefined ? DEFAULT_GRACE_MS : Number(graceText) * 1000;
  if (!Number.isFinite(graceMs) || graceMs < 0 || graceMs > 600_000)
    throw new UsageError(t('usage.fix.grace', { value: graceText }));
  const envFile = str(args, 'env-out') ?? DEFAULT_ENV_FILE;
  if (envFile.trim() === '' || envFile.endsWith('/')) throw new UsageError(t('usage.fix.envOut', { value: envFile }));
  const json = flag(args, 'json');
  const fromSaved = str(args, 'from') !== undefined;

  const signalling: true | string = fromSaved
    ? t('fixc.savedSnapshot')
    : ctx.fs.root !== '/'
      ? t('fixc.root', { root: ctx.fs.root })
      : true;
  const ignored = new Set(config.ignore);
  const { snapshot, source } = await obtainSnapshotWithSource(words, ctx, args);
  const judged = runChecks(ALL_CHECKS, snapshot).flatMap((r) => r.findings);
  const findings = judged.filter((f) => !ignored.has(f.check));
  // what the config file (or --ignore) left out of the plan, said before the plan
  const note = ignoredNote(config, new Set(judged.map((f) => f.check)));
  if (note !== null) ctx.stderr.write(`gpu-env-doctor: fix: ${note}\n`);
  // Watch the candidates over a window: CPU, output files and GPU activity (read during it) show work.
  const sampled =
    signalling === true
      ? await sampleWindow(ctx.fs, candidatePids(snapshot), {
          now: ctx.now,
          sleep: deps.sleep,
          gpuActivity: () => readGpuActivity(ctx.runner),
        })
      : null;
  const live = new Map<number, LiveSample>();
  let window: SampleWindow | null = null;
  if (sampled && sampled.windowMs > 0) {
    const gpu = sampled.gpu;
    window = { ms: sampled.windowMs, gpu: gpu?.perProcess ? 'process' : gpu?.perGpu ? 'gpu' : 'none' };
    for (const [pid, l] of sampled.live) {
      const p = snapshot.processes.list.find((q) => q.pid === pid);
      live.set(pid, p && gpu ? { ...l, gpu: gpuWorkOf(p, snapshot, gpu) } : l);
    }
  }
  // Read live, not from the snapshot: the snapshot knows only which GPU holders are our ancestors.
  const ancestors = signalling === true ? ancestry(ctx.fs, ctx.pid) : new Set<number>();
  // Checked before the plan is shown (and again when writing): a refused env file is part of the plan.
  const envBlocked = fromSaved ? null : ctx.files.privateFileProblem(envFile);
  const plan = buildPlan({
    snapshot,
    findings,
    live,
    signalling,
    force: flag(args, 'force'),
    envFile,
    ancestors,
    envBlocked,
    window,
  });
  const ages = new Map(snapshot.processes.list.map((p) => [p.pid, p.ageSeconds]));
  // The plan acts on the facts; with --redact, what is printed (plan, question, results, the snapshot's
  // header) is a redacted copy.
  const redactor = redactorFor(ctx, args, { snapshot, plan });
  const view = shown(redactor, { plan, host: snapshot.host.name, source });
  const planText = () =>
    renderPlan(words, view.plan, {
      color: ctx.color,
      graceMs,
      host: view.host,
      ages,
      width: ctx.width ?? 80,
      source: headerLines(words, 'fix', view.source),
    });

  const finish = (mode: FixMode, r: FixResults | null): number => {
    const results = shown(redactor, r);
    if (json) ctx.stdout.write(`${JSON.stringify(planJson(view.plan, mode, results, ages), null, 2)}\n`);
    else if (results) ctx.stdout.write(renderResults(words, view.plan, results, { color: ctx.color }));
    return fixExitCode(plan, mode, r, threshold);
  };

  const dryRun = flag(args, 'dry-run') || fromSaved;
  if (dryRun || isEmpty(plan) || !hasActions(plan)) {
    if (!json) ctx.stdout.write(planText());
    if (fromSaved && !flag(args, 'dry-run') && (plan.processes.length > 0 || plan.env.length > 0))
      ctx.stderr.write(`gpu-env-doctor: fix: ${t('fixc.savedNothing')}\n`);
    return finish(fromSaved ? 'saved-snapshot' : 'dry-run', null);
  }

  if (!flag(args, 'yes')) {
    if (!isInteractive(ctx.stdin)) {
      if (!json) ctx.stdout.write(planText());
      finish('not-confirmed', null);
      ctx.stderr.write(`gpu-env-doctor: fix: ${t('fixc.noTerminal')}\n`);
      return 2;
    }
    (json ? ctx.stderr : ctx.stdout).write(planText());
    const ok = await askYesNo(ctx.stdin, ctx.stderr, `\n${describeActions(view.plan)}`);
    if (!ok) {
      ctx.stderr.write(`${t('fixc.nothingChanged')}\n`);
      return finish('declined', null);
    }
  } else if (!json) {
    ctx.stdout.write(planText());
  }
  return finish('applied', await apply(plan, ctx, deps, graceMs, ancestors));
}

function describeActions(plan: Plan): string {
  const n = plan.processes.filter((p) => !p.blocked).length;
  const parts = [
    ...(n > 0 ? [t('fixc.askEnd', { n })] : []),
    ...(plan.env.length > 0 && plan.envBlocked === null
      ? [t('fixc.askWrite', { n: plan.env.length, file: plan.envFile })]
      : []),
  ];
  return `${parts.join(t('fixc.and')).replace(/^./, (c) => c.toUpperCase())}${t('fixc.question')}`;
}

async function apply(
  plan: Plan,
  ctx: Context,
  deps: FixDeps,
  graceMs: number,
  ancestors: ReadonlySet<number>,
): Promise<FixResults> {
  // All at once: each step checks and signals only its own PID, so the grace periods need not add up.
  const outcomes = await Promise.all(
    plan.processes.map(
      async (st) =>
        [
          st.pid,
          await endProcess(st, {
            fs: ctx.fs,
            signals: deps.signals,
            sleep: deps.sleep,
            now: ctx.now,
            graceMs,
            ancestors,
          }),
        ] as const,
    ),
  );
  const processes = new Map<number, ProcessOutcome>(outcomes);
  // What is free now, on the GPUs of the processes that were ended: read again, not computed.
  const gpus = new Set(plan.processes.filter((st) => processes.get(st.pid)?.kind === 'ended').flatMap((st) => st.gpus));
  const gpuFree: GpuFree[] | null = gpus.size > 0 ? await readGpuFree(ctx.runner, deps.sleep, [...gpus]) : null;
  return { processes, envFile: writeEnvFile(plan, ctx.files), ...(gpuFree ? { gpuFree } : {}) };
}
