// What `run` prints on stderr after the job: one line when it succeeded; when it failed, the diagnosis (each
// cause from the one finding model, ranked "1.", "2."), the problems the checks saw on the machine at that
// moment, the memory then, and the timeline as a sparkline. Pure.
import { fmtMiB } from '../../base/format.js';
import { visibleLine } from '../escape.js';
import { labelsOf } from '../labels.js';
import { palette, wrap } from '../layout.js';
import type { ReportModel } from '../model.js';
import { fmtSeconds } from '../html/svg.js';
import { renderBlock, type TermStyle } from '../terminal.js';
import { renderUndecided } from './explain/terminal.js';
import { whose, type GpuTimeline, type MemoryTimeline } from '../../gather/nvidia/memory-timeline.js';
import type { Words } from '../../base/i18n/words.js';

const SPARK = '▁▂▃▄▅▆▇█';

export function successLine(words: Words, m: ReportModel, color: boolean): string {
  const c = palette(color);
  const r = m.run!;
  const tl = r.timeline;
  const head =
    `${c.green('✓')} gpu-env-doctor: ` +
    `${words.t('run.succeeded', { exit: r.exitText, duration: fmtSeconds(words, r.durationMs) })}`;
  if (!tl.available) return `${head} · ${tl.note ?? words.t('run.notSampled')}\n`;
  const gpus = tl.gpus.map((g) =>
    g.peakJobMiB !== null
      ? words.t('run.gpuPeakJob', {
          gpu: g.index,
          peak: fmtMiB(g.peakUsedMiB),
          total: fmtMiB(g.totalMiB),
          job: fmtMiB(g.peakJobMiB),
          headroom: fmtMiB(g.totalMiB - g.peakUsedMiB),
        })
      : words.t('run.gpuPeak', {
          gpu: g.index,
          peak: fmtMiB(g.peakUsedMiB),
          total: fmtMiB(g.totalMiB),
          headroom: fmtMiB(g.totalMiB - g.peakUsedMiB),
        }),
  );
  return `${head} · ${gpus.join(' · ')}\n`;
}

export function failureReport(
  words: Words,
  m: ReportModel,
  color: boolean,
  reportPath?: string,
  o: { width?: number; verbose?: boolean } = {},
): string {
  const c = palette(color);
  const st: TermStyle = { width: o.width ?? 80, c, verbose: o.verbose ?? false };
  const r = m.run!;
  const out: string[] = [
    '',
    ...wrap(
      words,
      `${c.red('✗')} ${c.bold('gpu-env-doctor')}: ` +
        `${words.t('run.failed', { exit: visibleLine(r.exitText), duration: fmtSeconds(words, r.durationMs) })}`,
      st.width,
      '',
      '  ',
    ),
  ];

  if (m.answer?.undecided) {
    // the output cannot decide: said once, the step that decides, the candidates (explain's own layout)
    out.push('', c.bold(words.t('report.diagnosis')), ...wrap(words, c.bold(m.answer.headline), st.width));
    renderUndecided(words, m.answer, st, out);
  } else if (m.causes.length > 0) {
    out.push('', c.bold(words.t('report.diagnosis')));
    m.causes.slice(0, 3).forEach((cause, i) => {
      const fl = {
        ...cause.lines,
        headline: `${cause.title}  (${Math.round(cause.confidence * 100)}%)`,
        evidence: cause.lines.evidence.slice(0, 3),
      };
      out.push(...renderBlock(words, fl, st, { lead: labelsOf(words).rank(i + 1), indent: '  ' }));
    });
  } else if (m.diagnosed) {
    const n = m.log?.lines.length ?? 0;
    out.push('', ...wrap(words, n === 0 ? words.t('run.noOutput') : words.t('run.nothingInLast', { n }), st.width));
  }

  const problems = m.findings.filter((f) => f.mark === 'fail' || f.mark === 'warn');
  // Each fact once: a problem the diagnosis already names (same root cause) is not repeated here.
  const named = new Set(m.causes.slice(0, 3).map((x) => x.id));
  const rest = problems.filter((f) => !f.rootCause || !named.has(f.rootCause));
  if (rest.length > 0) {
    out.push('', c.bold(words.t('run.machineWhenFailed')));
    for (const f of rest.slice(0, 6))
      out.push(...renderBlock(words, { ...f.lines, evidence: [] }, st, { indent: '  ' }));
  }

  if (m.bars.length > 0) {
    out.push('', c.bold(words.t('run.gpuMemory', { caption: m.barsCaption })));
    for (const b of m.bars)
      out.push(
        ...wrap(
          words,
          `GPU ${b.index} ${visibleLine(b.name)}: ` +
            `${b.segments.map((s) => `${visibleLine(s.label)} ${fmtMiB(s.miB)}`).join(' · ')}`,
          st.width,
          '  ',
          '    ',
        ),
      );
  }

  out.push('', c.bold(words.t('report.memoryOverTime')));
  out.push(...timelineLines(words, r.timeline, r.durationMs));
  if (reportPath) out.push('', words.t('run.report', { path: reportPath }));
  return `${out.join('\n')}\n`;
}

export function timelineLines(words: Words, tl: MemoryTimeline, durationMs: number): string[] {
  if (!tl.available) return [`  ${tl.note ?? words.t('report.notSampled')}`];
  const lines = tl.gpus.map(
    (g) =>
      `  GPU ${g.index} ${sparkline(g, 40)} ` +
      (g.peakJobMiB !== null
        ? words.t('run.sparkPeakJob', {
            peak: fmtMiB(g.peakUsedMiB),
            total: fmtMiB(g.totalMiB),
            job: fmtMiB(g.peakJobMiB),
          })
        : words.t('run.sparkPeak', { peak: fmtMiB(g.peakUsedMiB), total: fmtMiB(g.totalMiB) })),
  );
  lines.push(
    `  ${fmtSeconds(words, 0)} … ` +
      `${fmtSeconds(words, durationMs)}${
        tl.failureAt !== undefined
          ? `, ` + `${words.t('run.spanFailed', { at: fmtSeconds(words, tl.failureAt), n: tl.processes.length })}`
          : `; ` + `${words.t('run.span', { n: tl.processes.length })}`
      }`,
  );
  for (const p of tl.processes.slice(0, 5))
    lines.push(`    ${words.t('run.pidPeak', { pid: p.pid, whose: visibleLine(whose(p)), peak: fmtMiB(p.peakMiB) })}`);
  return lines;
}

/** The used memory of one GPU as `width` block characters, scaled to the GPU's total (max per bucket). */
export function sparkline(g: GpuTimeline, width: number): string {
  if (g.points.length === 0) return '';
  const n = Math.min(width, g.points.length);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * g.points.length) / n);
    const to = Math.max(from + 1, Math.floor(((i + 1) * g.points.length) / n));
    let max = 0;
    for (let j = from; j < to; j++) max = Math.max(max, g.points[j]!.usedMiB);
    const level = Math.min(SPARK.length - 1, Math.floor((max / Math.max(1, g.totalMiB)) * SPARK.length));
    out.push(SPARK[level]!);
  }
  return out.join('');
}
