// The one option table: every option the CLI knows, what it means, and which commands take it. The parser
// (./args.ts), every command's --help (./help.ts) and shell completion (./completion.ts) are built from it,
// so an option is either honoured by a command or refused with one line (exit 2): never accepted and ignored.
import type { ParseArgsConfig } from 'node:util';
import { t, type MessageKey } from '../base/i18n/index.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface OptionDef {
  type: 'boolean' | 'string';
  short?: string;
  multiple?: boolean;
  /** the placeholder in help, for string options: FILE, DIR, SECONDS … */
  value?: string;
  /** values a shell can complete */
  choices?: readonly string[];
  /** completion completes a file or a directory name */
  complete?: 'file' | 'dir';
}

export const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean', short: 'v' },
  quiet: { type: 'boolean', short: 'q' },
  json: { type: 'boolean' },
  markdown: { type: 'boolean' },
  html: { type: 'string', value: 'FILE', complete: 'file' },
  redact: { type: 'boolean' },
  color: { type: 'string', value: 'WHEN', choices: ['always', 'never', 'auto'] },
  'no-color': { type: 'boolean' },
  from: { type: 'string', value: 'SNAPSHOT.json', complete: 'file' },
  'no-machine': { type: 'boolean' },
  root: { type: 'string', value: 'DIR', complete: 'dir' },
  'fail-on': { type: 'string', value: 'LEVEL', choices: ['error', 'warn'] },
  ignore: { type: 'string', multiple: true, value: 'CHECK' },
  config: { type: 'string', value: 'FILE', complete: 'file' },
  format: { type: 'string', value: 'FORMAT', choices: ['text', 'json', 'markdown', 'prometheus'] },
  timeout: { type: 'string', value: 'SECONDS' },
  deep: {
    type: 'string',
    value: '[=frameworks]',
    choices: ['native', 'frameworks'],
  },
  python: { type: 'string', multiple: true, value: 'PATH', complete: 'file' },
  'all-envs': { type: 'boolean' },
  framework: { type: 'string', value: 'NAME', choices: ['tensorflow', 'pytorch', 'torch', 'jax', 'paddle'] },
  // diff
  all: { type: 'boolean' },
  // run
  report: { type: 'string', value: 'FILE', complete: 'file' },
  interval: { type: 'string', value: 'N' },
  'tail-lines': { type: 'string', value: 'N' },
  'no-capture': { type: 'boolean' },
  // libs
  pid: { type: 'string', multiple: true, value: 'PID' },
  elf: { type: 'string', multiple: true, value: 'FILE', complete: 'file' },
  // procs
  watch: { type: 'boolean' },
  count: { type: 'string', value: 'N' },
  gpu: { type: 'string', value: 'LIST' },
  user: { type: 'string', value: 'NAME' },
  // fix
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  force: { type: 'boolean' },
  grace: { type: 'string', value: 'SECONDS' },
  // not --env-file: Node 20 takes that name from anywhere on its command line (a dotenv file, read before the tool
  // runs)
  'env-out': { type: 'string', value: 'FILE', complete: 'file' },
  // serve
  port: { type: 'string', value: 'N' },
  host: { type: 'string', value: 'ADDR' },
  'check-interval': { type: 'string', value: 'SECONDS' },
  'token-file': { type: 'string', value: 'FILE', complete: 'file' },
  fleet: { type: 'string', value: 'DIR', complete: 'dir' },
  'show-all': { type: 'boolean' },
  // compat
  platform: { type: 'string', value: 'OS', choices: ['linux', 'windows'] },
  // every command that prints human text
  lang: { type: 'string', value: 'LANG', choices: ['en', 'zh'] },
} as const satisfies Record<string, OptionDef>;

export type OptionName = keyof typeof OPTIONS;

/** What every command takes (every command prints human text: its help, its errors). */
const BASE: OptionName[] = ['help', 'color', 'no-color', 'lang'];
/** What the commands that probe this machine take. */
const PROBE: OptionName[] = ['from', 'root', 'timeout', 'python', 'all-envs', 'deep'];
/** The same, less `--deep`: for the commands whose output uses nothing of the smoke test (it would only cost time). */
const PROBE_SHALLOW: OptionName[] = PROBE.filter((o) => o !== 'deep');

