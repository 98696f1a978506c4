// The Markdown rendering of a Diagnosis, to paste into an issue or a chat, laid out from the one answer
// (./answer.ts): the headline, the input, the evidence once, the next step, then the causes (decided) or the
// candidates with what tells them apart (undecided). Everything read from the log or the machine is escaped
// (mdText, mdCode, fences longer than any backtick run), so a log line cannot open HTML, a link, an image or
// close the facts' <details>. Bold labels keep their colon outside the emphasis (`**修复**：`): CommonMark
// does not close `**` that follows punctuation and precedes a letter.
import { labelsOf } from '../../labels.js';
import { mdCell, mdCode, mdFence, mdText } from '../../escape.js';
import type { Diagnosis } from '../../../judge/explain/types.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { answerOf, type NextStep } from './answer.js';
import { describeFacts } from './terminal.js';
import type { Words } from '../../../base/i18n/words.js';

/** "**Fix**: " / "**修复**：": the label in bold, its colon after the emphasis */
export function mdLabel(words: Words, label: string): string {
  const m = /^(.*?)([:：])$/.exec(label.trim());
  return m ? `**${m[1]}**${m[2]}${labelsOf(words).gap}` : `**${label}**${labelsOf(words).gap}`;
}

export function renderExplainMarkdown(
  words: Words,
  d: Diagnosis,
  o: { snapshot?: Snapshot | null; snapshotLine?: string } = {},
): string {
  const out: string[] = [];
  out.push('## gpu-env-doctor explain');
  out.push('');
  const a = answerOf(words, d, { snapshot: o.snapshot ?? null });
  out.push(`**${mdText(a.headline)}**`);
  out.push('');
  const n = d.input.lines;
  const sources = d.input.sources.map((s) => mdCode(s)).join(', ');
  out.push(
    !d.machine
      ? words.t('explain.md.input', { sources, n })
      : d.machine.used
        ? words.t('explain.md.inputWith', {
            sources,
            n,
            host: mdCode(d.machine.host ?? words.t('explain.thisMachine')),
          })
        : words.t('explain.md.inputNoGpu', { sources, n }),
  );
  if (o.snapshotLine) out.push('', mdText(o.snapshotLine));
  if (a.undecided) {
    if (a.evidence.length > 0) {
      out.push('');
      out.push(mdFence(a.evidence.map((e) => (e.where ? `${e.text}   (${e.where})` : e.text)).join('\n')).trimEnd());
    }
    if (a.next) nextStep(words, a.next, out);
    out.push('');
    out.push(
      `| # | ${words.t('explain.md.candidate')} | ${words.t('explain.md.confidence')} | ` +
        `${words.t('explain.md.check')} |`,
    );
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
      out.push('');
      out.push(`### ${i + 1}. ${mdText(c.title)} (${c.pct}%)`);
      if (c.lines.details.length > 0) out.push('');
      for (const w of c.lines.details) out.push(`- ${mdText(w)}`);
      if (c.lines.evidence.length > 0) {
        out.push('');
        out.push(
          mdFence(c.lines.evidence.map((e) => (e.where ? `${e.text}   (${e.where})` : e.text)).join('\n')).trimEnd(),
        );
      }
      const fix = c.lines.fix;
      if (fix) {
        out.push('');
        out.push(`${mdLabel(words, i === 0 ? words.t('answer.next') : labelsOf(words).fix)}${mdText(fix.text)}`);
        const cmds = [...(fix.act ? [`${fix.act}    # ${labelsOf(words).actNote}`] : []), ...fix.commands];
        if (cmds.length > 0) {
          out.push('');
          out.push(mdFence(cmds.join('\n'), 'sh').trimEnd());
        }
        for (const m of fix.byHand) out.push(`- ${mdLabel(words, labelsOf(words).byHand)}${mdCode(m)}`);
      }
    });
  }
  const facts = describeFacts(words, d.environment);
  if (facts.length > 0) {
    out.push('');
    out.push(`<details><summary>${mdText(words.t('explain.factsRead'))}</summary>`);
    out.push('');
    for (const f of facts) out.push(`- ${mdText(f)}`);
    out.push('');
    out.push('</details>');
  }
  return `${out.join('\n')}\n`;
}

function nextStep(words: Words, n: NextStep, out: string[]): void {
  out.push('');
  out.push(`${mdLabel(words, words.t('answer.next'))}${mdText(n.text)}${n.where ? ` (${mdText(n.where)})` : ''}`);
  const cmds = [...(n.act ? [`${n.act}    # ${labelsOf(words).actNote}`] : []), ...n.commands];
  if (cmds.length > 0) {
    out.push('');
    out.push(mdFence(cmds.join('\n'), 'sh').trimEnd());
  }
  for (const m of n.byHand) out.push(`- ${mdLabel(words, labelsOf(words).byHand)}${mdCode(m)}`);
}
