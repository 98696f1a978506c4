// The plan and what came of it, as text and as JSON. Pure.
import { fmtAge, fmtCmdline, fmtMiB } from '../core/format.js';
import { visibleLine } from '../reporters/escape.js';
import { ACT_COMMAND, type FindingLines } from '../reporters/finding-lines.js';
import { palette, wrap } from '../reporters/layout.js';
import { renderBlock } from '../reporters/terminal.js';
import type { EnvFileOutcome, ProcessOutcome } from './apply.js';
import { settingLine } from './env-file.js';
import type { EndProcessStep, LeftAlone, Plan } from './plan.js';

export type FixMode = 'dry-run' | 'applied' | 'declined' | 'not-confirmed' | 'saved-snapshot';

export interface FixResults {
  processes: Map<number, ProcessOutcome>;
  envFile: EnvFileOutcome;
}

export function sourcePath(file: string): string {
  return file.startsWith('/') || file.startsWith('./') || file.startsWith('../') || file.startsWith('~') ? file : `./${file}`;
}

export function hasActions(plan: Plan): boolean {
  return plan.processes.some((p) => !p.blocked) || (plan.env.length > 0 && plan.envBlocked === null);
}

export function isEmpty(plan: Plan): boolean {
  return plan.processes.length === 0 && plan.env.length === 0 && plan.rebuild === null && plan.manual.length === 0 && plan.alreadyGone.length === 0;
}

function leftAloneLine(l: LeftAlone): string {
  const mem = l.usedMiB !== null ? `${fmtMiB(l.usedMiB)}${l.gpus.length > 0 ? ` on GPU ${l.gpus.join(',')}` : ''}` : 'memory ?';
  return `PID ${l.pid} (${l.user ?? '?'}) ${fmtCmdline(l.cmdline ?? (l.name ? [l.name] : null), 70)}: ${mem}; ${l.verdict}: ${l.why}`;
}

function stepLine(st: EndProcessStep, ageSeconds: number | null): string {
  // names and command lines are set by whoever started the process: shown with their control characters visible
  const who = visibleLine(st.parentOf !== undefined ? `PID ${st.pid} ${st.name ?? '?'} (${st.user ?? '?'})` : `PID ${st.pid} (${st.user ?? '?'}) ${fmtCmdline(st.cmdline, 70)}`);
  const mem = st.usedMiB !== null ? `${fmtMiB(st.usedMiB)}${st.gpus.length > 0 ? ` on GPU ${st.gpus.join(',')}` : ''}` : 'memory ?';
  const age = st.parentOf === undefined && ageSeconds !== null ? `, ${fmtAge(ageSeconds)} old` : '';
  return `${who}: ${mem}${age}; ${st.verdict}: ${visibleLine(st.why)}`;
}

