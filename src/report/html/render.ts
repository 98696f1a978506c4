// The HTML report: one self-contained file (inline CSS and SVG, no script, no network), rendered from the
// report model. A Content-Security-Policy that forbids scripts and every fetch is part of the page, so even
// a mistake in escaping could not run anything or call home.
import { CERTAINTY_LABEL } from '../../judge/finding.js';
import { fmtMiB } from '../../base/format.js';
import { whose } from '../../gather/nvidia/memory-timeline.js';
import type { FindingLines } from '../finding-lines.js';
import { labelsOf, markWordsOf } from '../labels.js';
import { SYMBOLS } from '../layout.js';
import type { CauseView, FindingView, Mark, ReportModel } from '../model.js';
import type { Answer } from '../views/explain/answer.js';
import { esc } from './escape.js';
import { shortPath, viaWords } from '../views/libs.js';
import { CATEGORIES, isBareOk } from '../../judge/checks/check.js';
import { CSS } from './style.js';
import { barLegend, fmtSeconds, memoryBar, timelineChart } from './svg.js';
import type { Words } from '../../base/i18n/words.js';

const SYMBOL: Record<Mark, string> = SYMBOLS;
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; form-action 'none'; base-uri " +
  "'none'";

export function renderHtml(words: Words, m: ReportModel): string {
  const body = [
    header(words, m),
    runSection(words, m),
    diagnosisSection(words, m),
    memorySection(words, m),
    timelineSection(words, m),
    findingsSection(words, m),
    versionsSection(words, m),
    librariesSection(words, m),
    logSection(words, m),
    factsSection(words, m),
  ]
    .filter((s) => s !== '')
    .join('\n');
  return `<!DOCTYPE html>
<html lang="${words.lang === 'zh' ? 'zh-CN' : 'en'}">
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
<footer>${esc(words.t('report.htmlFooter', { tool: m.tool.name, version: m.tool.version, at: m.generatedAt }))}</footer>
</body>
</html>
`;
}

function mark(words: Words, x: Mark | null): string {
  if (x === null) return '<span class="mark">–</span>';
  return `<span class="mark ${x}" title="${markWordsOf(words)[x]}">${SYMBOL[x]}</span>`;
}

function header(words: Words, m: ReportModel): string {
  const c = m.counts;
  const counts =
    c.checks > 0 ? ` · ${c.unknown ? words.t('report.htmlCountsUnknown', c) : words.t('report.htmlCounts', c)}` : '';
  return `<header>
<h1>${esc(m.title)}</h1>
${
  m.sourceLine
    ? `<p class="meta source">${esc(m.sourceLine)}</p>
`
    : ''
}${
  m.inputLine
    ? `<p class="meta input">${esc(m.inputLine)}</p>
`
    : ''
}<p class="meta">${esc(counts.replace(/^ · /, ''))}</p>
<p class="verdict ${m.verdict.mark}" id="verdict">${mark(words, m.verdict.mark)} ${esc(m.verdict.text)}</p>
</header>`;
}

function runSection(words: Words, m: ReportModel): string {
  const r = m.run;
  if (!r) return '';
  const peaks = r.timeline.gpus.map(
    (g) =>
      `<li>` +
      esc(
        g.peakJobMiB !== null
          ? words.t('report.peakHtmlJob', {
              gpu: g.index,
              peak: fmtMiB(g.peakUsedMiB),
              total: fmtMiB(g.totalMiB),
              job: fmtMiB(g.peakJobMiB),
              headroom: fmtMiB(g.totalMiB - g.peakUsedMiB),
            })
          : words.t('report.peakHtml', {
              gpu: g.index,
              peak: fmtMiB(g.peakUsedMiB),
              total: fmtMiB(g.totalMiB),
              headroom: fmtMiB(g.totalMiB - g.peakUsedMiB),
            }),
      ) +
      `</li>`,
  );
  return (
    `<section id="run">
<h2>${words.t('report.command')}</h2>
<pre class="cmd">$ ${esc(r.argv.map(shellWord).join(' '))}</pre>
<p>` +
    mark(words, r.failed ? 'fail' : 'ok') +
    ` ` +
    esc(
      r.droppedLines > 0
        ? words.t('report.runEndedHtmlKept', {
            exit: r.exitText,
            duration: fmtSeconds(words, r.durationMs),
            lines: r.totalLines,
            kept: r.totalLines - r.droppedLines,
          })
        : words.t('report.runEndedHtml', {
            exit: r.exitText,
            duration: fmtSeconds(words, r.durationMs),
            lines: r.totalLines,
          }),
    ) +
    `</p>
${
  peaks.length > 0
    ? `<ul>${peaks.join('')}</ul>`
    : `<p ` + `class="meta">${esc(r.timeline.note ?? words.t('report.notSampled'))}</p>`
}
</section>`
  );
}

