// The fleet in the terminal: configurations, outliers with how they differ, splits, findings across machines.
// Long machine lists are cut (-v shows them whole): 10,000 names help nobody in a terminal.
import pc from 'picocolors';
import type { Words } from '../../base/i18n/words.js';
import { displayWidth } from '../layout.js';
import type { FleetResult } from '../../judge/fleet/merge.js';

export function listNames(names: readonly string[], max: number): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} … (+${names.length - max})`;
}

const shown = (words: Words, v: string | null) => (v === null ? words.t('diff.notSet') : v);

export function renderFleetTerminal(words: Words, r: FleetResult, o: { color: boolean; verbose: boolean }): string {
  const c = o.color ? pc : pc.createColors(false);
  const max = o.verbose ? Number.POSITIVE_INFINITY : 5;
  const maxRows = o.verbose ? Number.POSITIVE_INFINITY : 20;
  const lines: string[] = [];
  const skipped = r.inputs.skipped.length;
  lines.push(
    `${c.bold(words.t('fleet.title'))}${words.t('facts.colon')}` +
      words.t('fleet.machinesFrom', { machines: r.machines, files: r.inputs.files }) +
      `${skipped > 0 ? c.yellow(words.t('fleet.skippedCount', { n: skipped })) : ''}`,
  );
  for (const s of r.inputs.skipped.slice(0, o.verbose ? undefined : 5))
    lines.push(`  ${c.yellow(words.t('fleet.skipped'))} ${s.file}${words.t('facts.colon')}${s.reason}`);
  if (!o.verbose && skipped > 5) lines.push(c.dim(`  ${words.t('fleet.moreList', { n: skipped - 5 })}`));
  if (r.duplicates.length > 0)
    lines.push(`  ${c.yellow('!')} ${words.t('fleet.duplicates', { names: listNames(r.duplicates, max) })}`);

  lines.push('', c.bold(words.t('fleet.configurations', { n: r.groups.length })));
  const width = String(r.groups[0]?.size ?? 0).length;
  for (const g of r.groups.slice(0, maxRows)) {
    lines.push(`  ${String(g.size).padStart(width)} × ${g.key}`);
    if (g.size <= 5 || o.verbose) lines.push(`  ${' '.repeat(width)}   ${c.dim(listNames(g.machines, max))}`);
  }
  if (r.groups.length > maxRows)
    lines.push(c.dim(`  ${words.t('fleet.moreConfigurations', { n: r.groups.length - maxRows })}`));

  lines.push('', c.bold(words.t('fleet.outliers', { n: r.outliers.length })) + c.dim(words.t('fleet.outliersNote')));
  if (r.outliers.length === 0) lines.push(`  ${c.green(words.t('fleet.none'))}`);
  for (const out of r.outliers.slice(0, maxRows)) {
    lines.push(`  ${c.bold(out.machine)}`);
    for (const d of out.differs.slice(0, o.verbose ? undefined : 6)) {
      const label = words.t(`diff.impact.${d.impact}`);
      const word = label + ' '.repeat(Math.max(0, 8 - displayWidth(label)));
      const mark = d.impact === 'critical' ? c.red(word) : d.impact === 'high' ? c.yellow(word) : c.dim(word);
      lines.push(
        `    ${mark} ${d.fact}${words.t('facts.colon')}${shown(words, d.value)} ` +
          `${c.dim(words.t('fleet.usual', { usual: shown(words, d.usual) }))}`,
      );
    }
    if (!o.verbose && out.differs.length > 6)
      lines.push(c.dim(`    ${words.t('fleet.more', { n: out.differs.length - 6 })}`));
  }
  if (r.outliers.length > maxRows)
    lines.push(c.dim(`  ${words.t('fleet.moreOutliers', { n: r.outliers.length - maxRows })}`));

  if (r.splits.length > 0) {
    lines.push('', c.bold(words.t('fleet.splits', { n: r.splits.length })) + c.dim(words.t('fleet.splitsNote')));
    for (const s of r.splits.slice(0, maxRows)) {
      const vs = s.values
        .slice(0, 4)
        .map((v) => words.t('fleet.valueOn', { value: shown(words, v.value), n: v.machines }));
      lines.push(
        `  ` +
          (`${s.fact}${words.t('facts.colon')}${words.joinList(vs)}` +
            (s.values.length > 4 ? c.dim(words.t('fleet.moreValues', { n: s.values.length - 4 })) : '')),
      );
    }
  }

  lines.push('', c.bold(words.t('fleet.findings')));
  if (r.findings.length === 0) lines.push(`  ${c.green('✓')} ${words.t('fleet.noFindings')}`);
  for (const f of r.findings) {
    const mark = f.severity === 'error' ? c.red('✗') : f.severity === 'warn' ? c.yellow('!') : c.dim('i');
    lines.push(
      `  ${mark} ${words.t('fleet.findingOn', { check: f.check, n: f.count })}${words.t('facts.colon')}${f.message}`,
    );
    lines.push(`    ${c.dim(listNames(f.machines, max))}`);
  }

  const errors = r.findings.filter((f) => f.severity === 'error').length;
  lines.push(
    '',
    words.t('fleet.summary', {
      machines: r.machines,
      groups: r.groups.length,
      outliers: r.outliers.length,
      errors,
      skipped,
    }),
  );
  return `${lines.join('\n')}\n`;
}
