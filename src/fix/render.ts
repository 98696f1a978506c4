// The plan and what came of it, as text and as JSON. Pure.
import pc from 'picocolors';
import { fmtAge, fmtCmdline, fmtMiB } from '../core/format.js';
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
  const who = st.parentOf !== undefined ? `PID ${st.pid} ${st.name ?? '?'} (${st.user ?? '?'})` : `PID ${st.pid} (${st.user ?? '?'}) ${fmtCmdline(st.cmdline, 70)}`;
  const mem = st.usedMiB !== null ? `${fmtMiB(st.usedMiB)}${st.gpus.length > 0 ? ` on GPU ${st.gpus.join(',')}` : ''}` : 'memory ?';
  const age = st.parentOf === undefined && ageSeconds !== null ? `, ${fmtAge(ageSeconds)} old` : '';
  return `${who}: ${mem}${age}; ${st.verdict}: ${st.why}`;
}

export function renderPlan(plan: Plan, o: { color: boolean; graceMs: number; host: string; ages: ReadonlyMap<number, number | null> }): string {
  const c = o.color ? pc : pc.createColors(false);
  const out: string[] = [`${c.bold('gpu-env-doctor fix')} on ${o.host}: the plan`];
  const leftAlone = () => {
    if (plan.leftAlone.length === 0) return;
    out.push('', c.bold('Left alone (fix does not end these):'));
    for (const l of plan.leftAlone) out.push(`  ${c.dim('keep')} ${leftAloneLine(l)}`);
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
      out.push(st.blocked ? `  ${c.yellow('skip')} ${line}\n       ${c.yellow(`not ended: ${st.blocked}`)}` : `  ${c.red('end ')} ${line}`);
    }
    for (const g of plan.alreadyGone) out.push(`  ${c.dim('gone')} ${g.why}`);
  }
  leftAlone();
  if (plan.env.length > 0) {
    out.push('', c.bold(`Settings to write to ${sourcePath(plan.envFile)} (load it with: source ${sourcePath(plan.envFile)}):`));
    for (const s of plan.env) out.push(`  ${settingLine(s)}`);
    for (const s of plan.envConflicts) out.push(`  ${c.yellow('conflict')}: ${s.check} asks for ${s.name}=${s.value ?? '(unset)'}; kept the first value`);
    if (plan.envBlocked) out.push(`  ${c.yellow(`not written: ${plan.envBlocked}`)}`);
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
      out.push(`  ${m.severity === 'error' ? c.red('✗') : c.yellow('!')} ${m.message}`);
      if (m.text) out.push(`    ${m.text}`);
      for (const cmd of m.commands) out.push(`    $ ${cmd}`);
      for (const cmd of m.manual) out.push(`    ${c.dim('(judge first)')} $ ${cmd}`);
    }
  }
  return `${out.join('\n')}\n`;
}

export function renderResults(plan: Plan, r: FixResults, o: { color: boolean }): string {
  const c = o.color ? pc : pc.createColors(false);
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
