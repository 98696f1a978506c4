// Renderers of a DiffResult: terminal (grouped by impact; within an impact, the differences that matter for
// the same reason are listed under that reason, said once) and Markdown (escaped by reporters/escape.ts).
import { fitToWidth } from '../fit.js';
import { mdCell, mdCode, mdText, visibleLine } from '../escape.js';
import { palette, wrap } from '../layout.js';
import { fmtTaken } from '../provenance.js';
import { fmtAge } from '../../base/format.js';
import type { Impact } from '../../judge/diff/facts.js';
import type { Words } from '../../base/i18n/words.js';
import type { Difference, DiffResult, DiffSide } from '../../judge/diff/compare.js';

const MAX_VALUE = 100;
/** rows shown per reason before "… N more" (-v shows them all) */
const MAX_ROWS = 6;

/** an absent value in the words of its fact: a variable is not set, a library or package is not installed */
function show(words: Words, v: string | null, notCollected: boolean, fact = ''): string {
  if (notCollected) return words.t('diff.notCollected');
  if (v === null)
    return /^env\[/.test(fact)
      ? words.t('diff.notSet')
      : /^(?:loads|copies|framework|wheel|python|toolkit|cudnn)/.test(fact)
        ? words.t('diff.notInstalled')
        : words.t('diff.absent');
  return v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE - 1)}…` : v;
}

function describeSide(words: Words, s: DiffSide, nowMs: number): string {
  const at = Date.parse(s.collectedAt);
  return words.t('diff.side', {
    label: s.label,
    otherHost: s.label !== s.host,
    host: s.host,
    taken: fmtTaken(s.collectedAt),
    known: Number.isFinite(at),
    ago: Number.isFinite(at) ? fmtAge(Math.max(0, (nowMs - at) / 1000)) : '',
  });
}

export function countsByImpact(d: readonly Difference[]): Partial<Record<Impact, number>> {
  const out: Partial<Record<Impact, number>> = {};
  for (const x of d) out[x.impact] = (out[x.impact] ?? 0) + 1;
  return out;
}

function summary(words: Words, r: DiffResult): string {
  const counts = countsByImpact(r.differences);
  const parts = (['critical', 'high', 'medium', 'low', 'noise'] as const)
    .filter((i) => counts[i])
    .map((i) => words.t('diff.impactCount', { n: counts[i]!, impact: words.t(`diff.impact.${i}`) }));
  const head =
    r.differences.length === 0
      ? words.t('diff.noDifferences')
      : words.t('diff.differences', { n: r.differences.length, parts: words.joinList(parts, 'comma') });
  const tail = [words.t('diff.same', { n: r.same })];
  if (r.hiddenNoise > 0) tail.push(words.t('diff.hidden', { n: r.hiddenNoise }));
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

export function renderDiffTerminal(
  words: Words,
  r: DiffResult,
  o: { color: boolean; verbose: boolean; width?: number; now?: number },
): string {
  const c = palette(o.color);
  const width = o.width ?? 80;
  const now = o.now ?? Date.now();
  const paint: Record<Impact, (s: string) => string> = {
    critical: c.red,
    high: c.yellow,
    medium: c.cyan,
    low: c.dim,
    noise: c.dim,
  };
  const lines = [
    ...wrap(words, `${c.bold('A')} ${visibleLine(describeSide(words, r.a, now))}`, width, '', '  '),
    ...wrap(words, `${c.bold('B')} ${visibleLine(describeSide(words, r.b, now))}`, width, '', '  '),
  ];
  let current: Impact | null = null;
  for (const g of groups(r.differences)) {
    if (g.impact !== current) {
      current = g.impact;
      lines.push('', paint[g.impact](c.bold(words.t(`diff.impact.${g.impact}`))));
    }
    // The reason once for the group: it is the point of ranking.
    lines.push(...wrap(words, c.dim(words.t('diff.why', { why: g.why })), width, '  ', '  '));
    const rows = o.verbose ? g.rows : g.rows.slice(0, MAX_ROWS);
    for (const d of rows) {
      const name = o.verbose ? d.fact : d.label;
      lines.push(
        ...wrap(
          words,
          `${visibleLine(name)}${words.t('facts.colon')}` +
            visibleLine(show(words, d.a, d.notCollected === 'a', d.fact)) +
            ` ` +
            `${c.dim('→')} ${visibleLine(show(words, d.b, d.notCollected === 'b', d.fact))}`,
          width,
          '    ',
          '      ',
        ),
      );
    }
    if (rows.length < g.rows.length)
      lines.push(c.dim(`    ${words.t('diff.more', { n: g.rows.length - rows.length })}`));
  }
  lines.push('', ...wrap(words, summary(words, r), width, '', '  '));
  return `${fitToWidth(words, lines.join('\n'), width)}\n`;
}

export function renderDiffMarkdown(words: Words, r: DiffResult, o: { now?: number } = {}): string {
  const now = o.now ?? Date.now();
  const lines = [
    '### gpu-env-doctor diff',
    '',
    `- **A**${words.t('facts.colon')}${mdText(describeSide(words, r.a, now))}`,
    `- **B**${words.t('facts.colon')}${mdText(describeSide(words, r.b, now))}`,
    '',
  ];
  if (r.differences.length > 0) {
    lines.push(
      `| ${words.t('diff.col.impact')} | ${words.t('diff.col.fact')} | A | B | ${words.t('diff.col.why')} |`,
      '| --- | --- | --- | --- | --- |',
    );
    for (const d of r.differences) {
      lines.push(
        `| ${words.t(`diff.impact.${d.impact}`)} | ${mdCode(d.fact, true)} | ` +
          `${mdCode(show(words, d.a, d.notCollected === 'a', d.fact), true)} | ` +
          `${mdCode(show(words, d.b, d.notCollected === 'b', d.fact), true)} | ${mdCell(d.why)} |`,
      );
    }
    lines.push('');
  }
  lines.push(mdText(summary(words, r)));
  return `${lines.join('\n')}\n`;
}
