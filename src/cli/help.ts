// Help texts, built from the one option table and each command's own words, wrapped to the terminal:
// `gpu-env-doctor --help`, `gpu-env-doctor COMMAND --help` and `gpu-env-doctor help COMMAND`.
import { wrap } from '../report/layout.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import { t } from '../base/i18n/index.js';
import { ACCEPTS, OPTIONS, optionHelp, type OptionDef } from './options.js';
import type { Words } from '../base/i18n/words.js';

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

export function optionLines(words: Words, command: string, width: number): string[] {
  const out: string[] = [];
  for (const name of ACCEPTS[command] ?? []) {
    const d: OptionDef = OPTIONS[name];
    const flagText = `${d.short ? `-${d.short}, ` : '    '}--${name}${
      d.type === 'string' ? (d.value?.startsWith('[') ? d.value : ` ` + `${d.value ?? 'VALUE'}`) : ''
    }${d.multiple ? '...' : ''}`;
    const left = `  ${flagText}`;
    if (left.length + 2 > OPTION_COL) {
      out.push(left);
      out.push(...wrap(words, optionHelp(name), width, ' '.repeat(OPTION_COL)));
    } else {
      out.push(...wrap(words, optionHelp(name), width, left.padEnd(OPTION_COL), ' '.repeat(OPTION_COL)));
    }
  }
  return out;
}

/** `findings`: where the findings pages are installed (printed so they can be opened after a global install) */
export function commandHelp(words: Words, h: HelpText, width: number, findings = 'docs/findings/'): string {
  const out: string[] = [
    ...wrap(words, t('help.usage', { tool: TOOL_NAME, synopsis: h.synopsis }), width, '', '       '),
    '',
  ];
  for (const para of h.description.split(/\n\s*\n/))
    out.push(...wrap(words, para.replace(/\s*\n\s*/g, ' ').trim(), width), '');
  out.push(t('help.options'), ...optionLines(words, h.name, width), '');
  if (h.examples.length > 0) {
    out.push(t('help.examples'));
    for (const [cmd, what] of h.examples) out.push(`  $ ${cmd}`, ...wrap(words, what, width, '      '));
    out.push('');
  }
  if (h.exitCodes) out.push(...wrap(words, t('help.exitCodes', { text: h.exitCodes }), width, '', '  '), '');
  out.push(...wrap(words, t('help.learnMore', { dir: findings }), width));
  return `${out.join('\n')}\n`;
}

export function globalHelp(
  words: Words,
  commands: readonly { name: string; summary: string }[],
  width: number,
): string {
  const w = Math.max(...commands.map((c) => c.name.length));
  const out: string[] = [
    t('help.tagline', { tool: TOOL_NAME, version: TOOL_VERSION }),
    '',
    t('help.globalUsage', { tool: TOOL_NAME }),
    '',
    t('help.commands'),
  ];
  for (const c of commands) out.push(...wrap(words, c.summary, width, `  ${c.name.padEnd(w)}  `, ' '.repeat(w + 4)));
  out.push('', t('help.commonOptions'));
  for (const name of [
    'json',
    'markdown',
    'html',
    'from',
    'root',
    'fail-on',
    'verbose',
    'quiet',
    'redact',
    'color',
  ] as const) {
    const d: OptionDef = OPTIONS[name];
    const left =
      `  ` +
      `${d.short ? `-${d.short}, ` : ''}--${name}${
        d.type === 'string' ? (d.value?.startsWith('[') ? d.value : ` ` + `${d.value ?? 'VALUE'}`) : ''
      }`;
    out.push(...wrap(words, optionHelp(name), width, left.padEnd(OPTION_COL), ' '.repeat(OPTION_COL)));
  }
  out.push('', ...wrap(words, t('help.more', { tool: TOOL_NAME }), width), ...wrap(words, t('help.globalExit'), width));
  return `${out.join('\n')}\n`;
}
