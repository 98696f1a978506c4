// The plan and what came of it, as text and as JSON. Pure.
import { fmtAge, fmtCmdline, fmtMiB } from '../../base/format.js';
import { visibleLine } from '../escape.js';
import { ACT_COMMAND, type FindingLines } from '../finding-lines.js';
import { fitCommandLine, palette, wrap } from '../layout.js';
import { renderBlock } from '../terminal.js';
import type { EnvFileOutcome, ProcessOutcome } from '../../judge/fix/outcome.js';
import type { GpuFree } from '../../gather/nvidia/gpu-free.js';
import { settingLine } from '../../judge/fix/env-file.js';
import type { EndProcessStep, LeftAlone, Plan } from '../../judge/fix/plan.js';
import type { Words } from '../../base/i18n/words.js';

export type FixMode = 'dry-run' | 'applied' | 'declined' | 'not-confirmed' | 'saved-snapshot';

export interface FixResults {
  processes: Map<number, ProcessOutcome>;
  envFile: EnvFileOutcome;
  /** the GPUs of the ended processes, read again afterwards */
  gpuFree?: GpuFree[];
}

export function sourcePath(file: string): string {
  return file.startsWith('/') || file.startsWith('./') || file.startsWith('../') || file.startsWith('~')
    ? file
    : `./${file}`;
}

export function hasActions(plan: Plan): boolean {
  return plan.processes.some((p) => !p.blocked) || (plan.env.length > 0 && plan.envBlocked === null);
}

export function isEmpty(plan: Plan): boolean {
  return (
    plan.processes.length === 0 &&
    plan.env.length === 0 &&
    plan.rebuild === null &&
    plan.manual.length === 0 &&
    plan.alreadyGone.length === 0
  );
}

function leftAloneLine(words: Words, l: LeftAlone): string {
  const mem =
    l.usedMiB !== null
      ? l.gpus.length > 0
        ? words.t('plan.onGpu', { mib: fmtMiB(l.usedMiB), gpus: l.gpus.join(',') })
        : fmtMiB(l.usedMiB)
      : words.t('plan.memUnknown');
  return words.t('plan.leftAloneLine', {
    pid: l.pid,
    user: l.user ?? '?',
    cmd: fmtCmdline(l.cmdline ?? (l.name ? [l.name] : null), 70),
    mem,
    verdict: words.t(`verdict.${l.verdict}` as const),
    why: l.why,
  });
}

function stepLine(words: Words, st: EndProcessStep, ageSeconds: number | null): string {
  // names and command lines are set by whoever started the process: shown with their control characters visible
  const who = visibleLine(
    st.parentOf !== undefined
      ? `PID ${st.pid} ${st.name ?? '?'} (${st.user ?? '?'})`
      : `PID ${st.pid} (${st.user ?? '?'}) ${fmtCmdline(st.cmdline, 70)}`,
  );
  const mem =
    st.usedMiB !== null
      ? st.gpus.length > 0
        ? words.t('plan.onGpu', { mib: fmtMiB(st.usedMiB), gpus: st.gpus.join(',') })
        : fmtMiB(st.usedMiB)
      : words.t('plan.memUnknown');
  const verdict = words.t(`verdict.${st.verdict}` as const);
  return st.parentOf === undefined && ageSeconds !== null
    ? words.t('plan.stepLineAge', { who, mem, age: fmtAge(ageSeconds), verdict, why: visibleLine(st.why) })
    : words.t('plan.stepLine', { who, mem, verdict, why: visibleLine(st.why) });
}

