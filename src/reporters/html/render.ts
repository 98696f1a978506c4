// The HTML report: one self-contained file (inline CSS and SVG, no script, no network), rendered from the
// report model. A Content-Security-Policy that forbids scripts and every fetch is part of the page, so even
// a mistake in escaping could not run anything or call home.
import { CERTAINTY_LABEL } from '../../core/finding.js';
import { fmtMiB, plural } from '../../core/format.js';
import { whose } from '../../run/memory-timeline.js';
import type { CauseView, FindingView, Mark, ReportModel } from '../report-model.js';
import { esc } from './escape.js';
import { CSS } from './style.js';
import { barLegend, fmtSeconds, memoryBar, timelineChart } from './svg.js';

const SYMBOL: Record<Mark, string> = { ok: '✓', warn: '!', fail: '✗', unknown: '?' };
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; form-action 'none'; base-uri 'none'";

export function renderHtml(m: ReportModel): string {
  const body = [header(m), runSection(m), diagnosisSection(m), memorySection(m), timelineSection(m), findingsSection(m), versionsSection(m), librariesSection(m), logSection(m), factsSection(m)]
    .filter((s) => s !== '')
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<title>${esc(m.title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
<footer>${esc(`${m.tool.name} ${m.tool.version}`)} · generated ${esc(m.generatedAt)} · this file is self-contained: no scripts, nothing fetched.</footer>
</body>
</html>
`;
}

function mark(x: Mark | null): string {
  if (x === null) return '<span class="mark">–</span>';
  return `<span class="mark ${x}" title="${x}">${SYMBOL[x]}</span>`;
}

function header(m: ReportModel): string {
  const counts = m.counts.checks > 0 ? ` · ${plural(m.counts.errors, 'error')}, ${plural(m.counts.warnings, 'warning')}${m.counts.unknown ? `, ${m.counts.unknown} unknown` : ''} · ${plural(m.counts.checks, 'check')}` : '';
  return `<header>
<h1>${esc(m.title)}</h1>
<p class="meta">${esc(m.generatedAt)}${esc(counts)}</p>
<p class="verdict ${m.verdict.mark}" id="verdict">${mark(m.verdict.mark)} ${esc(m.verdict.text)}</p>
</header>`;
}

function runSection(m: ReportModel): string {
  const r = m.run;
  if (!r) return '';
  const peaks = r.timeline.gpus.map(
    (g) =>
      `<li>GPU ${g.index}: peak ${esc(fmtMiB(g.peakUsedMiB))} of ${esc(fmtMiB(g.totalMiB))} in use${g.peakJobMiB !== null ? `, this job at most ${esc(fmtMiB(g.peakJobMiB))}` : ''}; headroom ${esc(fmtMiB(g.totalMiB - g.peakUsedMiB))}</li>`,
  );
  return `<section id="run">
<h2>The command</h2>
<pre class="cmd">$ ${esc(r.argv.map(shellWord).join(' '))}</pre>
<p>${mark(r.failed ? 'fail' : 'ok')} ${esc(r.exitText)} after ${esc(fmtSeconds(r.durationMs))}; ${esc(`${r.totalLines} lines of output`)}${r.droppedLines > 0 ? esc(`, the last ${r.totalLines - r.droppedLines} kept`) : ''}.</p>
${peaks.length > 0 ? `<ul>${peaks.join('')}</ul>` : `<p class="meta">${esc(r.timeline.note ?? 'GPU memory was not sampled.')}</p>`}
</section>`;
}

function diagnosisSection(m: ReportModel): string {
  if (!m.diagnosed) return '';
  if (m.causes.length === 0) return `<section id="diagnosis"><h2>Diagnosis</h2><p>Nothing in the output points to a known cause.</p></section>`;
  return `<section id="diagnosis">
<h2>Diagnosis</h2>
${m.causes.map(causeCard).join('\n')}
</section>`;
}

function causeCard(c: CauseView, i: number): string {
  const pct = Math.round(c.confidence * 100);
  return `<div class="card cause" data-cause="${esc(c.id)}">
<h3>${i + 1}. ${esc(c.title)} <span class="tag">${esc(c.id)}</span></h3>
<p><span class="conf" style="width:${pct / 2}%"></span>${pct}% · ${esc(c.summary)}</p>
${c.evidence.length > 0 ? `<ul class="evidence">${c.evidence.map((e) => `<li><span class="src">${e.line === null ? 'this machine:' : `line ${e.line}:`}</span> ${esc(e.text)}</li>`).join('')}</ul>` : ''}
${fixBlock(c.fix)}
</div>`;
}

function fixBlock(fix: { text: string; commands: string[]; manual: string[] } | undefined): string {
  if (!fix) return '';
  const cmds = fix.commands.length > 0 ? `<pre>${fix.commands.map((c) => `$ ${esc(c)}`).join('\n')}</pre>` : '';
  const manual = fix.manual.length > 0 ? `<p class="meta">Check first, then do by hand:</p><pre>${fix.manual.map((c) => esc(c)).join('\n')}</pre>` : '';
  return `<div class="fix"><b>Fix:</b> ${esc(fix.text)}${cmds}${manual}</div>`;
}

function memorySection(m: ReportModel): string {
  if (m.bars.length === 0) return '';
  const gpus = m.bars.map(
    (b) => `<div class="gpu" data-gpu="${b.index}">
<h3>GPU ${b.index}: ${esc(b.name)} <span class="tag">${esc(fmtMiB(b.totalMiB))}</span></h3>
${memoryBar(b)}
${barLegend(b)}
</div>`,
  );
  return `<section id="memory">
<h2>GPU memory${m.barsCaption ? ` <span class="meta">${esc(m.barsCaption)}</span>` : ''}</h2>
${gpus.join('\n')}
</section>`;
}

function timelineSection(m: ReportModel): string {
  const tl = m.timeline;
  if (!tl || !m.run) return '';
  if (!tl.available || tl.gpus.length === 0) return `<section id="timeline"><h2>Memory over time</h2><p class="meta">${esc(tl.note ?? 'GPU memory was not sampled.')}</p></section>`;
  const dur = m.run.durationMs;
  const charts = tl.gpus.map((g) => `<div class="chart" data-gpu="${g.index}"><h3>GPU ${g.index}</h3>${timelineChart(g, tl, dur)}</div>`);
  return `<section id="timeline">
<h2>Memory over time</h2>
<p class="key"><i style="background:var(--o4)"></i>used on the GPU (everyone) <i style="background:var(--job)"></i>used by this job <i style="background:var(--muted)"></i>total${tl.failureAt !== undefined ? ' <i style="background:var(--fail)"></i>the failure' : ''} · one sample every ${tl.intervalMs} ms</p>
${charts.join('\n')}
${processTable(m)}
</section>`;
}

function processTable(m: ReportModel): string {
  const ps = m.timeline?.processes ?? [];
  if (ps.length === 0) return '';
  const uuidToIndex = new Map((m.timeline?.gpus ?? []).map((g) => [g.uuid, g.index]));
  const rows = ps.map(
    (p) =>
      `<tr><td>${p.pid}</td><td>${esc(whose(p))}</td><td>${esc(uuidToIndex.get(p.gpuUuid) ?? p.gpuUuid)}</td><td>${esc(fmtMiB(p.peakMiB))}</td><td>${esc(fmtSeconds(p.firstSeen))} – ${esc(fmtSeconds(p.lastSeen))}</td></tr>`,
  );
  return `<h3>Processes seen while it ran</h3><div class="table-wrap"><table class="procs"><thead><tr><th>PID</th><th>whose</th><th>GPU</th><th>peak</th><th>seen</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function findingsSection(m: ReportModel): string {
  if (m.findings.length === 0) return '';
  const problems = m.findings.filter((f) => f.mark !== 'ok');
  const fine = m.findings.filter((f) => f.mark === 'ok');
  return `<section id="findings">
<h2>Findings</h2>
${problems.length === 0 ? '<p>No problems found.</p>' : problems.map(findingCard).join('\n')}
${fine.length > 0 ? `<h3>Passed or skipped</h3><ul class="passed">${fine.map((f) => `<li>${mark('ok')} ${esc(f.message)} <span class="tag">${esc(f.check)}${f.status === 'skip' ? ' · skipped' : ''}</span></li>`).join('')}</ul>` : ''}
</section>`;
}

function findingCard(f: FindingView): string {
  return `<div class="card finding ${f.mark}" data-check="${esc(f.check)}">
<h3>${mark(f.mark)} ${esc(f.message)}</h3>
<p class="tag">${esc(f.check)} · ${esc(f.category)} · ${esc(f.severity)}/${esc(f.status)}${f.rootCause ? ` · ${esc(f.rootCause)}` : ''}</p>
${f.details ? `<p>${esc(f.details)}</p>` : ''}
${f.consequences.length > 0 ? `<ul class="consequences">${f.consequences.map((q) => `<li class="${esc(q.certainty)}">→ ${esc(q.text)} <span class="src">[${esc(CERTAINTY_LABEL[q.certainty])}: ${esc(q.source)}]</span></li>`).join('')}</ul>` : ''}
${f.evidence.length > 0 ? `<ul class="evidence">${f.evidence.map((e) => `<li>${esc(e.text)}${e.source ? ` <span class="src">(${esc(e.source)}${e.line !== undefined ? `:${e.line}` : ''})</span>` : ''}</li>`).join('')}</ul>` : ''}
${fixBlock(f.fix)}
</div>`;
}

function versionsSection(m: ReportModel): string {
  if (m.versions.length === 0) return '';
  const rows = m.versions.map((v) => `<tr><td>${mark(v.mark)}</td><td>${esc(v.item)}</td><td>${esc(v.value)}${v.note ? `<br><span class="meta">${esc(v.note)}</span>` : ''}</td></tr>`);
  return `<section id="versions"><h2>Versions</h2><div class="table-wrap"><table class="versions"><thead><tr><th></th><th>what</th><th>version</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

function librariesSection(m: ReportModel): string {
  if (!m.libraries || m.libraries.length === 0) return '';
  const rows = m.libraries.map(
    (r) =>
      `<tr class="${r.path === null ? 'missing' : ''}"><td class="mono">${esc(r.consumer.split('/').pop() ?? r.consumer)}${r.framework ? ` <span class="tag">${esc(r.framework)}</span>` : ''}</td><td class="mono">${esc(r.name)}</td><td class="mono">${r.path === null ? `${mark('fail')} not found` : esc(r.path)}</td><td>${esc(r.version ?? '?')}</td><td>${esc(r.via)}</td></tr>`,
  );
  return `<section id="libraries"><h2>Library resolution</h2><div class="table-wrap"><table class="libraries"><thead><tr><th>loaded by</th><th>library</th><th>resolves to</th><th>version</th><th>via</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

function logSection(m: ReportModel): string {
  if (!m.log || m.log.lines.length === 0) return '';
  const lines = m.log.lines.map((l) => `<li class="${[l.stream ?? '', l.evidence ? 'hit' : ''].join(' ').trim()}" data-line="${l.n}"><span class="n">${l.n}</span>${esc(l.text)}</li>`);
  return `<section id="log"><h2>${esc(m.log.title)}</h2><details open><summary>${m.log.lines.length} lines${m.causes.length > 0 ? ' (the evidence highlighted)' : ''}</summary><ol class="log">${lines.join('')}</ol></details></section>`;
}

function factsSection(m: ReportModel): string {
  if (m.facts.length === 0) return '';
  return `<section id="facts"><h2>Facts</h2><dl class="facts">${m.facts.map((f) => `<dt>${esc(f.label)}</dt><dd class="mono">${esc(f.value)}</dd>`).join('')}</dl></section>`;
}

function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}
