// The config file, for what a team or an admin has accepted: checks to ignore (a known warning on a CPU
// build box, a shared GPU that is always busy) and the default --fail-on. JSON, looked up in this order:
// --config FILE, $GPU_ENV_DOCTOR_CONFIG, ./.gpu-env-doctor.json (only the caller's own: see readConfigText),
// $XDG_CONFIG_HOME (or ~/.config)/gpu-env-doctor/config.json.
//   { "ignore": ["memory.headroom"], "failOn": "warn" }
import * as nodePath from 'node:path';
import { UsageError } from '../base/errors.js';
import { didYouMean, str, strs, type ParsedArgs } from './args.js';
import type { Context } from '../ports/context.js';
import { t } from '../base/i18n/index.js';
import type { ConfigRead } from '../ports/config-file.js';
import { visibleLine } from '../report/escape.js';

export interface Config {
  ignore: string[];
  failOn?: 'error' | 'warn';
  /** the file it came from, when there was one */
  file: string | null;
  /** the check ids the file (not --ignore) ignores: named in the summary whenever they hide something */
  ignoreFromFile: string[];
}

const MAX_CONFIG_BYTES = 1024 * 1024;
const LOCAL_NAME = '.gpu-env-doctor.json';

interface Candidate {
  path: string;
  /**
   * named (--config, $GPU_ENV_DOCTOR_CONFIG): used as given; found in the working directory: trusted only when it is
   * the caller's
   */
  how: 'named' | 'cwd' | 'user';
}

/** Where the config would come from, in order; the first one that can be used wins (see loadConfig). */
function candidates(ctx: Context, args: ParsedArgs): Candidate[] {
  const named = str(args, 'config') ?? ctx.env.GPU_ENV_DOCTOR_CONFIG;
  if (named !== undefined && named !== '') return [{ path: named, how: 'named' }];
  const out: Candidate[] = [{ path: nodePath.resolve(ctx.cwd, LOCAL_NAME), how: 'cwd' }];
  const home = ctx.env.XDG_CONFIG_HOME || (ctx.env.HOME ? nodePath.join(ctx.env.HOME, '.config') : undefined);
  if (home) out.push({ path: nodePath.join(home, 'gpu-env-doctor', 'config.json'), how: 'user' });
  return out;
}

/** The config file that applies and its text, or null. A file in the working directory that is a link, not a
 *  regular file, another user's or writable by others is not read (a cloned repository or a shared folder
 *  supplies it): said on stderr, and the next candidate is used. A named file that cannot be read is an error. */
function readConfigText(ctx: Context, args: ParsedArgs): { file: string; text: string } | null {
  for (const c of candidates(ctx, args)) {
    const r = ctx.files.readConfig(c.path, {
      noFollow: c.how === 'cwd',
      mustOwn: c.how === 'cwd',
      maxBytes: MAX_CONFIG_BYTES,
    });
    if (r.kind === 'text') return { file: c.path, text: r.text };
    if (r.kind === 'missing') {
      if (c.how === 'named')
        throw new UsageError(t('config.cannotRead', { file: shownPath(c.path), why: t('config.why.missing') }));
      continue;
    }
    const why = whyText(r);
    if (c.how === 'named') throw new UsageError(t('config.cannotRead', { file: shownPath(c.path), why }));
    ctx.stderr.write(`gpu-env-doctor: ${t('config.notReading', { file: shownPath(c.path), why })}\n`);
  }
  return null;
}

function whyText(r: Exclude<ConfigRead, { kind: 'text' } | { kind: 'missing' }>): string {
  switch (r.kind) {
    case 'link':
      return t('config.why.link');
    case 'not-a-file':
      return t('config.why.notFile');
    case 'other-owner':
      return t('config.why.owner', { uid: r.uid });
    case 'writable-by-others':
      return t('config.why.writable', { mode: r.mode.toString(8).padStart(4, '0') });
    case 'too-large':
      return t('config.why.large', { size: r.size, max: MAX_CONFIG_BYTES });
    case 'error':
      return visibleLine(r.message);
  }
}

