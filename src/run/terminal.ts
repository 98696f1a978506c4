// What `run` prints on stderr after the job: one line when it succeeded; when it failed, the diagnosis,
// the memory at the moment of failure, the timeline as a sparkline, and the problems the checks saw. Pure.
import pc from 'picocolors';
import { fmtMiB } from '../core/format.js';
import { whose, type GpuTimeline, type MemoryTimeline } from './memory-timeline.js';
import type { ReportModel } from '../reporters/report-model.js';
import { fmtSeconds } from '../reporters/html/svg.js';

const SPARK = '▁▂▃▄▅▆▇█';

export function successLine(m: ReportModel, color: boolean): string {
  const c = pc.createColors(color);
  const r = m.run!;
  const tl = r.timeline;
  const head = `${c.green('✓')} gpu-env-doctor: ${r.exitText} after ${fmtSeconds(r.durationMs)}`;
  if (!tl.available) return `${head} · ${tl.note ?? 'GPU memory was not sampled'}\n`;
  const gpus = tl.gpus.map((g) => `GPU ${g.index} peak ${fmtMiB(g.peakUsedMiB)} of ${fmtMiB(g.totalMiB)}${g.peakJobMiB !== null ? ` (this job ${fmtMiB(g.peakJobMiB)})` : ''}, headroom ${fmtMiB(g.totalMiB - g.peakUsedMiB)}`);
  return `${head} · ${gpus.join(' · ')}\n`;
}

export function failureReport(m: ReportModel, color: boolean, htmlPath?: string): string {
  const c = pc.createColors(color);
  const r = m.run!;
  const out: string[] = ['', `${c.red('✗')} ${c.bold('gpu-env-doctor')}: the command failed (${r.exitText}) after ${fmtSeconds(r.durationMs)}`];

  if (m.causes.length > 0) {
    out.push('', c.bold('Diagnosis'));
    m.causes.slice(0, 3).forEach((cause, i) => {
      out.push(`  ${i + 1}. ${c.bold(cause.title)} ${c.dim(`[${cause.id} · ${Math.round(cause.confidence * 100)}%]`)}`);
      out.push(...wrap(cause.summary, '     '));
      for (const e of cause.evidence.slice(0, 3)) out.push(`     ${c.dim('│')} ${c.dim(e.line === null ? 'machine:' : `line ${e.line}:`)} ${e.text.slice(0, 200)}`);
      if (cause.fix) {
        out.push(...wrap(`${c.cyan('Fix:')} ${cause.fix.text}`, '     '));
        for (const cmd of cause.fix.commands) out.push(`       ${c.dim('$')} ${cmd}`);
        for (const x of cause.fix.manual) out.push(`       ${c.dim('# check first:')} ${x}`);
      }
    });
  } else if (m.diagnosed) {
    const n = m.log?.lines.length ?? 0;
    out.push('', n === 0 ? 'No output was captured to explain (stdout goes straight to the terminal; errors are read from stderr).' : `Nothing in the last ${n} lines of output points to a known cause.`);
  }

  const problems = m.findings.filter((f) => f.mark === 'fail' || f.mark === 'warn');
  if (problems.length > 0) {
    out.push('', c.bold('The machine when it failed'));
    for (const f of problems.slice(0, 6)) {
      out.push(`  ${f.mark === 'fail' ? c.red('✗') : c.yellow('!')} ${f.message} ${c.dim(`[${f.check}]`)}`);
      if (f.fix) out.push(...wrap(`${c.cyan('Fix:')} ${f.fix.text}`, '      '));
    }
  }

  if (m.bars.length > 0) {
    out.push('', c.bold(`GPU memory ${m.barsCaption}`));
    for (const b of m.bars) {
      out.push(`  GPU ${b.index} ${b.name}: ${b.segments.map((s) => `${s.label} ${fmtMiB(s.miB)}`).join(' · ')}`);
    }
  }

  out.push('', c.bold('Memory over time'));
  out.push(...timelineLines(r.timeline, r.durationMs));
  if (htmlPath) out.push('', `Report: ${htmlPath}`);
  return `${out.join('\n')}\n`;
}

export function timelineLines(tl: MemoryTimeline, durationMs: number): string[] {
  if (!tl.available) return [`  ${tl.note ?? 'GPU memory was not sampled.'}`];
  const lines = tl.gpus.map((g) => `  GPU ${g.index} ${sparkline(g, 40)} peak ${fmtMiB(g.peakUsedMiB)} of ${fmtMiB(g.totalMiB)}${g.peakJobMiB !== null ? `, this job ${fmtMiB(g.peakJobMiB)}` : ''}`);
  lines.push(`  ${fmtSeconds(0)} … ${fmtSeconds(durationMs)}${tl.failureAt !== undefined ? `, failed at ${fmtSeconds(tl.failureAt)}` : ''}; ${tl.processes.length} GPU process${tl.processes.length === 1 ? '' : 'es'} seen`);
  for (const p of tl.processes.slice(0, 5)) lines.push(`    PID ${p.pid} (${whose(p)}) peak ${fmtMiB(p.peakMiB)}`);
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

function wrap(text: string, prefix: string, width = 100): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      if (line !== '' && line.length + word.length + 1 > width - prefix.length) {
        out.push(prefix + line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    out.push(prefix + line);
  }
  return out;
}