export function renderPlan(
  words: Words,
  plan: Plan,
  o: {
    color: boolean;
    graceMs: number;
    host: string;
    ages: ReadonlyMap<number, number | null>;
    width?: number;
    source?: { title: string; sub: string | null };
  },
): string {
  const c = palette(o.color);
  const width = o.width ?? 80;
  // a heading wrapped to the terminal, its continuation indented
  const head = (text: string, first = '', rest = '  ') => wrap(words, c.bold(text), width, first, rest);
  const out: string[] = o.source?.sub
    ? [
        ...head(words.t('plan.titleSnapshot', { title: visibleLine(o.source.title) })),
        ...wrap(words, c.dim(visibleLine(o.source.sub)), width, '  ', '    '),
      ]
    : [...head(words.t('plan.titleLive', { host: visibleLine(o.host) }))];
  const leftAlone = () => {
    if (plan.leftAlone.length === 0) return;
    out.push('', ...head(words.t('plan.leftAlone')));
    for (const l of plan.leftAlone)
      out.push(
        ...wrap(
          words,
          `${c.dim(words.t('plan.keep'))} ${visibleLine(leftAloneLine(words, l))}`,
          width,
          '  ',
          '       ',
        ),
      );
  };
  if (isEmpty(plan)) {
    out.push('', ...wrap(words, words.t('plan.nothing'), width));
    leftAlone();
    return `${out.join('\n')}\n`;
  }
  if (plan.processes.length > 0 || plan.alreadyGone.length > 0) {
    out.push('', ...head(words.t('plan.toEnd', { grace: Math.round(o.graceMs / 100) / 10 })));
    for (const st of plan.processes) {
      const line = stepLine(words, st, o.ages.get(st.parentOf ?? st.pid) ?? null);
      if (st.blocked)
        out.push(
          ...wrap(words, `${c.yellow(words.t('plan.skip'))} ${line}`, width, '  ', '       '),
          ...wrap(
            words,
            c.yellow(words.t('plan.notEnded', { why: visibleLine(st.blocked) })),
            width,
            '       ',
            '         ',
          ),
        );
      else out.push(...wrap(words, `${c.red(words.t('plan.end'))} ${line}`, width, '  ', '       '));
    }
    for (const g of plan.alreadyGone) out.push(`  ${c.dim(words.t('plan.gone'))} ${visibleLine(g.why)}`);
    if (plan.window)
      out.push(
        ...wrap(
          words,
          c.dim(
            words.t('plan.window', {
              s: Math.round(plan.window.ms / 100) / 10,
              gpu: words.t(`plan.windowGpu.${plan.window.gpu}` as const),
            }),
          ),
          width,
          '  ',
          '  ',
        ),
      );
  }
  leftAlone();
  if (plan.env.length > 0) {
    out.push('', c.bold(words.t('plan.settings', { file: sourcePath(plan.envFile) })));
    for (const s of plan.env) out.push(`  ${settingLine(s)}`);
    for (const s of plan.envConflicts)
      out.push(
        `  ${c.yellow(words.t('plan.conflict'))}: ` +
          words.t('plan.conflictLine', {
            check: s.check,
            name: s.name,
            value: visibleLine(s.value ?? words.t('plan.unset')),
          }),
      );
    if (plan.envBlocked) out.push(`  ${c.yellow(words.t('plan.notWritten', { why: visibleLine(plan.envBlocked) }))}`);
  }
  if (plan.rebuild) {
    out.push('', c.bold(words.t('plan.rebuild')), `  ${plan.rebuild.why}`);
    for (const f of plan.rebuild.findings) out.push(`  ${c.dim('•')} ${f.message}`);
    for (const cmd of plan.rebuild.commands) out.push(...fitCommandLine(`  $ ${cmd}`, width));
    for (const n of plan.rebuild.notes) out.push(`  ${c.dim(n)}`);
  }
  if (plan.manual.length > 0) {
    out.push('', ...head(words.t('plan.forYou')));
    for (const m of plan.manual) {
      // The one finding model, without the acting command: this is it.
      const fl: FindingLines = {
        mark: m.severity === 'error' ? 'fail' : 'warn',
        headline: m.message,
        details: [],
        consequences: [],
        evidence: [],
        fix: { text: m.text, commands: m.commands.filter((x) => x.trim() !== ACT_COMMAND), byHand: m.manual },
        ids: [m.check],
      };
      out.push(...renderBlock(words, fl, { width, c, verbose: false }, { indent: '  ' }));
    }
  }
  return `${out.join('\n')}\n`;
}

