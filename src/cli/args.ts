// Command-line parsing: node:util's parseArgs, strict, with the contract's common flags on every command.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Flags every command accepts (CONTRACT.md: common flags). */
export const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  from: { type: 'string' },
  'no-machine': { type: 'boolean' },
  root: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  html: { type: 'string' },
  markdown: { type: 'boolean' },
  redact: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  'fail-on': { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpec;

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  /** everything after a bare `--` (for `run -- CMD ...`) */
  rest: string[];
}

/**
 * Options whose value is optional: the bare flag stands for this value (`--deep` is `--deep=native`, and
 * `--deep=frameworks` says more). node:util's parseArgs has no optional values, so the bare form is rewritten
 * before it parses; `--deep VALUE` with a space stays a bare flag followed by an argument.
 */
export const BARE_VALUES: Record<string, string> = { deep: 'native' };

export function parseCommandArgs(argv: readonly string[], extra: OptionSpec = {}): ParsedArgs {
  const dd = argv.indexOf('--');
  const options = { ...COMMON_OPTIONS, ...extra };
  const bare = (a: string) => {
    const name = a.startsWith('--') ? a.slice(2) : null;
    const spec = name !== null ? (options as OptionSpec)[name] : undefined;
    return name !== null && spec?.type === 'string' && BARE_VALUES[name] !== undefined ? `--${name}=${BARE_VALUES[name]}` : a;
  };
  const head = (dd === -1 ? [...argv] : argv.slice(0, dd)).map(bare);
  const rest = dd === -1 ? [] : argv.slice(dd + 1);
  try {
    const { values, positionals } = parseArgs({
      args: head,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs['values'], positionals, rest };
  } catch (err) {
    // parseArgs' messages are one line and name the flag; keep them, drop the error code prefix.
    throw new UsageError(String((err as Error).message).replace(/^TypeError \[[A-Z_]+\]: /, '').split('\n')[0] ?? 'invalid arguments');
  }
}

export function flag(a: ParsedArgs, name: string): boolean {
  return a.values[name] === true;
}

export function str(a: ParsedArgs, name: string): string | undefined {
  const v = a.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function strs(a: ParsedArgs, name: string): string[] {
  const v = a.values[name];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

export type FailOn = 'error' | 'warn';
export function failOn(a: ParsedArgs): FailOn {
  const v = str(a, 'fail-on') ?? 'error';
  if (v !== 'error' && v !== 'warn') throw new UsageError(`--fail-on must be "error" or "warn", not "${v}"`);
  return v;
}
