// The Markdown report, for pasting into a GitHub issue (what every framework's issue template asks for):
// a summary on top, the details folded in <details> sections. Every finding and cause comes from the one
// finding model (./finding-lines.ts); text from the machine or a log is escaped by ./escape.ts, so it cannot
// start formatting, HTML, links or images, and code spans and fences are longer than any backtick run inside.
import { CERTAINTY_LABEL } from '../judge/finding.js';
import { fmtMiB } from '../base/format.js';
import { whose } from '../gather/nvidia/memory-timeline.js';
import { fmtSeconds } from './html/svg.js';
import { logLine, mdCell, mdCode, mdFence, mdText } from './escape.js';
import type { FindingLines } from './finding-lines.js';
import { labelsOf } from './labels.js';
import { SYMBOLS } from './layout.js';
import type { Mark, ReportModel } from './model.js';
import type { MessageKey } from '../base/i18n/index.js';
import type { Words } from '../base/i18n/words.js';

const SYMBOL: Record<Mark, string> = SYMBOLS;

export function renderMarkdown(words: Words, m: ReportModel): string {
  const out: string[] = [];
  out.push(`### ${text(m.title)}`, '');
  if (m.sourceLine) out.push(`<sub>${text(m.sourceLine)}</sub>`, '');
  out.push(`**${SYMBOL[m.verdict.mark]} ${text(m.verdict.text)}**`, '');
  out.push(
    `<sub>${text(words.t('report.made', { tool: m.tool.name, version: m.tool.version, at: m.generatedAt }))}</sub>`,
    '',
  );

  if (m.run) {
    out.push(fence(`$ ${m.run.argv.map(shellWord).join(' ')}`, 'console'));
    out.push(
      text(words.t('report.runEnded', { exit: m.run.exitText, duration: fmtSeconds(words, m.run.durationMs) })),
      '',
    );
  }

  if (m.diagnosed) {
    out.push(`#### ${words.t('report.diagnosis')}`, '');
    if (m.causes.length === 0) out.push(words.t('report.nothingOutput'), '');
    m.causes.forEach((c, i) => {
      out.push(
        `${labelsOf(words).rank(i + 1)} **${text(c.title)}** ` +
          `(${Math.round(c.confidence * 100)}%)${c.lines.details[0] ? `: ${text(c.lines.details[0])}` : ''}`,
      );
    });
    if (m.causes.length > 0) out.push('');
  }

  const problems = m.findings.filter((f) => f.mark !== 'ok' && f.mark !== 'skip');
  if (m.findings.length > 0) {
    out.push(`| | ${words.t('report.col.area')} | ${words.t('report.col.finding')} |`, '|---|---|---|');
    for (const f of problems) out.push(`| ${SYMBOL[f.mark]} | ${cell(f.category)} | ${cell(f.message)} |`);
    if (problems.length === 0) {
      if (m.verdict.mark === 'skip')
        out.push(`| ${SYMBOL.skip} | ${words.t('report.all')} | ${cell(m.verdict.text)} |`);
      else if (m.run?.failed)
        out.push(`| ${SYMBOL.ok} | ${words.t('report.theMachine')} | ${words.t('report.noOtherProblem')} |`);
      else out.push(`| ${SYMBOL.ok} | ${words.t('report.all')} | ${words.t('report.noProblemsFound')} |`);
    }
    out.push('');
  }

  if (m.bars.length > 0) {
    out.push(
      `#### ` +
        (m.barsCaption
          ? text(words.t('report.gpuMemoryCaption', { caption: m.barsCaption }))
          : words.t('report.gpuMemory')),
      '',
      `| ` +
        (['gpu', 'total', 'thisJob', 'otherProcesses', 'notAttributed', 'reserved', 'free']
          .map((k) => words.t(`report.col.${k}` as MessageKey))
          .join(' | ') +
          ` `) +
        `|`,
      '|---|---|---|---|---|---|---|',
    );
    for (const b of m.bars) {
      const seg = (k: string) => b.segments.filter((s) => s.kind === k);
      const sum = (k: string) => seg(k).reduce((a, s) => a + s.miB, 0);
      const others =
        seg('other')
          .map((s) => `${s.label}: ${fmtMiB(s.miB)}`)
          .join(words.t('list.semicolon')) || '–';
      const opt = (k: string) => (sum(k) ? fmtMiB(sum(k)) : '–');
      out.push(
        `| ${b.index} ${cell(b.name)} | ${fmtMiB(b.totalMiB)} | ${seg('job').length ? fmtMiB(sum('job')) : '–'} | ` +
          `${cell(others)} | ${opt('unattributed')} | ${opt('reserved')} | ${fmtMiB(sum('free'))} |`,
      );
    }
    out.push('');
  }

  if (m.timeline && m.run) {
    const tl = m.timeline;
    const body: string[] = [];
    if (!tl.available) body.push(text(tl.note ?? words.t('report.notSampled')));
    for (const g of tl.gpus) {
      const p = {
        gpu: g.index,
        peak: fmtMiB(g.peakUsedMiB),
        total: fmtMiB(g.totalMiB),
        headroom: fmtMiB(g.totalMiB - g.peakUsedMiB),
        samples: g.points.length,
        interval: tl.intervalMs,
      };
      body.push(
        `- ` +
          (g.peakJobMiB !== null
            ? words.t('report.peakLineJob', { ...p, job: fmtMiB(g.peakJobMiB) })
            : words.t('report.peakLine', p)),
      );
    }
    if (tl.processes.length > 0) {
      body.push(
        '',
        `| ${['pid', 'whose', 'peak', 'seen'].map((k) => words.t(`report.col.${k}` as MessageKey)).join(' | ')} |`,
        '|---|---|---|---|',
      );
      for (const p of tl.processes)
        body.push(
          `| ${p.pid} | ${cell(whose(p))} | ${fmtMiB(p.peakMiB)} | ${fmtSeconds(words, p.firstSeen)} – ` +
            `${fmtSeconds(words, p.lastSeen)} |`,
        );
    }
    if (tl.failureAt !== undefined) body.push('', words.t('report.failedAt', { at: fmtSeconds(words, tl.failureAt) }));
    out.push(...details(words.t('report.memoryOverTime'), body));
  }

  if (problems.length > 0) {
    const body: string[] = [];
    for (const f of problems) body.push(...block(words, f.lines, `${SYMBOL[f.mark]} `));
    out.push(...details(words.t('report.findingsEvidence'), body));
  }

  if (m.causes.length > 0) {
    const body: string[] = [];
    m.causes.forEach((c, i) => body.push(...block(words, c.lines, `${labelsOf(words).rank(i + 1)} `)));
    out.push(...details(words.t('report.diagnosisEvidence'), body));
  }

  if (m.versions.length > 0) {
    out.push(
      ...details(words.t('report.versions'), [
        `| | ${words.t('report.col.what')} | ${words.t('report.col.version')} |`,
        '|---|---|---|',
        ...m.versions.map(
          (v) =>
            `| ${v.mark ? SYMBOL[v.mark] : '–'} | ${cell(v.item)} | ` +
            `${cell(v.value)}${v.note ? ` (${cell(v.note)})` : ''} |`,
        ),
      ]),
    );
  }
  if (m.libraries && m.libraries.length > 0) {
    out.push(
      ...details(words.t('report.libraryResolution'), [
        `| ` +
          (['loadedBy', 'library', 'resolvesTo', 'version', 'via']
            .map((k) => words.t(`report.col.${k}` as MessageKey))
            .join(' | ') +
            ` `) +
          `|`,
        '|---|---|---|---|---|',
        ...m.libraries.map(
          (r) =>
            `| ${cell(r.consumer.split('/').pop() ?? r.consumer)} | ${cell(r.name)} | ` +
            `${r.path === null ? `${SYMBOL.fail} ${words.t('report.notFound')}` : cell(r.path)} | ` +
            `${cell(r.version ?? '?')} | ${cell(r.via)} |`,
        ),
      ]),
    );
  }
  if (m.log && m.log.lines.length > 0) {
    out.push(
      ...details(words.t('report.logTitle', { title: m.log.title, n: m.log.lines.length }), [
        fence(m.log.lines.map((l) => l.text).join('\n')),
      ]),
    );
  }
  if (m.facts.length > 0) {
    out.push(
      ...details(words.t('report.facts'), [
        '| | |',
        '|---|---|',
        ...m.facts.map((f) => `| ${cell(f.label)} | ${cell(f.value)} |`),
      ]),
    );
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** One finding or cause: the headline, details, evidence in a fence, the fix with the acting command first. */
function block(words: Words, fl: FindingLines, lead: string): string[] {
  const out: string[] = [`**${lead}${text(fl.headline)}**`, ''];
  for (const d of fl.details) out.push(text(d), '');
  // what frameworks do with the fact, each at its certainty and with its source
  if (fl.consequences.length > 0)
    out.push(
      ...fl.consequences.map((q) => `- ${text(q.text)} _[${CERTAINTY_LABEL[q.certainty]}: ${text(q.source)}]_`),
      '',
    );
  if (fl.evidence.length > 0)
    out.push(fence(fl.evidence.map((e) => `${e.text}${e.where ? `   (${e.where})` : ''}`).join('\n')));
  if (fl.fix) {
    out.push(`**${labelsOf(words).fix}**${labelsOf(words).gap}${text(fl.fix.text)}`, '');
    const cmds = [...(fl.fix.act ? [`${fl.fix.act}   # ${labelsOf(words).actNote}`] : []), ...fl.fix.commands];
    if (cmds.length > 0) out.push(fence(cmds.join('\n'), 'sh'));
    // By-hand steps in a code block too: a placeholder such as <index of an idle GPU> stays text.
    if (fl.fix.byHand.length > 0) out.push(`${labelsOf(words).byHand}`, '', fence(fl.fix.byHand.join('\n')));
  }
  const id = fl.ids[0];
  if (id)
    out.push(
      `<sub>${labelsOf(words).about}${labelsOf(words).gap}${mdCode(id)}${fl.doc ? ` (${mdCode(fl.doc)})` : ''}</sub>`,
      '',
    );
  return out;
}

function details(summary: string, body: string[]): string[] {
  // The blank line after <summary> makes GitHub render the Markdown inside.
  return ['<details>', `<summary>${text(summary)}</summary>`, '', ...body, '', '</details>', ''];
}

/** A fenced code block whose fence is longer than any run of backticks (or tildes) in the content. */
export function fence(content: string, lang = ''): string {
  return mdFence(content.split('\n').map(logLine).join('\n'), lang);
}

/** Inline text: no HTML, no emphasis, links or headings started by accident. */
export function text(s: string): string {
  return mdText(s);
}

/** Text in a table cell: also no line breaks (a newline ends the row). */
function cell(s: string): string {
  return mdCell(s);
}

function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}
