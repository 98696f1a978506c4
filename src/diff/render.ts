// Renderers of a DiffResult: terminal (grouped by impact, the reason under the serious ones) and Markdown.
import pc from 'picocolors';
import { plural } from '../core/format.js';
import type { Impact } from './facts.js';
import type { Difference, DiffResult, DiffSide } from './compare.js';

const ABSENT = '(not set)';
const MAX_VALUE = 100;

function show(v: string | null, notCollected: boolean): string {
  if (notCollected) return '(not collected)';
  if (v === null) return ABSENT;
  return v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE - 1)}…` : v;
}

function describeSide(s: DiffSide): string {
  return `${s.label}${s.label === s.host ? '' : ` (${s.host})`}, ${s.collectedAt}`;
}

export function countsByImpact(d: readonly Difference[]): Partial<Record<Impact, number>> {
  const out: Partial<Record<Impact, number>> = {};
  for (const x of d) out[x.impact] = (out[x.impact] ?? 0) + 1;
  return out;
}

function summary(r: DiffResult): string {
  const counts = countsByImpact(r.differences);
  const parts = (['critical', 'high', 'medium', 'low', 'noise'] as const).filter((i) => counts[i]).map((i) => `${counts[i]} ${i}`);
  const head = r.differences.length === 0 ? 'No differences that matter' : `${plural(r.differences.length, 'difference')} (${parts.join(', ')})`;
  const tail = [`${r.same} facts the same`];
  if (r.hiddenNoise > 0) tail.push(`${plural(r.hiddenNoise, 'noise difference')} hidden (--all shows them)`);
  return `${head} · ${tail.join(' · ')}`;
}

export function renderDiffTerminal(r: DiffResult, o: { color: boolean; verbose: boolean }): string {
  const c = o.color ? pc : pc.createColors(false);
  const paint: Record<Impact, (s: string) => string> = { critical: c.red, high: c.yellow, medium: c.cyan, low: c.dim, noise: c.dim };
  const lines = [`${c.bold('A')} ${describeSide(r.a)}`, `${c.bold('B')} ${describeSide(r.b)}`, ''];
  let current: Impact | null = null;
  const width = Math.min(40, Math.max(0, ...r.differences.map((d) => d.fact.length)));
  for (const d of r.differences) {
    if (d.impact !== current) {
      current = d.impact;
      lines.push(paint[d.impact](c.bold(d.impact)));
    }
    const a = show(d.a, d.notCollected === 'a');
    const b = show(d.b, d.notCollected === 'b');
    lines.push(`  ${d.fact.padEnd(width)}  ${a} ${c.dim('→')} ${b}`);
    // The reason is the point of ranking: say it for what most likely matters, for everything with -v.
    if (o.verbose || d.impact === 'critical' || d.impact === 'high') lines.push(`  ${' '.repeat(width)}  ${c.dim(d.why)}`);
  }
  if (r.differences.length > 0) lines.push('');
  lines.push(summary(r));
  return `${lines.join('\n')}\n`;
}

/** Markdown-safe cell: pipes escaped, newlines folded, code spans for values. */
function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
function code(s: string): string {
  const v = cell(s);
  const fence = v.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ' ' : ''}${v}${fence === '``' ? ' ' : ''}${fence}`;
}

export function renderDiffMarkdown(r: DiffResult): string {
  const lines = [
    `## gpu-env-doctor diff`,
    '',
    `- **A**: ${cell(describeSide(r.a))}`,
    `- **B**: ${cell(describeSide(r.b))}`,
    '',
  ];
  if (r.differences.length > 0) {
    lines.push('| impact | fact | A | B | why it matters |', '| --- | --- | --- | --- | --- |');
    for (const d of r.differences) {
      lines.push(`| ${d.impact} | ${code(d.fact)} | ${code(show(d.a, d.notCollected === 'a'))} | ${code(show(d.b, d.notCollected === 'b'))} | ${cell(d.why)} |`);
    }
    lines.push('');
  }
  lines.push(summary(r));
  return `${lines.join('\n')}\n`;
}
