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
  out.push(`Input: ${d.input.sources.map((s) => `\`${s}\``).join(', ')} (${d.input.lines} lines)${d.machine?.used ? `, combined with the facts of \`${d.machine.host ?? 'this machine'}\`` : ''}.`);
  d.causes.forEach((c, i) => {
    out.push('');
    out.push(`### ${i + 1}. ${ROOT_CAUSE_TITLES[c.id]} (\`${c.id}\`, ${Math.round(c.confidence * 100)}%)`);
    out.push('');
    for (const w of c.why.filter((x) => !x.startsWith('against:'))) out.push(`- ${w}`);
    if (c.evidence.length > 0) {
      out.push('');
      out.push('```');
      for (const e of c.evidence) out.push(`${e.source === 'machine' ? 'machine' : `${e.source ? `${e.source}:` : ''}${e.line}`}: ${e.text.replace(/```/g, "'''")}`);
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
    for (const m of c.fix.manual ?? []) out.push(`- manual step: ${m}`);
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
