// The terminal report, in the style of `flutter doctor`: one line per area with ✓ ! ✗ ?, then the problems
// with their evidence and fix, then one summary line. `-v` adds every finding, the facts and probe timings.
import pc from 'picocolors';

type Colors = ReturnType<typeof pc.createColors>;
import { CATEGORIES, type Category } from '../checks/check.js';
import { consequenceText, type Finding } from '../core/finding.js';
import { fmtAge, fmtCmdline, fmtMiB, plural } from '../core/format.js';
import { isProblem } from '../core/result.js';
import type { Snapshot } from '../snapshot/schema.js';
import { frameworkLabel } from '../procs/framework.js';

export interface TerminalOptions {
  color: boolean;
  verbose: boolean;
  threshold: 'error' | 'warn';
  /** check id → category, from the check registry */
  categoryOf: (checkId: string) => Category;
  /** the command that reproduces with more detail, for the header */
  commandName?: string;
}

type Mark = '✓' | '!' | '✗' | '?' | '-';

export function renderTerminal(snapshot: Snapshot, findings: readonly Finding[], o: TerminalOptions): string {
  const c = o.color ? pc : pc.createColors(false);
  const paint = (m: Mark) => (m === '✓' ? c.green(m) : m === '!' ? c.yellow(m) : m === '✗' ? c.red(m) : m === '?' ? c.magenta(m) : c.dim(m));
  const lines: string[] = [];
  lines.push(`${c.bold('gpu-env-doctor')} on ${snapshot.host.name}${o.verbose ? '' : c.dim(` (details: ${o.commandName ?? 'gpu-env-doctor check'} -v)`)}`);

  const byCat = new Map<Category, Finding[]>();
  for (const f of findings) {
    const cat = o.categoryOf(f.check);
    byCat.set(cat, [...(byCat.get(cat) ?? []), f]);
  }
  for (const cat of Object.keys(CATEGORIES) as Category[]) {
    const fs = byCat.get(cat);
    if (!fs) continue;
    const mark = markFor(fs);
    const head = headline(fs, mark);
    lines.push(`[${paint(mark)}] ${CATEGORIES[cat]}${head ? `: ${head}` : ''}`);
    if (o.verbose) {
      for (const f of fs) {
        if (isProblem(f, 'warn')) continue; // shown below with details
        if (f.message === head) continue; // already the area's line
        lines.push(`    ${c.dim('•')} ${f.message}${f.status === 'skip' ? c.dim(' (skipped)') : ''}`);
      }
    }
  }

  const problems = findings.filter((f) => isProblem(f, 'warn') || f.status === 'unknown' || f.status === 'crash');
  if (problems.length > 0) {
    lines.push('');
    const sorted = [...problems].sort((a, b) => sevRank(b) - sevRank(a));
    for (const f of sorted) lines.push(...renderProblem(f, c, paint, o.verbose));
    lines.pop(); // renderProblem ends each block with a blank line
  }

  if (o.verbose) lines.push('', ...renderFacts(snapshot, c));

  lines.push('', summaryLine(findings, snapshot, c, o.threshold));
  return `${lines.join('\n')}\n`;
}

function sevRank(f: Finding): number {
  return (f.severity === 'error' ? 20 : f.severity === 'warn' ? 10 : 0) + (f.status === 'fail' ? 2 : f.status === 'unknown' ? 1 : 0);
}

function markFor(fs: readonly Finding[]): Mark {
  if (fs.some((f) => f.severity === 'error' && (f.status === 'fail' || f.status === 'crash'))) return '✗';
  if (fs.some((f) => f.status === 'unknown')) return '?';
  if (fs.some((f) => isProblem(f, 'warn') || f.status === 'crash')) return '!';
  if (fs.every((f) => f.status === 'skip')) return '-';
  return '✓';
}

function headline(fs: readonly Finding[], mark: Mark): string {
  if (mark === '✓' || mark === '-') {
    // For an area that was skipped, a skip that carries evidence (the check's own verdict) says more than
    // the runner's bare "not applicable" skips.
    const informative = fs.find((f) => f.status !== 'skip' && !f.message.endsWith(': ok')) ?? (mark === '-' ? (fs.find((f) => f.evidence.length > 0) ?? fs[0]) : undefined);
    return informative?.message ?? '';
  }
  const problems = fs.filter((f) => isProblem(f, 'warn') || f.status === 'unknown' || f.status === 'crash');
  if (problems.length === 1) return problems[0]!.message;
  return plural(problems.length, 'problem');
}