export function renderResults(words: Words, plan: Plan, r: FixResults, o: { color: boolean }): string {
  const c = palette(o.color);
  const out: string[] = [''];
  for (const st of plan.processes) {
    const res = r.processes.get(st.pid);
    if (!res) continue;
    const name =
      st.parentOf !== undefined
        ? words.t('plan.parentOfZombie', { pid: st.pid, zombie: st.parentOf })
        : `PID ${st.pid}`;
    switch (res.kind) {
      case 'ended':
        out.push(`${c.green('✓')} ${words.t('plan.ended', { name, by: res.by })}`);
        break;
      case 'already-gone':
        out.push(`${c.green('✓')} ${words.t('plan.alreadyExited', { name })}`);
        break;
      case 'refused':
        out.push(`${c.red('✗')} ${words.t('plan.refused', { name, why: res.why })}`);
        break;
      case 'failed':
        out.push(`${c.red('✗')} ${words.t('plan.couldNotEnd', { name, why: res.why })}`);
        break;
      case 'skipped':
        out.push(`${c.yellow('-')} ${words.t('plan.didNotEnd', { name, why: res.why })}`);
        break;
    }
  }
  const e = r.envFile;
  if (e.kind === 'written') out.push(`${c.green('✓')} ${words.t('plan.wrote', { file: sourcePath(e.path) })}`);
  if (e.kind === 'unchanged') out.push(`${c.green('✓')} ${words.t('plan.unchanged', { file: sourcePath(e.path) })}`);
  if (e.kind === 'not-written')
    out.push(`${c.red('✗')} ${words.t('plan.didNotWrite', { file: sourcePath(e.path), why: e.why })}`);
  for (const g of r.gpuFree ?? [])
    out.push(
      `${c.green('✓')} ` +
        `${words.t('plan.gpuFreeNow', { gpu: g.index, free: fmtMiB(g.freeMiB), total: fmtMiB(g.totalMiB) })}`,
    );
  return `${out.join('\n')}\n`;
}

export function planJson(
  plan: Plan,
  mode: FixMode,
  r: FixResults | null,
  ages: ReadonlyMap<number, number | null>,
): unknown {
  return {
    schemaVersion: 1,
    mode,
    processes: plan.processes.map((st) => ({
      pid: st.pid,
      startedAt: st.startedAt,
      ageSeconds: ages.get(st.parentOf ?? st.pid) ?? null,
      uid: st.uid,
      user: st.user,
      name: st.name,
      cmdline: st.cmdline,
      verdict: st.verdict,
      why: st.why,
      ...(st.evidence ? { evidence: st.evidence } : {}),
      usedMiB: st.usedMiB,
      gpus: st.gpus,
      ...(st.parentOf !== undefined ? { parentOf: st.parentOf } : {}),
      action: st.blocked ? 'skip' : 'end',
      ...(st.blocked ? { blocked: st.blocked } : {}),
      ...(r?.processes.get(st.pid) ? { outcome: r.processes.get(st.pid) } : {}),
    })),
    leftAlone: plan.leftAlone,
    alreadyGone: plan.alreadyGone,
    env: {
      file: plan.envFile,
      ...(plan.envBlocked ? { blocked: plan.envBlocked } : {}),
      settings: plan.env.map((s) => ({ name: s.name, value: s.value, check: s.check, why: s.why })),
      conflicts: plan.envConflicts,
      ...(r ? { outcome: r.envFile.kind, ...(r.envFile.kind === 'not-written' ? { why: r.envFile.why } : {}) } : {}),
    },
    rebuild: plan.rebuild && {
      why: plan.rebuild.why,
      frameworks: plan.rebuild.frameworks,
      commands: plan.rebuild.commands,
      notes: plan.rebuild.notes,
      findings: plan.rebuild.findings.map((f) => f.check),
    },
    ...(plan.window
      ? { window: { seconds: Math.round(plan.window.ms / 100) / 10, gpuActivity: plan.window.gpu } }
      : {}),
    ...(r?.gpuFree ? { gpuFreeAfter: r.gpuFree } : {}),
    manual: plan.manual,
    findings: plan.coverage.map((cv) => ({
      check: cv.finding.check,
      severity: cv.finding.severity,
      rootCause: cv.finding.rootCause,
      message: cv.finding.message,
      by: cv.by,
      ...(cv.pids ? { pids: cv.pids } : {}),
    })),
  };
}
