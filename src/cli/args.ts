// Command-line parsing: node:util's parseArgs (tokens, not strict) over the one option table (./options.ts),
// with our own one-line messages: an unknown option gets "did you mean", an option the command does not
// take is refused by name, a missing value is named. Everything is a UsageError (exit 2).
import { parseArgs } from 'node:util';
import { UsageError } from '../base/errors.js';
import { TOOL_NAME } from '../base/tool-version.js';
import { OPTIONS, REFUSALS, knownOptions, type OptionDef, type OptionSpec } from './options.js';
import { t as tr } from '../base/i18n/index.js';

export type { OptionSpec } from './options.js';

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

/**
 * Parses `argv` for a command that takes the options in `spec`. `command` names it in messages; without it
 * (tests that pass a spec) the messages say "this command".
 */
export function parseCommandArgs(argv: readonly string[], spec: OptionSpec = {}, command?: string): ParsedArgs {
  const dd = argv.indexOf('--');
  const bare = (a: string) => {
    const name = a.startsWith('--') ? a.slice(2) : null;
    return name !== null && name in spec && BARE_VALUES[name] !== undefined ? `--${name}=${BARE_VALUES[name]}` : a;
  };
  const head = (dd === -1 ? [...argv] : argv.slice(0, dd)).map(bare);
  const rest = dd === -1 ? [] : argv.slice(dd + 1);
  // Every known option parses with its real type, so "--html is not taken by diff" can be said by name.
  const all: OptionSpec = {};
  for (const [name, d] of Object.entries(OPTIONS) as [string, OptionDef][])
    all[name] = { type: d.type, ...(d.short ? { short: d.short } : {}), ...(d.multiple ? { multiple: true } : {}) };
  for (const [name, d] of Object.entries(spec)) all[name] = d;
  const { values, positionals, tokens } = parseArgs({
    args: head,
    options: all,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const who = command ?? tr('args.thisCommand');
  const helpRef = command ? `${TOOL_NAME} ${command} --help` : `${TOOL_NAME} --help`;

  // `run python -u train.py`: the forgotten `--` is the likeliest mistake, so it is named before anything else.
  if (command === 'run' && rest.length === 0) {
    const first = tokens.find((t) => t.kind === 'positional');
    if (first) throw new UsageError(tr('args.runDashes', { tool: TOOL_NAME, cmd: head.slice(first.index).join(' ') }));
  }
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const name = t.name;
    const def = (spec[name] ?? (OPTIONS as Record<string, OptionDef>)[name]) as { type: string } | undefined;
    // The old name of --env-out: on Node 20 it reaches us only after Node loaded the file itself, so it is refused,
    // never used.
    if (name === 'env-file') throw new UsageError(tr('args.renamedEnvFile', { tool: TOOL_NAME }));
    if (!def) {
      const guess = t.rawName.startsWith('--')
        ? didYouMean(name, Object.keys(spec).length > 0 ? Object.keys(spec) : knownOptions())
        : shortGuess(name, spec);
      throw new UsageError(
        guess
          ? tr('args.unknownOptionGuess', { opt: t.rawName, guess, help: helpRef })
          : tr('args.unknownOption', { opt: t.rawName, help: helpRef }),
      );
    }
    if (!(name in spec)) {
      const why = command ? REFUSALS[command]?.[name as keyof (typeof REFUSALS)[string]] : undefined;
      throw new UsageError(
        why
          ? tr('args.notAnOptionWhy', { opt: t.rawName, who, why: tr(why) })
          : tr('args.notAnOption', { opt: t.rawName, who, help: helpRef }),
      );
    }
    if (def.type === 'string' && typeof t.value !== 'string') {
      // `--color` alone means always, as in picocolors and most tools
      if (name === 'color') continue;
      const hint = valueHint(name);
      throw new UsageError(
        hint ? tr('args.needsValueHint', { opt: t.rawName, hint }) : tr('args.needsValue', { opt: t.rawName }),
      );
    }
    if (name === 'color' && typeof t.value === 'string' && !['always', 'never', 'auto'].includes(t.value))
      throw new UsageError(tr('args.color', { value: t.value }));
    if (def.type === 'boolean' && t.inlineValue)
      throw new UsageError(tr('args.noValue', { opt: t.rawName, got: `${t.rawName}=${t.value ?? ''}` }));
  }
  const out = values as ParsedArgs['values'];
  if (out.color === true) out.color = 'always';
  return { values: out, positionals, rest };
}

function shortGuess(letter: string, spec: OptionSpec): string | null {
  const hit = Object.entries(spec).find(
    ([, d]) => d.short !== undefined && d.short.toLowerCase() === letter.toLowerCase(),
  );
  return hit ? hit[0] : null;
}

function valueHint(name: string): string {
  const d = (OPTIONS as Record<string, OptionDef>)[name];
  if (!d) return '';
  if (d.choices) return d.choices.join(', ');
  return d.value ?? '';
}

/** The closest known name within a small edit distance, or a name that starts with what was typed. */
export function didYouMean(typed: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = editDistance(typed, n);
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  if (best !== null && bestD <= Math.max(2, Math.floor(typed.length / 3))) return best;
  const prefix = names.find((n) => n.startsWith(typed) || typed.startsWith(n));
  return prefix ?? null;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
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
  if (v !== 'error' && v !== 'warn') throw new UsageError(tr('args.failOn', { value: v }));
  return v;
}

/** The output format from --format, --json and --markdown; two of them at once is a usage error. */
export function outputFormat(a: ParsedArgs, allowed: readonly string[]): string {
  const chosen = [
    str(a, 'format'),
    flag(a, 'json') ? 'json' : undefined,
    flag(a, 'markdown') ? 'markdown' : undefined,
  ].filter((x): x is string => x !== undefined);
  const distinct = [...new Set(chosen)];
  if (distinct.length > 1)
    throw new UsageError(
      tr('args.oneFormat', {
        formats: distinct.map((f) => `--${f === 'json' || f === 'markdown' ? f : `format ${f}`}`).join(tr('args.and')),
      }),
    );
  const f = distinct[0] ?? 'text';
  if (!allowed.includes(f)) throw new UsageError(tr('args.unknownFormat', { format: f, allowed: allowed.join(', ') }));
  return f;
}