/**
 * The options each command takes, and so honours. Every command that shows machine facts takes `--redact`
 * (test/redact/canary.test.ts fails if one refuses it); preamble prints a fixed script, completion a script.
 */
export const ACCEPTS: Record<string, readonly OptionName[]> = {
  check: [
    ...BASE,
    ...PROBE,
    'verbose',
    'quiet',
    'json',
    'markdown',
    'html',
    'redact',
    'fail-on',
    'format',
    'ignore',
    'config',
  ],
  snapshot: [...BASE, ...PROBE, 'json', 'redact'],
  explain: [
    ...BASE,
    ...PROBE_SHALLOW,
    'verbose',
    'json',
    'markdown',
    'html',
    'redact',
    'no-machine',
    'format',
    'framework',
  ],
  diff: [
    ...BASE,
    'root',
    'timeout',
    'python',
    'all-envs',
    'deep',
    'verbose',
    'json',
    'markdown',
    'redact',
    'format',
    'all',
  ],
  run: [
    ...BASE,
    'root',
    'timeout',
    'python',
    'all-envs',
    'html',
    'report',
    'redact',
    'quiet',
    'verbose',
    'deep',
    'interval',
    'tail-lines',
    'no-capture',
  ],
  fleet: [...BASE, 'verbose', 'json', 'html', 'redact', 'fail-on', 'format', 'ignore', 'config'],
  libs: [...BASE, ...PROBE, 'verbose', 'json', 'redact', 'fail-on', 'format', 'pid', 'elf'],
  procs: [...BASE, ...PROBE_SHALLOW, 'verbose', 'json', 'redact', 'watch', 'interval', 'count', 'gpu', 'user'],
  fix: [
    ...BASE,
    ...PROBE,
    'json',
    'redact',
    'fail-on',
    'dry-run',
    'yes',
    'force',
    'grace',
    'env-out',
    'ignore',
    'config',
  ],
  compat: [...BASE, ...PROBE_SHALLOW, 'verbose', 'json', 'redact', 'no-machine', 'platform'],
  preamble: [...BASE, 'framework'],
  completion: [...BASE],
  serve: [
    ...BASE,
    'root',
    'timeout',
    'redact',
    'interval',
    'port',
    'host',
    'check-interval',
    'token-file',
    'fleet',
    'show-all',
  ],
  mcp: [...BASE, 'root', 'timeout', 'redact'],
};

/** Why a command refuses an option, where there is something better to say than "not supported" (catalog keys). */
export const REFUSALS: Record<string, Partial<Record<OptionName, MessageKey>>> = {
  run: { json: 'refusal.run.json', markdown: 'refusal.run.markdown', from: 'refusal.run.from' },
  snapshot: { markdown: 'refusal.snapshot.markdown', html: 'refusal.snapshot.html' },
  diff: { from: 'refusal.diff.from', html: 'refusal.diff.html' },
  fleet: { from: 'refusal.fleet.from', markdown: 'refusal.fleet.markdown' },
  check: { 'no-machine': 'refusal.check.no-machine' },
  explain: { deep: 'refusal.deep' },
  procs: { deep: 'refusal.deep' },
  compat: { deep: 'refusal.deep' },
  preamble: { json: 'refusal.preamble.json' },
  serve: {
    json: 'refusal.serve.page',
    markdown: 'refusal.serve.page',
    html: 'refusal.serve.page',
    format: 'refusal.serve.page',
    from: 'refusal.serve.from',
  },
};

export function optionSpec(command: string): OptionSpec {
  const out: OptionSpec = {};
  for (const name of ACCEPTS[command] ?? BASE) {
    const d: OptionDef = OPTIONS[name];
    out[name] = { type: d.type, ...(d.short ? { short: d.short } : {}), ...(d.multiple ? { multiple: true } : {}) };
  }
  return out;
}

/** Every option name the CLI knows (for "did you mean"). */
export function knownOptions(): string[] {
  return Object.keys(OPTIONS);
}

/** The one line of --help (and of shell completion) about an option, in the chosen language. */
export function optionHelp(name: OptionName): string {
  return t(`option.${name}` as MessageKey);
}
