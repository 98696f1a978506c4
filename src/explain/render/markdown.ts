// The Markdown rendering of a Diagnosis, to paste into an issue or a chat: verdict, causes with evidence in
// code blocks, fixes, and the facts read from the input.
import { ROOT_CAUSE_TITLES } from '../../core/root-causes.js';
import type { Diagnosis } from '../types.js';
import { describeFacts } from './terminal.js';

export function renderExplainMarkdown(d: Diagnosis): string {
  const out: string[] = [];
  out.push('## gpu-env-doctor explain');
  out.push('');
  out.push(`**${d.verdict}**`);
  out.push('');
  const n = d.input.lines;
  const machine = !d.machine ? '' : d.machine.used ? `, combined with the facts of \`${d.machine.host ?? 'this machine'}\`` : '; this machine has no working NVIDIA GPU, so the log is judged alone';
  out.push(`Input: ${d.input.sources.map((s) => `\`${s}\``).join(', ')} (${n} line${n === 1 ? '' : 's'})${machine}.`);
  if (d.ambiguous || d.unknownMessage) {
    // one line per candidate, with the check that tells it apart; the evidence once
    const seen = new Set<number>();
    const ev = d.causes.flatMap((c) => c.evidence).filter((e) => e.source !== 'machine' && !seen.has(e.line) && seen.add(e.line));
    if (ev.length > 0) {
      out.push('');
      out.push('```');
      for (const e of ev.slice(0, 3)) out.push(`line ${e.line}: ${e.text.replace(/```/g, "'''")}`);
      out.push('```');
    }
    out.push('');
    out.push('| # | candidate | confidence | check |');
    out.push('| --- | --- | --- | --- |');
    d.causes.slice(0, 4).forEach((c, i) => {
      const check = c.test ? `${c.test.text}${c.test.command ? `: \`${c.test.command.replace(/`/g, "'")}\`` : ''}` : '';
      out.push(`| ${i + 1} | ${ROOT_CAUSE_TITLES[c.id]} | ${Math.round(c.confidence * 100)}% | ${check.replace(/\|/g, '\\|')} |`);
    });
    out.push('');
    out.push('What decides it: run `gpu-env-doctor check --deep` on the machine that failed, or paste the lines above the error.');
    return `${out.join('\n')}\n`;
  }
  d.causes.forEach((c, i) => {
    out.push('');
    out.push(`### ${i + 1}. ${c.setting ? `${c.setting} has a value the framework cannot parse` : ROOT_CAUSE_TITLES[c.id]} (${Math.round(c.confidence * 100)}%)`);
    out.push('');
    for (const w of c.why.filter((x) => !x.startsWith('against:'))) out.push(`- ${w}`);
    if (c.evidence.length > 0) {
      out.push('');
      out.push('```');
      for (const e of c.evidence) out.push(e.source === 'machine' ? `${e.text.replace(/```/g, "'''")}   (machine)` : `${e.source ? `${e.source} ` : ''}line ${e.line}: ${e.text.replace(/```/g, "'''")}`);
      out.push('```');
    }
    out.push('');
    out.push(`**Fix:** ${c.fix.text}`);
    if (c.fix.commands.length > 0) {
      out.push('');
      out.push('```sh');
      for (const cmd of c.fix.commands) out.push(cmd);
      out.push('```');
    }
    for (const m of c.fix.manual ?? []) out.push(`- By hand, after checking: \`${m.replace(/`/g, "'")}\``);
  });
  const facts = describeFacts(d.environment);
  if (facts.length > 0) {
    out.push('');
    out.push('<details><summary>Facts read from the input</summary>');
    out.push('');
    for (const f of facts) out.push(`- ${f}`);
    out.push('');
    out.push('</details>');
  }
  return `${out.join('\n')}\n`;
}
