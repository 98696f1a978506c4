// Renderers of a DiffResult: terminal (grouped by impact; within an impact, the differences that matter for
// the same reason are listed under that reason, said once) and Markdown (escaped by reporters/escape.ts).
import { plural } from '../core/format.js';
import { mdCell, mdCode, mdText, visibleLine } from '../reporters/escape.js';
import { palette, wrap } from '../reporters/layout.js';
import { fmtTaken } from '../reporters/provenance.js';
import { fmtAge } from '../core/format.js';
import type { Impact } from './facts.js';
import type { Difference, DiffResult, DiffSide } from './compare.js';

const ABSENT = '(not set)';
const MAX_VALUE = 100;
/** rows shown per reason before "… N more" (-v shows them all) */
const MAX_ROWS = 6;

function show(v: string | null, notCollected: boolean): string {
  if (notCollected) return '(not collected)';
  if (v === null) return ABSENT;
  return v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE - 1)}…` : v;
}

function describeSide(s: DiffSide, nowMs: number): string {
  const t = Date.parse(s.collectedAt);
  const ago = Number.isFinite(t) ? `, ${fmtAge(Math.max(0, (nowMs - t) / 1000))} ago` : '';
  return `${s.label}${s.label === s.host ? '' : ` (host ${s.host})`}, taken ${fmtTaken(s.collectedAt)}${ago}`;
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
  if (r.hiddenNoise > 0) tail.push(`${plural(r.hiddenNoise, 'difference')} of the moment hidden (--all shows them)`);
  return `${head} · ${tail.join(' · ')}`;
}

/** Consecutive differences of one impact and one reason. */
function groups(ds: readonly Difference[]): { impact: Impact; why: string; rows: Difference[] }[] {
  const out: { impact: Impact; why: string; rows: Difference[] }[] = [];
  for (const d of ds) {
    const g = out.find((x) => x.impact === d.impact && x.why === d.why);
    if (g) g.rows.push(d);
    else out.push({ impact: d.impact, why: d.why, rows: [d] });
  }
  return out;
}

export function renderDiffTerminal(r: DiffResult, o: { color: boolean; verbose: boolean; width?: number; now?: number }): string {
  const c = palette(o.color);
  const width = o.width ?? 80;
  const now = o.now ?? Date.now();
  const paint: Record<Impact, (s: string) => string> = { critical: c.red, high: c.yellow, medium: c.cyan, low: c.dim, noise: c.dim };
  const lines = [...wrap(`${c.bold('A')} ${visibleLine(describeSide(r.a, now))}`, width, '', '  '), ...wrap(`${c.bold('B')} ${visibleLine(describeSide(r.b, now))}`, width, '', '  ')];
  let current: Impact | null = null;
  for (const g of groups(r.differences)) {
    if (g.impact !== current) {
      current = g.impact;
      lines.push('', paint[g.impact](c.bold(g.impact)));
    }
    // The reason once for the group: it is the point of ranking.
    lines.push(...wrap(c.dim(`${g.why}:`), width, '  ', '  '));
    const rows = o.verbose ? g.rows : g.rows.slice(0, MAX_ROWS);
    for (const d of rows) {
      const name = o.verbose ? d.fact : d.label;
      lines.push(...wrap(`${visibleLine(name)}: ${visibleLine(show(d.a, d.notCollected === 'a'))} ${c.dim('→')} ${visibleLine(show(d.b, d.notCollected === 'b'))}`, width, '    ', '      '));
    }
    if (rows.length < g.rows.length) lines.push(c.dim(`    … ${g.rows.length - rows.length} more (-v shows them)`));
  }
  lines.push('', ...wrap(summary(r), width, '', '  '));
  return `${lines.join('\n')}\n`;
}

export function renderDiffMarkdown(r: DiffResult, o: { now?: number } = {}): string {
  const now = o.now ?? Date.now();
  const lines = ['### gpu-env-doctor diff', '', `- **A**: ${mdText(describeSide(r.a, now))}`, `- **B**: ${mdText(describeSide(r.b, now))}`, ''];
  if (r.differences.length > 0) {
    lines.push('| impact | fact | A | B | why it matters |', '| --- | --- | --- | --- | --- |');
    for (const d of r.differences) {
      lines.push(`| ${d.impact} | ${mdCode(d.fact, true)} | ${mdCode(show(d.a, d.notCollected === 'a'), true)} | ${mdCode(show(d.b, d.notCollected === 'b'), true)} | ${mdCell(d.why)} |`);
    }
    lines.push('');
  }
  lines.push(mdText(summary(r)));
  return `${lines.join('\n')}\n`;
}
