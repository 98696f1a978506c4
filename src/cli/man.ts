// The manual page (man 1 gpu-env-doctor), built at build time from the same sources as --help: the one option
// table and each command's own help text, so the page cannot fall behind the CLI. Pure: text in, roff out.
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import { t } from '../base/i18n/index.js';
import type { HelpText } from './help.js';
import { ACCEPTS, OPTIONS, optionHelp, type OptionDef, type OptionName } from './options.js';

/** Text as roff reads it: backslashes and hyphens escaped, and no line taken for a request (. or ' first). */
export function roffEscape(s: string): string {
  return s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

function flag(name: OptionName): string {
  const d: OptionDef = OPTIONS[name];
  const value = d.type === 'string' ? (d.value?.startsWith('[') ? d.value : ` ${d.value ?? 'VALUE'}`) : '';
  const short = d.short ? `\\fB\\-${d.short}\\fR, ` : '';
  return `${short}\\fB\\-\\-${roffEscape(name)}\\fR${roffEscape(value)}${d.multiple ? '...' : ''}`;
}

const para = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => roffEscape(p.replace(/\s*\n\s*/g, ' ').trim()))
    .filter((p) => p !== '');

/** The variables the tool reads for itself (not those it reports on), with their help. */
const ENVIRONMENT = [
  ['GPU_ENV_DOCTOR_CONFIG', 'help.env.config'],
  ['GPU_ENV_DOCTOR_NO_CACHE', 'help.env.noCache'],
  ['XDG_CACHE_HOME', 'help.env.cacheHome'],
  ['NO_COLOR', 'help.env.noColor'],
] as const;
const SCAN_CACHE_FILE = '$XDG_CACHE_HOME/gpu-env-doctor/library-scan.json';

export function manPage(commands: readonly HelpText[]): string {
  const out: string[] = [
    `.TH ${TOOL_NAME.toUpperCase().replace(/-/g, '\\-')} 1 "" "${TOOL_NAME} ${TOOL_VERSION}" "User Commands"`,
    '.SH NAME',
    `${roffEscape(TOOL_NAME)} \\- ` +
      `${roffEscape(t('help.tagline', { tool: TOOL_NAME, version: TOOL_VERSION }).replace(/^[^:]*:\s*/, ''))}`,
    '.SH SYNOPSIS',
    `.B ${roffEscape(TOOL_NAME)}`,
    '[COMMAND] [OPTIONS]',
    '.SH COMMANDS',
  ];
  for (const c of commands) {
    out.push(`.SS "${roffEscape(c.synopsis).replace(/"/g, '""')}"`);
    for (const p of [c.summary, ...para(c.description)]) out.push('.PP', p === c.summary ? roffEscape(p) : p);
    const accepts = ACCEPTS[c.name] ?? [];
    if (accepts.length > 0) {
      out.push('.PP', roffEscape(t('help.options')));
      for (const name of accepts) out.push('.TP', flag(name), roffEscape(optionHelp(name)));
    }
    if (c.examples.length > 0) {
      out.push('.PP', roffEscape(t('help.examples')));
      for (const [cmd, what] of c.examples) out.push('.TP', `\\fB${roffEscape(cmd)}\\fR`, roffEscape(what));
    }
    if (c.exitCodes) out.push('.PP', roffEscape(t('help.exitCodes', { text: c.exitCodes })));
  }
  out.push('.SH OPTIONS');
  for (const name of Object.keys(OPTIONS) as OptionName[]) out.push('.TP', flag(name), roffEscape(optionHelp(name)));
  out.push('.SH ENVIRONMENT');
  for (const [name, key] of ENVIRONMENT) out.push('.TP', `\\fB${roffEscape(name)}\\fR`, roffEscape(t(key)));
  out.push('.SH FILES', '.TP', `\\fB${roffEscape(SCAN_CACHE_FILE)}\\fR`, roffEscape(t('help.files.scanCache')));
  return `${out.join('\n')}\n`;
}