function diagnosisSection(words: Words, m: ReportModel): string {
  if (!m.diagnosed) return '';
  if (m.causes.length === 0)
    return (
      `<section ` +
      `id="diagnosis"><h2>${words.t('report.diagnosis')}</h2><p>${words.t('report.nothingOutput')}</p></section>`
    );
  if (m.answer?.undecided) return undecidedSection(words, m.answer);
  return `<section id="diagnosis">
<h2>${words.t('report.diagnosis')}</h2>
${m.causes.map((c, i) => causeCard(words, c, i)).join('\n')}
</section>`;
}

/** The input cannot decide: the evidence once, the one step that decides, the candidates with what tells them apart. */
function undecidedSection(words: Words, a: Answer): string {
  const ev =
    a.evidence.length > 0
      ? `<ul ` +
        `class="evidence">${a.evidence
          .map((e) => `<li>${esc(e.text)}${e.where ? ` <span ` + `class="src">(${esc(e.where)})</span>` : ''}</li>`)
          .join('')}</ul>`
      : '';
  const n = a.next;
  const next = n
    ? `<div class="fix ` +
      `next"><b>${esc(words.t('answer.next'))}</b>${labelsOf(words).gap}${esc(n.text)}<pre>${[
        ...(n.act ? [`$ ${esc(n.act)}   <span ` + `class="src"># ${esc(labelsOf(words).actNote)}</span>`] : []),
        ...n.commands.map((c) => `$ ` + `${esc(c)}${n.where ? `   <span class="src"># ${esc(n.where)}</span>` : ''}`),
      ].join('\n')}</pre></div>`
    : '';
  const items = a.causes.map(
    (c) =>
      `<li><b>${esc(c.title)}</b> <span ` +
      `class="meta">${c.pct}%</span>${
        c.tell
          ? `<br><span ` +
            `class="meta">${esc(words.t('answer.tells'))}</span>${labelsOf(words).gap}${esc(c.tell.text)}${
              c.tell.command ? ` ` + `<code>${esc(c.tell.command)}</code>` : ''
            }`
          : ''
      }</li>`,
  );
  return `<section id="diagnosis">
<h2>${words.t('report.diagnosis')}</h2>
${ev}
${next}
<h3>${esc(words.t('answer.candidates'))}</h3>
<ol class="candidates">${items.join('')}</ol>
</section>`;
}

function causeCard(words: Words, c: CauseView, i: number): string {
  const pct = Math.round(c.confidence * 100);
  return `<div class="card cause" data-cause="${esc(c.id)}">
<h3>${labelsOf(words).rank(i + 1)} ${esc(c.title)}</h3>
<p><span class="conf" style="width:${pct / 2}%"></span>${pct}%</p>
${c.lines.details.map((d) => `<p>${esc(d)}</p>`).join('')}
${blockBody(words, c.lines)}
</div>`;
}

/** The evidence and the fix of a finding or cause, from the one finding model. */
function blockBody(words: Words, fl: FindingLines): string {
  const cq =
    fl.consequences.length > 0
      ? `<ul ` +
        `class="consequences">${fl.consequences
          .map(
            (q) =>
              `<li class="${esc(q.certainty)}">→ ${esc(q.text)} <span ` +
              `class="src">[${esc(CERTAINTY_LABEL[q.certainty])}: ${esc(q.source)}]</span></li>`,
          )
          .join('')}</ul>\n`
      : '';
  const ev =
    fl.evidence.length > 0
      ? `<ul ` +
        `class="evidence">${fl.evidence
          .map((e) => `<li>${esc(e.text)}${e.where ? ` <span ` + `class="src">(${esc(e.where)})</span>` : ''}</li>`)
          .join('')}</ul>`
      : '';
  return `${cq}${ev}
${fixBlock(words, fl)}
<p class="tag">${esc(labelsOf(words).about)}${labelsOf(words).gap}${esc(fl.ids.join(' · '))}${
    fl.doc ? ` ` + `· ${esc(fl.doc)}` : ''
  }</p>`;
}

function fixBlock(words: Words, fl: FindingLines): string {
  const fix = fl.fix;
  if (!fix) return '';
  const lines = [
    ...(fix.act ? [`$ ${esc(fix.act)}   <span class="src"># ${esc(labelsOf(words).actNote)}</span>`] : []),
    ...fix.commands.map((c) => `$ ${esc(c)}`),
  ];
  const cmds = lines.length > 0 ? `<pre>${lines.join('\n')}</pre>` : '';
  const manual =
    fix.byHand.length > 0
      ? `<p class="meta">${esc(labelsOf(words).byHand)}</p><pre>${fix.byHand.map((c) => esc(c)).join('\n')}</pre>`
      : '';
  return (
    `<div ` +
    `class="fix"><b>${esc(labelsOf(words).fix)}</b>${labelsOf(words).gap}${esc(fix.text)}${cmds}${manual}</div>`
  );
}

