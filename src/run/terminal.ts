// What `run` prints on stderr after the job: one line when it succeeded; when it failed, the diagnosis (each
// cause from the one finding model, ranked "1.", "2."), the problems the checks saw on the machine at that
// moment, the memory then, and the timeline as a sparkline. Pure.
import { fmtMiB } from '../core/format.js';
import { visibleLine } from '../reporters/escape.js';
import { LABELS } from '../reporters/labels.js';
import { palette, wrap } from '../reporters/layout.js';
import type { ReportModel } from '../reporters/report-model.js';
import { fmtSeconds } from '../reporters/html/svg.js';
import { renderBlock, type TermStyle } from '../reporters/terminal.js';
import { whose, type GpuTimeline, type MemoryTimeline } from './memory-timeline.js';

const SPARK = '▁▂▃▄▅▆▇█';

export function successLine(m: ReportModel, color: boolean): string {
  const c = palette(color);
  const r = m.run!;
  const tl = r.timeline;
  const head = `${c.green('✓')} gpu-env-doctor: ${r.exitText} after ${fmtSeconds(r.durationMs)}`;
  if (!tl.available) return `${head} · ${tl.note ?? 'GPU memory was not sampled'}\n`;
  const gpus = tl.gpus.map((g) => `GPU ${g.index} peak ${fmtMiB(g.peakUsedMiB)} of ${fmtMiB(g.totalMiB)}${g.peakJobMiB !== null ? ` (this job ${fmtMiB(g.peakJobMiB)})` : ''}, headroom ${fmtMiB(g.totalMiB - g.peakUsedMiB)}`);
  return `${head} · ${gpus.join(' · ')}\n`;
}

export function failureReport(m: ReportModel, color: boolean, reportPath?: string, o: { width?: number; verbose?: boolean } = {}): string {
  const c = palette(color);
  const st: TermStyle = { width: o.width ?? 80, c, verbose: o.verbose ?? false };
  const r = m.run!;
  const out: string[] = ['', ...wrap(`${c.red('✗')} ${c.bold('gpu-env-doctor')}: the command failed (${visibleLine(r.exitText)}) after ${fmtSeconds(r.durationMs)}`, st.width, '', '  ')];

  if (m.causes.length > 0) {
    out.push('', c.bold('Diagnosis'));
    m.causes.slice(0, 3).forEach((cause, i) => {
      const fl = { ...cause.lines, headline: `${cause.title}  (${Math.round(cause.confidence * 100)}%)`, evidence: cause.lines.evidence.slice(0, 3) };
      out.push(...renderBlock(fl, st, { lead: LABELS.rank(i + 1), indent: '  ' }));
    });
  } else if (m.diagnosed) {
    const n = m.log?.lines.length ?? 0;
    out.push('', ...wrap(n === 0 ? 'No output was captured to explain (stdout goes straight to the terminal; errors are read from stderr).' : `Nothing in the last ${n} lines of output points to a known cause.`, st.width));
  }

  const problems = m.findings.filter((f) => f.mark === 'fail' || f.mark === 'warn');
  // Each fact once: a problem the diagnosis already names (same root cause) is not repeated here.
  const named = new Set(m.causes.slice(0, 3).map((x) => x.id));
  const rest = problems.filter((f) => !f.rootCause || !named.has(f.rootCause));
  if (rest.length > 0) {
    out.push('', c.bold('The machine when it failed'));
    for (const f of rest.slice(0, 6)) out.push(...renderBlock({ ...f.lines, evidence: [] }, st, { indent: '  ' }));
  }

  if (m.bars.length > 0) {
    out.push('', c.bold(`GPU memory ${m.barsCaption}`));
    for (const b of m.bars) out.push(...wrap(`GPU ${b.index} ${visibleLine(b.name)}: ${b.segments.map((s) => `${visibleLine(s.label)} ${fmtMiB(s.miB)}`).join(' · ')}`, st.width, '  ', '    '));
  }

  out.push('', c.bold('Memory over time'));
  out.push(...timelineLines(r.timeline, r.durationMs));
  if (reportPath) out.push('', `Report: ${reportPath}`);
  return `${out.join('\n')}\n`;
}

export function timelineLines(tl: MemoryTimeline, durationMs: number): string[] {
  if (!tl.available) return [`  ${tl.note ?? 'GPU memory was not sampled.'}`];
  const lines = tl.gpus.map((g) => `  GPU ${g.index} ${sparkline(g, 40)} peak ${fmtMiB(g.peakUsedMiB)} of ${fmtMiB(g.totalMiB)}${g.peakJobMiB !== null ? `, this job ${fmtMiB(g.peakJobMiB)}` : ''}`);
  lines.push(`  ${fmtSeconds(0)} … ${fmtSeconds(durationMs)}${tl.failureAt !== undefined ? `, failed at ${fmtSeconds(tl.failureAt)}` : ''}; ${tl.processes.length} GPU process${tl.processes.length === 1 ? '' : 'es'} seen`);
  for (const p of tl.processes.slice(0, 5)) lines.push(`    PID ${p.pid} (${visibleLine(whose(p))}) peak ${fmtMiB(p.peakMiB)}`);
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
