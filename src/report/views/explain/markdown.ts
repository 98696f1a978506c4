// The Markdown rendering of a Diagnosis, to paste into an issue or a chat, laid out from the one answer
// (./answer.ts): the headline, the input, the evidence once, the next step, then the causes (decided) or the
// candidates with what tells them apart (undecided). Everything read from the log or the machine is escaped
// (mdText, mdCode, fences longer than any backtick run), so a log line cannot open HTML, a link, an image or
// close the facts' <details>. Bold labels keep their colon outside the emphasis (`**修复**：`): CommonMark
// does not close `**` that follows punctuation and precedes a letter.
import { LABELS } from '../../labels.js';
import { mdCell, mdCode, mdFence, mdText } from '../../escape.js';
import type { Diagnosis } from '../../../judge/explain/types.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { answerOf, type NextStep } from './answer.js';
import { describeFacts } from './terminal.js';
import { t } from '../../../base/i18n/index.js';

/** "**Fix**: " / "**修复**：": the label in bold, its colon after the emphasis */
export function mdLabel(label: string): string {
  const m = /^(.*?)([:：])$/.exec(label.trim());
  return m ? `**${m[1]}**${m[2]}${LABELS.gap}` : `**${label}**${LABELS.gap}`;
}

export function renderExplainMarkdown(
  d: Diagnosis,
  o: { snapshot?: Snapshot | null; snapshotLine?: string } = {},
): string {
  const out: string[] = [];
  out.push('## gpu-env-doctor explain');
  out.push('');
  const a = answerOf(d, { snapshot: o.snapshot ?? null });
  out.push(`**${mdText(a.headline)}**`);
  out.push('');
  const n = d.input.lines;
  const sources = d.input.sources.map((s) => mdCode(s)).join(', ');
  out.push(
    !d.machine
      ? t('explain.md.input', { sources, n })
      : d.machine.used
        ? t('explain.md.inputWith', { sources, n, host: mdCode(d.machine.host ?? t('explain.thisMachine')) })
        : t('explain.md.inputNoGpu', { sources, n }),
  );
  if (o.snapshotLine) out.push('', mdText(o.snapshotLine));
  if (a.undecided) {
    if (a.evidence.length > 0) {
      out.push('');
      out.push(mdFence(a.evidence.map((e) => (e.where ? `${e.text}   (${e.where})` : e.text)).join('\n')).trimEnd());
    }
    if (a.next) nextStep(a.next, out);
    out.push('');
    out.push(`| # | ${t('explain.md.candidate')} | ${t('explain.md.confidence')} | ${t('explain.md.check')} |`);
    out.push('| --- | --- | --- | --- |');
    a.causes.forEach((c, i) => {
      const tell = c.tell
        ? c.tell.command
          ? `${mdCell(c.tell.text)}: ${mdCode(c.tell.command, true)}`
          : mdCell(c.tell.text)
        : ' ';
      out.push(`| ${i + 1} | ${mdCell(c.title)} | ${c.pct}% | ${tell} |`);
    });
  } else {
    a.causes.forEach((c, i) => {
      const cause = d.causes[i]!;
      out.push('');
      out.push(`### ${i + 1}. ${mdText(c.title)} (${c.pct}%)`);
      out.push('');
      for (const w of cause.why.filter((x) => !x.startsWith('against:'))) out.push(`- ${mdText(w)}`);
      if (c.lines.evidence.length > 0) {
        out.push('');
        out.push(
          mdFence(c.lines.evidence.map((e) => (e.where ? `${e.text}   (${e.where})` : e.text)).join('\n')).trimEnd(),
        );
      }
      const fix = c.lines.fix;
      if (fix) {
        out.push('');
        out.push(`${mdLabel(i === 0 ? t('answer.next') : LABELS.fix)}${mdText(fix.text)}`);
        const cmds = [...(fix.act ? [`${fix.act}    # ${LABELS.actNote}`] : []), ...fix.commands];
        if (cmds.length > 0) {
          out.push('');
          out.push(mdFence(cmds.join('\n'), 'sh').trimEnd());
        }
        for (const m of fix.byHand) out.push(`- ${mdLabel(LABELS.byHand)}${mdCode(m)}`);
      }
    });
  }
  const facts = describeFacts(d.environment);
  if (facts.length > 0) {
    out.push('');
    out.push(`<details><summary>${mdText(t('explain.factsRead'))}</summary>`);
    out.push('');
    for (const f of facts) out.push(`- ${mdText(f)}`);
    out.push('');
    out.push('</details>');
  }
  return `${out.join('\n')}\n`;
}

function nextStep(n: NextStep, out: string[]): void {
  out.push('');
  out.push(`${mdLabel(t('answer.next'))}${mdText(n.text)}${n.where ? ` (${mdText(n.where)})` : ''}`);
  const cmds = [...(n.act ? [`${n.act}    # ${LABELS.actNote}`] : []), ...n.commands];
  if (cmds.length > 0) {
    out.push('');
    out.push(mdFence(cmds.join('\n'), 'sh').trimEnd());
  }
  for (const m of n.byHand) out.push(`- ${mdLabel(LABELS.byHand)}${mdCode(m)}`);
}