function memorySection(words: Words, m: ReportModel): string {
  if (m.bars.length === 0) return '';
  const gpus = m.bars.map(
    (b) => `<div class="gpu" data-gpu="${b.index}">
<h3>GPU ${b.index}: ${esc(b.name)} <span class="tag">${esc(fmtMiB(b.totalMiB))}</span></h3>
${memoryBar(b)}
${barLegend(b)}
</div>`,
  );
  return `<section id="memory">
<h2>${words.t('report.gpuMemory')}${m.barsCaption ? ` <span class="meta">${esc(m.barsCaption)}</span>` : ''}</h2>
${gpus.join('\n')}
</section>`;
}

function timelineSection(words: Words, m: ReportModel): string {
  const tl = m.timeline;
  if (!tl || !m.run) return '';
  if (!tl.available || tl.gpus.length === 0)
    return (
      `<section id="timeline"><h2>${words.t('report.memoryOverTime')}</h2><p ` +
      `class="meta">${esc(tl.note ?? words.t('report.notSampled'))}</p></section>`
    );
  const dur = m.run.durationMs;
  const charts = tl.gpus.map(
    (g) => `<div class="chart" data-gpu="${g.index}"><h3>GPU ${g.index}</h3>${timelineChart(words, g, tl, dur)}</div>`,
  );
  return (
    `<section id="timeline">
<h2>${words.t('report.memoryOverTime')}</h2>
<p class="key"><i style="background:var(--o4)"></i>${words.t('report.keyUsed')} <i style="background:var(--job)">` +
    `</i>${words.t('report.keyJob')} <i style="background:var(--muted)"></i>${words.t('report.keyTotal')}${
      tl.failureAt !== undefined ? ` <i ` + `style="background:var(--fail)"></i>${words.t('report.keyFailure')}` : ''
    } · ${words.t('report.keyInterval', { interval: tl.intervalMs })}</p>
${charts.join('\n')}
${processTable(words, m)}
</section>`
  );
}