export function renderPlan(plan: Plan, o: { color: boolean; graceMs: number; host: string; ages: ReadonlyMap<number, number | null>; width?: number; source?: { title: string; sub: string | null } }): string {
  const c = palette(o.color);
  const width = o.width ?? 80;
  const out: string[] = o.source?.sub
    ? [`${c.bold(visibleLine(o.source.title))}: the plan (nothing is done from a snapshot)`, `  ${c.dim(visibleLine(o.source.sub))}`]
    : [`${c.bold('gpu-env-doctor fix')} on ${visibleLine(o.host)}: the plan`];
  const leftAlone = () => {
    if (plan.leftAlone.length === 0) return;
    out.push('', c.bold('Left alone (fix does not end these):'));
    for (const l of plan.leftAlone) out.push(...wrap(`${c.dim('keep')} ${visibleLine(leftAloneLine(l))}`, width, '  ', '       '));
  };
  if (isEmpty(plan)) {
    out.push('', 'Nothing to fix: no stale GPU process, no setting to write, no problem found at warn level or above.');
    leftAlone();
    return `${out.join('\n')}\n`;
  }
  if (plan.processes.length > 0 || plan.alreadyGone.length > 0) {
    out.push('', c.bold(`Processes to end (SIGTERM, then SIGKILL after ${Math.round(o.graceMs / 100) / 10} s; each PID's start time is checked again first):`));
    for (const st of plan.processes) {
      const line = stepLine(st, o.ages.get(st.parentOf ?? st.pid) ?? null);
      if (st.blocked) out.push(...wrap(`${c.yellow('skip')} ${line}`, width, '  ', '       '), ...wrap(c.yellow(`not ended: ${visibleLine(st.blocked)}`), width, '       ', '         '));
      else out.push(...wrap(`${c.red('end ')} ${line}`, width, '  ', '       '));
    }
    for (const g of plan.alreadyGone) out.push(`  ${c.dim('gone')} ${visibleLine(g.why)}`);
  }
  leftAlone();
  if (plan.env.length > 0) {
    out.push('', c.bold(`Settings to write to ${sourcePath(plan.envFile)} (load it with: source ${sourcePath(plan.envFile)}):`));
    for (const s of plan.env) out.push(`  ${settingLine(s)}`);
    for (const s of plan.envConflicts) out.push(`  ${c.yellow('conflict')}: ${s.check} asks for ${s.name}=${visibleLine(s.value ?? '(unset)')}; kept the first value`);
    if (plan.envBlocked) out.push(`  ${c.yellow(`not written: ${visibleLine(plan.envBlocked)}`)}`);
  }
  if (plan.rebuild) {
    out.push('', c.bold('Rebuild the environment (run these yourself; fix never installs anything):'), `  ${plan.rebuild.why}`);
    for (const f of plan.rebuild.findings) out.push(`  ${c.dim('•')} ${f.message}`);
    for (const cmd of plan.rebuild.commands) out.push(`  $ ${cmd}`);
    for (const n of plan.rebuild.notes) out.push(`  ${c.dim(n)}`);
  }
  if (plan.manual.length > 0) {
    out.push('', c.bold('For you to do (installs, driver changes and anything else fix does not do itself):'));
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
      out.push(...renderBlock(fl, { width, c, verbose: false }, { indent: '  ' }));
    }
  }
  return `${out.join('\n')}\n`;
}

export function renderResults(plan: Plan, r: FixResults, o: { color: boolean }): string {
  const c = palette(o.color);
  const out: string[] = [''];
  for (const st of plan.processes) {
    const res = r.processes.get(st.pid);
    if (!res) continue;
    const name = st.parentOf !== undefined ? `PID ${st.pid} (parent of zombie ${st.parentOf})` : `PID ${st.pid}`;
    switch (res.kind) {
      case 'ended':
        out.push(`${c.green('✓')} ended ${name} (${res.by})`);
        break;
      case 'already-gone':
        out.push(`${c.green('✓')} ${name} had already exited`);
        break;
      case 'refused':
        out.push(`${c.red('✗')} refused ${name}: ${res.why}`);
        break;
      case 'failed':
        out.push(`${c.red('✗')} could not end ${name}: ${res.why}`);
        break;
      case 'skipped':
        out.push(`${c.yellow('-')} did not end ${name}: ${res.why}`);
        break;
    }
  }
  const e = r.envFile;
  if (e.kind === 'written') out.push(`${c.green('✓')} wrote ${sourcePath(e.path)}; load it in the job's shell: source ${sourcePath(e.path)}`);
  if (e.kind === 'unchanged') out.push(`${c.green('✓')} ${sourcePath(e.path)} already has these settings; load it in the job's shell: source ${sourcePath(e.path)}`);
  if (e.kind === 'not-written') out.push(`${c.red('✗')} did not write ${sourcePath(e.path)}: ${e.why}`);
  return `${out.join('\n')}\n`;
}

export function planJson(plan: Plan, mode: FixMode, r: FixResults | null, ages: ReadonlyMap<number, number | null>): unknown {
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
    rebuild: plan.rebuild && { why: plan.rebuild.why, frameworks: plan.rebuild.frameworks, commands: plan.rebuild.commands, notes: plan.rebuild.notes, findings: plan.rebuild.findings.map((f) => f.check) },
    manual: plan.manual,
    findings: plan.coverage.map((cv) => ({ check: cv.finding.check, severity: cv.finding.severity, rootCause: cv.finding.rootCause, message: cv.finding.message, by: cv.by, ...(cv.pids ? { pids: cv.pids } : {}) })),
  };
}
