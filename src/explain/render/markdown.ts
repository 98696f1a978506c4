// The Markdown rendering of a Diagnosis, to paste into an issue or a chat: verdict, causes with evidence in
// code blocks, fixes, and the facts read from the input.
import { ROOT_CAUSE_TITLES } from '../../core/root-causes.js';
import { LABELS } from '../../reporters/labels.js';
import type { Diagnosis } from '../types.js';
import { describeFacts } from './terminal.js';
import { t } from '../../i18n/index.js';

export function renderExplainMarkdown(d: Diagnosis): string {
  const out: string[] = [];
  out.push('## gpu-env-doctor explain');
  out.push('');
  out.push(`**${d.verdict}**`);
  out.push('');
  const n = d.input.lines;
  const sources = d.input.sources.map((s) => `\`${s}\``).join(', ');
  out.push(!d.machine ? t('explain.md.input', { sources, n }) : d.machine.used ? t('explain.md.inputWith', { sources, n, host: `\`${d.machine.host ?? t('explain.thisMachine')}\`` }) : t('explain.md.inputNoGpu', { sources, n }));
  if (d.ambiguous || d.unknownMessage) {
    // one line per candidate, with the check that tells it apart; the evidence once
    const seen = new Set<number>();
    const ev = d.causes.flatMap((c) => c.evidence).filter((e) => e.source !== 'machine' && !seen.has(e.line) && seen.add(e.line));
    if (ev.length > 0) {
      out.push('');
      out.push('```');
      for (const e of ev.slice(0, 3)) out.push(`${LABELS.logLine(e.line)}${LABELS.gap}${e.text.replace(/```/g, "'''")}`);
      out.push('```');
    }
    out.push('');
    out.push(`| # | ${t('explain.md.candidate')} | ${t('explain.md.confidence')} | ${t('explain.md.check')} |`);
    out.push('| --- | --- | --- | --- |');
    d.causes.slice(0, 4).forEach((c, i) => {
      const check = c.test ? (c.test.command ? t('explain.testCommand', { test: c.test.text, command: `\`${c.test.command.replace(/`/g, "'")}\`` }) : c.test.text) : '';
      out.push(`| ${i + 1} | ${ROOT_CAUSE_TITLES[c.id]} | ${Math.round(c.confidence * 100)}% | ${check.replace(/\|/g, '\\|')} |`);
    });
    out.push('');
    out.push(t('explain.md.decides'));
    return `${out.join('\n')}\n`;
  }
  d.causes.forEach((c, i) => {
    out.push('');
    out.push(`### ${i + 1}. ${c.setting ? t('explain.settingTitle', { setting: c.setting }) : ROOT_CAUSE_TITLES[c.id]} (${Math.round(c.confidence * 100)}%)`);
    out.push('');
    for (const w of c.why.filter((x) => !x.startsWith('against:'))) out.push(`- ${w}`);
    if (c.evidence.length > 0) {
      out.push('');
      out.push('```');
      for (const e of c.evidence) out.push(e.source === 'machine' ? `${e.text.replace(/```/g, "'''")}   ${t('explain.md.machine')}` : `${e.source ? `${e.source} ` : ''}${LABELS.logLine(e.line)}${LABELS.gap}${e.text.replace(/```/g, "'''")}`);
      out.push('```');
    }
    out.push('');
    out.push(`**${LABELS.fix}**${LABELS.gap}${c.fix.text}`);
    if (c.fix.commands.length > 0) {
      out.push('');
      out.push('```sh');
      for (const cmd of c.fix.commands) out.push(cmd);
      out.push('```');
    }
    for (const m of c.fix.manual ?? []) out.push(`- ${LABELS.byHand}${LABELS.gap}\`${m.replace(/`/g, "'")}\``);
  });
  const facts = describeFacts(d.environment);
  if (facts.length > 0) {
    out.push('');
    out.push(`<details><summary>${t('explain.factsRead')}</summary>`);
    out.push('');
    for (const f of facts) out.push(`- ${f}`);
    out.push('');
    out.push('</details>');
  }
  return `${out.join('\n')}\n`;
}