function processTable(words: Words, m: ReportModel): string {
  const ps = m.timeline?.processes ?? [];
  if (ps.length === 0) return '';
  const uuidToIndex = new Map((m.timeline?.gpus ?? []).map((g) => [g.uuid, g.index]));
  const rows = ps.map(
    (p) =>
      `<tr><td>${p.pid}</td><td>${esc(whose(p))}</td><td>${esc(uuidToIndex.get(p.gpuUuid) ?? p.gpuUuid)}</td>` +
      `<td>${esc(fmtMiB(p.peakMiB))}</td><td>${esc(fmtSeconds(words, p.firstSeen))} ` +
      `– ${esc(fmtSeconds(words, p.lastSeen))}</td></tr>`,
  );
  return (
    `<h3>${words.t('report.processesSeen')}</h3><div class="table-wrap"><table ` +
    `class="procs"><thead><tr><th>PID</th><th>${words.t('report.col.whose')}</th><th>GPU</th>` +
    `<th>${words.t('report.col.peak')}</th><th>${words.t('report.col.seen')}</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

function findingsSection(words: Words, m: ReportModel): string {
  if (m.findings.length === 0) return '';
  const problems = m.findings.filter((f) => f.mark !== 'ok' && f.mark !== 'skip');
  // Version facts have their own table below: each fact once.
  const fine = m.findings.filter(
    (f) => f.mark === 'ok' && !isBareOk(f) && !(m.versions.length > 0 && f.category === CATEGORIES.versions),
  );
  const skipped = m.findings.filter((f) => f.mark === 'skip');
  const none =
    m.verdict.mark === 'skip'
      ? `<p>${mark(words, 'skip')} ${esc(m.verdict.text)}</p>`
      : `<p>${esc(labelsOf(words).noProblems)}</p>`;
  return `<section id="findings">
<h2>${words.t('report.findings')}</h2>
${problems.length === 0 ? none : problems.map((f) => findingCard(words, f)).join('\n')}
${
  fine.length > 0
    ? `<h3>${words.t('report.passed')}</h3><ul ` +
      `class="passed">${fine.map((f) => `<li>${mark(words, 'ok')} ${esc(f.message)}</li>`).join('')}</ul>`
    : ''
}
${
  skipped.length > 0
    ? `<h3>${words.t('report.notChecked')}</h3><ul ` +
      `class="passed">${skipped.map((f) => `<li>${mark(words, 'skip')} ${esc(f.message)}</li>`).join('')}</ul>`
    : ''
}
</section>`;
}

function findingCard(words: Words, f: FindingView): string {
  return `<div class="card finding ${f.mark}" data-check="${esc(f.check)}">
<h3>${mark(words, f.mark)} ${esc(f.lines.headline)}</h3>
${f.lines.details.map((d) => `<p>${esc(d)}</p>`).join('')}
${blockBody(words, f.lines)}
</div>`;
}

function versionsSection(words: Words, m: ReportModel): string {
  if (m.versions.length === 0) return '';
  const rows = m.versions.map(
    (v) =>
      `<tr><td>${mark(words, v.mark)}</td><td>${esc(v.item)}</td><td>${esc(v.value)}${
        v.note ? `<br><span ` + `class="meta">${esc(v.note)}</span>` : ''
      }</td></tr>`,
  );
  return (
    `<section id="versions"><h2>${words.t('report.versions')}</h2><div class="table-wrap"><table ` +
    `class="versions"><thead><tr><th></th><th>${words.t('report.col.what')}</th>` +
    `<th>${words.t('report.col.version')}</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`
  );
}

function librariesSection(words: Words, m: ReportModel): string {
  if (!m.libraries || m.libraries.length === 0) return '';
  // paths relative to the consumer's environment, breakable only after a slash (a file name stays whole)
  const pathCell = (p: string, env: string | null | undefined) =>
    shortPath(p, env ?? null)
      .split('/')
      .map(esc)
      .join('/<wbr>');
  const rows = m.libraries.map(
    (r) =>
      `<tr class="${r.path === null ? 'missing' : ''}"><td class="mono ` +
      `name">${esc(r.consumer.split('/').pop() ?? r.consumer)}${
        r.framework ? ` <span ` + `class="tag">${esc(r.framework)}</span>` : ''
      }</td><td ` +
      `class="mono name">${esc(r.name)}</td><td class="mono ` +
      (`path">` +
        (r.path === null ? `${mark(words, 'fail')} ${words.t('report.notFound')}` : pathCell(r.path, r.environment)) +
        `</td><td>${esc(r.version ?? '?')}</td><td>${esc(viaWords(words, r.via))}</td></tr>`),
  );
  const missing = m.libraries.filter((r) => r.path === null).length;
  // collapsed: the answer is in the findings above; the table is there to check it
  return (
    `<section ` +
    `id="libraries"><h2>${words.t('report.libraryResolution')}</h2><details${missing > 0 ? ' open' : ''}>` +
    `<summary>${esc(words.t('report.librariesSummary', { n: m.libraries.length, missing }))}</summary><div ` +
    `class="table-wrap"><table ` +
    `class="libraries"><thead><tr><th>${words.t('report.col.loadedBy')}</th>` +
    `<th>${words.t('report.col.library')}</th><th>${words.t('report.col.resolvesTo')}</th>` +
    `<th>${words.t('report.col.version')}</th><th>${words.t('report.col.via')}</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div></details></section>`
  );
}

function logSection(words: Words, m: ReportModel): string {
  if (!m.log || m.log.lines.length === 0) return '';
  const lines = m.log.lines.map(
    (l) =>
      `<li class="${[l.stream ?? '', l.evidence ? 'hit' : ''].join(' ').trim()}" data-line="${l.n}"><span ` +
      `class="n">${l.n}</span>${esc(l.text)}</li>`,
  );
  return (
    `<section id="log"><h2>${esc(m.log.title)}</h2><details ` +
    `open>` +
    (`<summary>` +
      (m.causes.length > 0
        ? words.t('report.logLinesHit', { n: m.log.lines.length })
        : words.t('report.logLines', { n: m.log.lines.length })) +
      `</summary><ol `) +
    `class="log">${lines.join('')}</ol></details></section>`
  );
}

function factsSection(words: Words, m: ReportModel): string {
  if (m.facts.length === 0) return '';
  return (
    `<section id="facts"><h2>${words.t('report.facts')}</h2><dl ` +
    `class="facts">${m.facts
      .map((f) => `<dt>${esc(f.label)}</dt><dd ` + `class="mono">${esc(f.value)}</dd>`)
      .join('')}</dl></section>`
  );
}

function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}
