// Help texts, built from the one option table and each command's own words, wrapped to the terminal:
// `gpu-env-doctor --help`, `gpu-env-doctor COMMAND --help` and `gpu-env-doctor help COMMAND`.
import { wrap } from '../reporters/layout.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { ACCEPTS, OPTIONS, type OptionDef } from './options.js';

export interface HelpText {
  name: string;
  summary: string;
  /** after the tool's name: "check [OPTIONS]" */
  synopsis: string;
  /** paragraphs, separated by blank lines */
  description: string;
  /** [command line, what it does] */
  examples: readonly (readonly [string, string])[];
  /** one line about the exit codes */
  exitCodes?: string;
}

const OPTION_COL = 26;

export function optionLines(command: string, width: number): string[] {
  const out: string[] = [];
  for (const name of ACCEPTS[command] ?? []) {
    const d: OptionDef = OPTIONS[name];
    const flagText = `${d.short ? `-${d.short}, ` : '    '}--${name}${d.type === 'string' ? (d.value?.startsWith('[') ? d.value : ` ${d.value ?? 'VALUE'}`) : ''}${d.multiple ? '...' : ''}`;
    const left = `  ${flagText}`;
    if (left.length + 2 > OPTION_COL) {
      out.push(left);
      out.push(...wrap(d.help, width, ' '.repeat(OPTION_COL)));
    } else {
      out.push(...wrap(d.help, width, left.padEnd(OPTION_COL), ' '.repeat(OPTION_COL)));
    }
  }
  return out;
}

export function commandHelp(h: HelpText, width: number): string {
  const out: string[] = [...wrap(`Usage: ${TOOL_NAME} ${h.synopsis}`, width, '', '       '), ''];
  for (const para of h.description.split(/\n\s*\n/)) out.push(...wrap(para.replace(/\s*\n\s*/g, ' ').trim(), width), '');
  out.push('Options:', ...optionLines(h.name, width), '');
  if (h.examples.length > 0) {
    out.push('Examples:');
    for (const [cmd, what] of h.examples) out.push(`  $ ${cmd}`, ...wrap(what, width, '      '));
    out.push('');
  }
  if (h.exitCodes) out.push(...wrap(`Exit codes: ${h.exitCodes}`, width, '', '  '), '');
  out.push(...wrap(`Learn more: every finding has a page in docs/findings/ (its id is shown with -v); the README has the whole tour.`, width));
  return `${out.join('\n')}\n`;
}

export function globalHelp(commands: readonly { name: string; summary: string }[], width: number): string {
  const w = Math.max(...commands.map((c) => c.name.length));
  const out: string[] = [`${TOOL_NAME} ${TOOL_VERSION}: why your GPU deep-learning job failed, and how to fix it.`, '', `Usage: ${TOOL_NAME} [COMMAND] [OPTIONS]`, '', 'Commands:'];
  for (const c of commands) out.push(...wrap(c.summary, width, `  ${c.name.padEnd(w)}  `, ' '.repeat(w + 4)));
  out.push('', 'Options most commands take (each command --help lists its own):');
  for (const name of ['json', 'markdown', 'html', 'from', 'root', 'fail-on', 'verbose', 'quiet', 'redact', 'color'] as const) {
    const d: OptionDef = OPTIONS[name];
    const left = `  ${d.short ? `-${d.short}, ` : ''}--${name}${d.type === 'string' ? (d.value?.startsWith('[') ? d.value : ` ${d.value ?? 'VALUE'}`) : ''}`;
    out.push(...wrap(d.help, width, left.padEnd(OPTION_COL), ' '.repeat(OPTION_COL)));
  }
  out.push(
    '',
    ...wrap(`More: ${TOOL_NAME} help COMMAND (or COMMAND --help); ${TOOL_NAME} completion bash|zsh|fish; ${TOOL_NAME} --version.`, width),
    ...wrap('Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage error or failure of the tool.', width),
  );
  return `${out.join('\n')}\n`;
}