function renderProblem(f: Finding, c: Colors, paint: (m: Mark) => string, verbose = false): string[] {
  const mark: Mark = f.status === 'unknown' ? '?' : f.severity === 'error' ? '✗' : f.severity === 'warn' ? '!' : '✓';
  const out = [`${paint(mark)} ${c.bold(f.message)} ${c.dim(`[${f.check}${f.rootCause ? ` · ${f.rootCause}` : ''}]`)}`];
  if (f.details) out.push(...indent(f.details, '    '));
  for (const q of f.consequences ?? []) out.push(...indent(consequenceText(q, verbose, c.dim), '    → '));
  for (const e of f.evidence) out.push(...indent(`${e.text}${e.source ? c.dim(`   (${e.source}${e.line !== undefined ? `:${e.line}` : ''})`) : ''}`, `    ${c.dim('│')} `));
  if (f.fix) {
    out.push(...indent(`${c.cyan('Fix:')} ${f.fix.text}`, '    '));
    for (const cmd of f.fix.commands) out.push(`      ${c.dim('$')} ${cmd}`);
    for (const m of f.fix.manual ?? []) out.push(`      ${c.dim('# check first:')} ${m}`);
  }
  out.push('');
  return out;
}

function indent(text: string, prefix: string): string[] {
  return text.split('\n').map((l) => `${prefix}${l}`);
}

function summaryLine(findings: readonly Finding[], s: Snapshot, c: Colors, threshold: 'error' | 'warn'): string {
  const errors = findings.filter((f) => f.severity === 'error' && isProblem(f, 'error')).length;
  const warns = findings.filter((f) => f.severity === 'warn' && isProblem(f, 'warn')).length;
  const unknown = findings.filter((f) => f.status === 'unknown').length;
  const checks = new Set(findings.map((f) => f.check)).size;
  const ms = s.probes.reduce((a, p) => Math.max(a, p.durationMs), 0);
  const parts = [plural(errors, 'error'), plural(warns, 'warning')];
  if (unknown > 0) parts.push(`${unknown} unknown`);
  const failing = findings.some((f) => isProblem(f, threshold));
  const mark = errors > 0 ? c.red('✗') : warns > 0 ? c.yellow('!') : c.green('✓');
  return `${mark} ${parts.join(', ')} · ${plural(checks, 'check')} · slowest probe ${Math.round(ms)} ms${failing ? '' : c.dim(' · nothing at or above --fail-on ' + threshold)}`;
}

function renderFacts(s: Snapshot, c: Colors): string[] {
  const out: string[] = [c.bold('Facts')];
  out.push(`  system: ${s.system.os ?? '?'}, kernel ${s.system.kernel ?? '?'}, ${s.system.arch}, container: ${s.system.container.kind}${s.system.wsl ? ', WSL' : ''}`);
  if (s.nvidia.ok) {
    out.push(`  driver ${s.nvidia.driverVersion}, CUDA ≤ ${s.nvidia.cudaVersion ?? '?'}${s.system.kernelModule ? `, kernel module ${s.system.kernelModule.version ?? '?'}` : ''}`);
    for (const g of s.nvidia.gpus) {
      out.push(
        `  GPU ${g.index}: ${g.name} (sm ${g.computeCapability ?? '?'}, ${g.busId}, ${g.uuid}) memory ${fmtMiB(g.memory.usedMiB)} used / ${fmtMiB(g.memory.totalMiB)}, ${fmtMiB(g.memory.freeMiB)} free; persistence ${g.persistenceMode ?? '?'}, compute mode ${g.computeMode ?? '?'}, MIG ${g.migMode ?? 'n/a'}, ECC ${g.ecc.mode ?? 'n/a'}`,
      );
    }
  } else {
    out.push(`  nvidia-smi: ${s.nvidia.failure.message}`);
  }
  for (const p of s.processes.list) {
    out.push(
      `  PID ${p.pid} ${p.user ?? '?'} ${p.state ?? '?'} GPU ${p.gpus.join(',') || '-'} ${fmtMiB(p.usedMiB)} age ${fmtAge(p.ageSeconds)} ppid ${p.ppid ?? '?'}${p.orphaned ? ' (orphaned)' : ''}${p.framework ? ` ${frameworkLabel(p.framework.name)} (${p.framework.evidence[0] ?? 'maps'})` : ''}: ${fmtCmdline(p.cmdline)}`,
    );
  }
  const envKeys = Object.keys(s.env).filter((k) => k !== 'PATH');
  if (envKeys.length > 0) out.push(`  env: ${envKeys.map((k) => `${k}=${s.env[k]}`).join(' ')}`);
  out.push(`  ${c.bold('probes')}: ${s.probes.map((p) => `${p.id} ${p.durationMs} ms${p.ok ? '' : ` (${p.message ?? 'failed'})`}`).join(', ')}`);
  return out;
}