/** A path or a value from the file, for a one-line message: control characters shown, never interpreted. */
function shownPath(p: string): string {
  return visibleLine(p);
}

/** The config (file plus --ignore), with every check id validated against `knownChecks`. */
export function loadConfig(ctx: Context, args: ParsedArgs, knownChecks: readonly string[]): Config {
  const read = readConfigText(ctx, args);
  const file = read?.file ?? null;
  let fromFile: { ignore?: unknown; failOn?: unknown } = {};
  if (read !== null) {
    const where = shownPath(read.file);
    let v: unknown;
    try {
      v = JSON.parse(read.text) as unknown;
    } catch {
      // never the parser's message: it quotes the file's first characters (a link to a secret would show them)
      throw new UsageError(t('config.notJson', { file: where }));
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new UsageError(t('config.notObject', { file: where }));
    fromFile = v as typeof fromFile;
    for (const k of Object.keys(fromFile))
      if (k !== 'ignore' && k !== 'failOn' && k !== '$comment')
        throw new UsageError(t('usage.config.unknownKey', { file: where, key: visibleLine(k) }));
    if (
      fromFile.ignore !== undefined &&
      !(Array.isArray(fromFile.ignore) && fromFile.ignore.every((x) => typeof x === 'string'))
    )
      throw new UsageError(t('usage.config.ignoreList', { file: where }));
    if (fromFile.failOn !== undefined && fromFile.failOn !== 'error' && fromFile.failOn !== 'warn')
      throw new UsageError(t('usage.config.failOn', { file: where }));
  }
  const ignoreFromFile = ((fromFile.ignore as string[] | undefined) ?? []).map((x) => x.trim()).filter((x) => x !== '');
  const ignore = [
    ...new Set(
      [...ignoreFromFile, ...strs(args, 'ignore').flatMap((x) => x.split(','))]
        .map((x) => x.trim())
        .filter((x) => x !== ''),
    ),
  ];
  for (const id of ignore) {
    if (!knownChecks.includes(id)) {
      const guess = didYouMean(id, knownChecks);
      const unknownCheck = { id: visibleLine(id), hasGuess: guess ? 'yes' : 'no', guess: guess ?? '' };
      throw new UsageError(
        file !== null && !strs(args, 'ignore').includes(id)
          ? t('usage.config.unknownCheck', { file: shownPath(file), ...unknownCheck })
          : t('usage.config.unknownIgnored', unknownCheck),
      );
    }
  }
  return {
    ignore,
    ...(fromFile.failOn ? { failOn: fromFile.failOn as 'error' | 'warn' } : {}),
    file,
    ignoreFromFile: [...new Set(ignoreFromFile)],
  };
}

/** For the summary line: which checks the config file and --ignore hid here (those with any finding), and by whom. */
export function ignoredNote(config: Config, checksSeen: ReadonlySet<string>): string | null {
  const hidden = config.ignore.filter((id) => checksSeen.has(id));
  if (hidden.length === 0) return null;
  const byFile = config.file !== null && hidden.some((id) => config.ignoreFromFile.includes(id));
  const byFlag = hidden.some((id) => !config.ignoreFromFile.includes(id));
  const by = [
    ...(byFile ? [t('summary.byConfig', { file: shownPath(config.file!) })] : []),
    ...(byFlag ? ['--ignore'] : []),
  ].join(', ');
  return t('summary.ignoredChecks', { checks: hidden.join(', '), by });
}

/** --fail-on, else the config file's failOn, else error. */
export function failOnWith(flagValue: string | undefined, fromConfig: 'error' | 'warn' | undefined): 'error' | 'warn' {
  const v = flagValue ?? fromConfig ?? 'error';
  if (v !== 'error' && v !== 'warn') throw new UsageError(t('args.failOn', { value: v }));
  return v;
}
