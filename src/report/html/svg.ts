// The charts of the HTML report, drawn as inline SVG by our own code (no library, no script, no network).
// Each element carries data-* attributes with the numbers it stands for, so tests (and curious users)
// can read the chart back.
import type { Words } from '../../base/i18n/words.js';
import { fmtMiB } from '../../base/format.js';
import type { GpuTimeline, MemoryTimeline } from '../../gather/nvidia/memory-timeline.js';
import type { GpuBar } from '../model.js';
import { esc, num } from './escape.js';

/** Colour classes for "other process" segments, cycled. */
const OTHER_CLASSES = 5;

/** One horizontal stacked bar: this job / each other process / unattributed / free. */
export function memoryBar(bar: GpuBar): string {
  const W = 1000;
  const H = 36;
  const total = Math.max(
    1,
    bar.totalMiB,
    bar.segments.reduce((a, s) => a + s.miB, 0),
  );
  let x = 0;
  let other = 0;
  const rects = bar.segments.map((s) => {
    const w = (s.miB / total) * W;
    const cls = s.kind === 'other' ? `seg seg-other seg-other-${other++ % OTHER_CLASSES}` : `seg seg-${s.kind}`;
    const r =
      `<rect class="${cls}" data-kind="${s.kind}" ` +
      `data-mib="${num(s.miB)}"${s.pid !== undefined ? ` data-pid="${s.pid}"` : ''} x="${num(x)}" y="0" ` +
      `width="${num(w)}" height="${H}"><title>${esc(`${s.label}: ${fmtMiB(s.miB)}`)}</title></rect>`;
    x += w;
    return r;
  });
  return (
    `<svg class="bar" role="img" ` +
    `aria-label="${esc(
      `GPU ${bar.index} ` + `memory: ${bar.segments.map((s) => `${s.label} ${fmtMiB(s.miB)}`).join(', ')}`,
    )}" ` +
    `viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" width="100%" height="${H}">${rects.join('')}</svg>`
  );
}

/** The legend of a bar, as HTML (it wraps on a phone where SVG text would not). */
export function barLegend(bar: GpuBar): string {
  let other = 0;
  const items = bar.segments.map((s) => {
    const cls = s.kind === 'other' ? `sw seg-other-${other++ % OTHER_CLASSES}` : `sw seg-${s.kind}`;
    return `<li><span class="${cls}" aria-hidden="true"></span>${esc(s.label)} <b>${esc(fmtMiB(s.miB))}</b></li>`;
  });
  return `<ul class="legend">${items.join('')}</ul>`;
}

/** The memory of one GPU over the run: used by everyone, used by the job, the total, the failure marked. */
export function timelineChart(words: Words, g: GpuTimeline, tl: MemoryTimeline, durationMs: number): string {
  const W = 640;
  const H = 220;
  const L = 76; // room for the y labels
  const R = 8;
  const T = 10;
  const B = 26;
  const pw = W - L - R;
  const ph = H - T - B;
  const tMax = Math.max(1, durationMs, ...g.points.map((p) => p.t), tl.failureAt ?? 0);
  const yMax = Math.max(1, g.totalMiB, g.peakUsedMiB);
  const X = (t: number) => L + (t / tMax) * pw;
  const Y = (m: number) => T + ph - (m / yMax) * ph;
  const used = g.points.map((p) => `${num(X(p.t))},${num(Y(p.usedMiB))}`).join(' ');
  const jobPts = g.points.filter((p) => p.jobMiB !== null);
  const job = jobPts.map((p) => `${num(X(p.t))},${num(Y(p.jobMiB ?? 0))}`).join(' ');
  const parts: string[] = [];
  // grid and y labels: 0, half, total
  for (const frac of [0, 0.5, 1]) {
    const y = Y(yMax * frac);
    parts.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${num(y)}" y2="${num(y)}"/>`);
    parts.push(
      `<text class="axis" x="${L - 4}" y="${num(y + 4)}" text-anchor="end">${esc(fmtMiB(yMax * frac))}</text>`,
    );
  }
  for (const frac of [0, 0.5, 1]) {
    const t = tMax * frac;
    parts.push(
      `<text class="axis" x="${num(X(t))}" y="${H - 8}" ` +
        `text-anchor="${frac === 0 ? 'start' : frac === 1 ? 'end' : 'middle'}">${esc(fmtSeconds(words, t))}</text>`,
    );
  }
  parts.push(
    `<line class="total" x1="${L}" x2="${W - R}" y1="${num(Y(g.totalMiB))}" ` +
      `y2="${num(Y(g.totalMiB))}"><title>${esc(`total ${fmtMiB(g.totalMiB)}`)}</title></line>`,
  );
  if (g.points.length > 0)
    parts.push(
      `<polyline class="line-used" data-series="used" data-count="${g.points.length}" ` +
        `points="${used}"><title>${esc(words.t('report.svgUsed', { gpu: g.index }))}</title></polyline>`,
    );
  if (jobPts.length > 0)
    parts.push(
      `<polyline class="line-job" data-series="job" data-count="${jobPts.length}" ` +
        `points="${job}"><title>${esc(words.t('report.svgJob'))}</title></polyline>`,
    );
  if (tl.failureAt !== undefined) {
    const x = X(tl.failureAt);
    parts.push(
      `<g class="failure" data-t="${num(tl.failureAt)}"><line x1="${num(x)}" x2="${num(x)}" y1="${T}" ` +
        `y2="${T + ph}"/><text x="${num(Math.min(x, W - R) - 4)}" y="${T + 12}" ` +
        `text-anchor="end">${esc(words.t('report.svgFailed'))}</text></g>`,
    );
  }
  return (
    `<svg class="timeline" role="img" ` +
    `aria-label="${esc(`GPU ${g.index} memory over time, peak ${fmtMiB(g.peakUsedMiB)} of ${fmtMiB(g.totalMiB)}`)}" ` +
    `viewBox="0 0 ${W} ${H}" width="100%">${parts.join('')}</svg>`
  );
}

export function fmtSeconds(words: Words, ms: number): string {
  const s = ms / 1000;
  if (words.lang === 'zh') {
    if (ms > 0 && ms < 1000) return `${Math.round(ms)} 毫秒`;
    if (s < 10) return `${s.toFixed(1)} 秒`;
    if (s < 120) return `${Math.round(s)} 秒`;
    const mz = Math.floor(s / 60);
    if (mz < 120) return `${mz} 分 ${Math.round(s - mz * 60)} 秒`;
    return `${Math.floor(mz / 60)} 小时 ${mz % 60} 分钟`;
  }
  if (ms > 0 && ms < 1000) return `${Math.round(ms)} ms`;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
