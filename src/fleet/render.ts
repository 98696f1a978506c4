// The fleet in the terminal: configurations, outliers with how they differ, splits, findings across machines.
// Long machine lists are cut (-v shows them whole): 10,000 names help nobody in a terminal.
import pc from 'picocolors';
import { plural } from '../core/format.js';
import type { FleetResult } from './merge.js';

export function listNames(names: readonly string[], max: number): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} … (+${names.length - max})`;
}

const shown = (v: string | null) => (v === null ? '(not set)' : v);

export function renderFleetTerminal(r: FleetResult, o: { color: boolean; verbose: boolean }): string {
  const c = o.color ? pc : pc.createColors(false);
  const max = o.verbose ? Number.POSITIVE_INFINITY : 5;
  const maxRows = o.verbose ? Number.POSITIVE_INFINITY : 20;
  const lines: string[] = [];
  const skipped = r.inputs.skipped.length;
  lines.push(`${c.bold('Fleet')}: ${plural(r.machines, 'machine')} from ${plural(r.inputs.files, 'file')}${skipped > 0 ? c.yellow(`, ${skipped} skipped`) : ''}`);
  for (const s of r.inputs.skipped.slice(0, o.verbose ? undefined : 5)) lines.push(`  ${c.yellow('skipped')} ${s.file}: ${s.reason}`);
  if (!o.verbose && skipped > 5) lines.push(c.dim(`  … ${skipped - 5} more (-v lists them)`));
  if (r.duplicates.length > 0) lines.push(`  ${c.yellow('!')} host names in more than one file: ${listNames(r.duplicates, max)}`);

  lines.push('', c.bold(`Configurations (${r.groups.length})`));
  const width = String(r.groups[0]?.size ?? 0).length;
  for (const g of r.groups.slice(0, maxRows)) {
    lines.push(`  ${String(g.size).padStart(width)} × ${g.key}`);
    if (g.size <= 5 || o.verbose) lines.push(`  ${' '.repeat(width)}   ${c.dim(listNames(g.machines, max))}`);
  }
  if (r.groups.length > maxRows) lines.push(c.dim(`  … ${r.groups.length - maxRows} more configurations (-v lists them)`));

  lines.push('', c.bold(`Outliers (${r.outliers.length})`) + c.dim(' machines whose value differs from what most of the fleet has'));
  if (r.outliers.length === 0) lines.push(`  ${c.green('none')}`);
  for (const out of r.outliers.slice(0, maxRows)) {
    lines.push(`  ${c.bold(out.machine)}`);
    for (const d of out.differs.slice(0, o.verbose ? undefined : 6)) {
      const word = d.impact.padEnd(8);
      const mark = d.impact === 'critical' ? c.red(word) : d.impact === 'high' ? c.yellow(word) : c.dim(word);
      lines.push(`    ${mark} ${d.fact}: ${shown(d.value)} ${c.dim(`(usual: ${shown(d.usual)})`)}`);
    }
    if (!o.verbose && out.differs.length > 6) lines.push(c.dim(`    … ${out.differs.length - 6} more`));
  }
  if (r.outliers.length > maxRows) lines.push(c.dim(`  … ${r.outliers.length - maxRows} more outliers (-v or --json lists them)`));

  if (r.splits.length > 0) {
    lines.push('', c.bold(`Split facts (${r.splits.length})`) + c.dim(' no value held by two thirds of the fleet'));
    for (const s of r.splits.slice(0, maxRows)) {
      const vs = s.values.slice(0, 4).map((v) => `${shown(v.value)} on ${v.machines}`);
      lines.push(`  ${s.fact}: ${vs.join('; ')}${s.values.length > 4 ? c.dim(` … ${s.values.length - 4} more values`) : ''}`);
    }
  }

  lines.push('', c.bold('Findings across the fleet'));
  if (r.findings.length === 0) lines.push(`  ${c.green('✓')} no check reported a problem on any machine`);
  for (const f of r.findings) {
    const mark = f.severity === 'error' ? c.red('✗') : f.severity === 'warn' ? c.yellow('!') : c.dim('i');
    lines.push(`  ${mark} ${f.check} on ${plural(f.count, 'machine')}: ${f.message}`);
    lines.push(`    ${c.dim(listNames(f.machines, max))}`);
  }

  const errors = r.findings.filter((f) => f.severity === 'error').length;
  lines.push(
    '',
    `${plural(r.machines, 'machine')} · ${plural(r.groups.length, 'configuration')} · ${plural(r.outliers.length, 'outlier')} · ${plural(errors, 'check')} failing with errors${skipped > 0 ? ` · ${skipped} files skipped` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
