// The Markdown report, for pasting into a GitHub issue (what every framework's issue template asks for):
// a summary on top, the details folded in <details> sections. Text from the machine or a log is escaped
// so it cannot start formatting or HTML, and code blocks use a fence longer than any run of backticks inside.
import { CERTAINTY_LABEL } from '../core/finding.js';
import { fmtMiB } from '../core/format.js';
import { whose } from '../run/memory-timeline.js';
import { fmtSeconds } from './html/svg.js';
import { clean } from './html/escape.js';
import type { Mark, ReportModel } from './report-model.js';

const SYMBOL: Record<Mark, string> = { ok: '✓', warn: '⚠', fail: '✗', unknown: '?' };

export function renderMarkdown(m: ReportModel): string {
  const out: string[] = [];
  out.push(`### ${text(m.title)}`, '');
  out.push(`**${SYMBOL[m.verdict.mark]} ${text(m.verdict.text)}**`, '');
  out.push(`<sub>${text(`${m.tool.name} ${m.tool.version} · ${m.generatedAt}`)}</sub>`, '');

  if (m.run) {
    out.push(fence(`$ ${m.run.argv.map(shellWord).join(' ')}`, 'console'));
    out.push(`${text(m.run.exitText)} after ${text(fmtSeconds(m.run.durationMs))}.`, '');
  }

  if (m.diagnosed) {
    out.push('#### Diagnosis', '');
    if (m.causes.length === 0) out.push('Nothing in the output points to a known cause.', '');
    m.causes.forEach((c, i) => {
      out.push(`${i + 1}. **${text(c.title)}** (\`${c.id}\`, ${Math.round(c.confidence * 100)}%): ${text(c.summary)}`);
      if (c.fix) out.push(`   Fix: ${text(c.fix.text)}`);
    });
    if (m.causes.length > 0) out.push('');
  }

  const problems = m.findings.filter((f) => f.mark !== 'ok');
  if (m.findings.length > 0) {
    out.push('| | area | finding | check |', '|---|---|---|---|');
    for (const f of problems) out.push(`| ${SYMBOL[f.mark]} | ${cell(f.category)} | ${cell(f.message)} | \`${cell(f.check)}\` |`);
    if (problems.length === 0) out.push('| ✓ | all | no problems found | |');
    out.push('');
  }

  if (m.bars.length > 0) {
    out.push(`#### GPU memory${m.barsCaption ? ` (${text(m.barsCaption)})` : ''}`, '', '| GPU | total | this job | other processes | not attributed | free |', '|---|---|---|---|---|---|');
    for (const b of m.bars) {
      const seg = (k: string) => b.segments.filter((s) => s.kind === k);
      const sum = (k: string) => seg(k).reduce((a, s) => a + s.miB, 0);
      const others = seg('other').map((s) => `${s.label}: ${fmtMiB(s.miB)}`).join('; ') || '–';
      out.push(`| ${b.index} ${cell(b.name)} | ${fmtMiB(b.totalMiB)} | ${seg('job').length ? fmtMiB(sum('job')) : '–'} | ${cell(others)} | ${sum('unattributed') ? fmtMiB(sum('unattributed')) : '–'} | ${fmtMiB(sum('free'))} |`);
    }
    out.push('');
  }

  if (m.timeline && m.run) {
    const tl = m.timeline;
    const body: string[] = [];
    if (!tl.available) body.push(text(tl.note ?? 'GPU memory was not sampled.'));
    for (const g of tl.gpus) {
      body.push(`- GPU ${g.index}: peak ${fmtMiB(g.peakUsedMiB)} of ${fmtMiB(g.totalMiB)}${g.peakJobMiB !== null ? `, this job at most ${fmtMiB(g.peakJobMiB)}` : ''}, headroom ${fmtMiB(g.totalMiB - g.peakUsedMiB)}; ${g.points.length} samples every ${tl.intervalMs} ms`);
    }
    if (tl.processes.length > 0) {
      body.push('', '| PID | whose | peak | seen |', '|---|---|---|---|');
      for (const p of tl.processes) body.push(`| ${p.pid} | ${whose(p)} | ${fmtMiB(p.peakMiB)} | ${fmtSeconds(p.firstSeen)} – ${fmtSeconds(p.lastSeen)} |`);
    }
    if (tl.failureAt !== undefined) body.push('', `The job failed at ${fmtSeconds(tl.failureAt)}.`);
    out.push(...details('Memory over time', body));
  }

  if (problems.length > 0) {
    const body: string[] = [];
    for (const f of problems) {
      body.push(`**${SYMBOL[f.mark]} ${text(f.message)}** \`${f.check}\`${f.rootCause ? ` · \`${f.rootCause}\`` : ''}`, '');
      if (f.details) body.push(text(f.details), '');
      if (f.consequences.length > 0) body.push(...f.consequences.map((q) => `- ${text(q.text)} _[${CERTAINTY_LABEL[q.certainty]}: ${text(q.source)}]_`), '');
      if (f.evidence.length > 0) body.push(fence(f.evidence.map((e) => `${e.text}${e.source ? `   (${e.source}${e.line !== undefined ? `:${e.line}` : ''})` : ''}`).join('\n')));
      if (f.fix) {
        body.push(`Fix: ${text(f.fix.text)}`, '');
        if (f.fix.commands.length > 0) body.push(fence(f.fix.commands.join('\n'), 'sh'));
        if (f.fix.manual.length > 0) body.push('Check first, then by hand:', '', fence(f.fix.manual.join('\n')));
      }
    }
    out.push(...details('Findings: evidence and fixes', body));
  }

  if (m.causes.some((c) => c.evidence.length > 0)) {
    const body: string[] = [];
    for (const c of m.causes) {
      if (c.evidence.length === 0) continue;
      body.push(`\`${c.id}\``, '', fence(c.evidence.map((e) => `${e.line === null ? 'machine' : String(e.line).padStart(7)}: ${e.text}`).join('\n')));
      if (c.fix && (c.fix.commands.length > 0 || c.fix.manual.length > 0)) body.push(fence([...c.fix.commands, ...c.fix.manual.map((x) => `# check first: ${x}`)].join('\n'), 'sh'));
    }
    out.push(...details('Diagnosis: evidence from the output', body));
  }

  if (m.versions.length > 0) {
    out.push(...details('Versions', ['| | what | version |', '|---|---|---|', ...m.versions.map((v) => `| ${v.mark ? SYMBOL[v.mark] : '–'} | ${cell(v.item)} | ${cell(v.value)}${v.note ? ` (${cell(v.note)})` : ''} |`)]));
  }
  if (m.libraries && m.libraries.length > 0) {
    out.push(
      ...details('Library resolution', [
        '| loaded by | library | resolves to | version | via |',
        '|---|---|---|---|---|',
        ...m.libraries.map((r) => `| ${cell(r.consumer)} | ${cell(r.name)} | ${r.path === null ? '✗ not found' : cell(r.path)} | ${cell(r.version ?? '?')} | ${cell(r.via)} |`),
      ]),
    );
  }
  if (m.log && m.log.lines.length > 0) {
    out.push(...details(`${m.log.title} (${m.log.lines.length} lines)`, [fence(m.log.lines.map((l) => clean(l.text)).join('\n'))]));
  }
  if (m.facts.length > 0) {
    out.push(...details('Facts', ['| | |', '|---|---|', ...m.facts.map((f) => `| ${cell(f.label)} | ${cell(f.value)} |`)]));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function details(summary: string, body: string[]): string[] {
  // The blank line after <summary> makes GitHub render the Markdown inside.
  return ['<details>', `<summary>${text(summary)}</summary>`, '', ...body, '', '</details>', ''];
}

/** A fenced code block whose fence is longer than any run of backticks (or tildes) in the content. */
export function fence(content: string, lang = ''): string {
  const body = clean(content);
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${body}\n${f}\n`;
}

/** Inline text: no HTML, no emphasis, links or headings started by accident. */
export function text(s: string): string {
  return clean(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]#|~])/g, '\\$1')
    // "@name" would notify a GitHub user, "#12" link an issue: a zero-width space keeps them text.
    .replace(/@(?=\w)/g, '@&#8203;')
    .replace(/\r?\n/g, ' ');
}

/** Text in a table cell: also no line breaks (a newline ends the row). */
function cell(s: string): string {
  return text(s).trim() || ' ';
}

function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}
