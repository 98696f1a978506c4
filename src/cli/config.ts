// The config file, for what a team or an admin has accepted: checks to ignore (a known warning on a CPU
// build box, a shared GPU that is always busy) and the default --fail-on. JSON, looked up in this order:
// --config FILE, $GPU_ENV_DOCTOR_CONFIG, ./.gpu-env-doctor.json, $XDG_CONFIG_HOME (or ~/.config)/gpu-env-doctor/config.json.
//   { "ignore": ["memory.headroom"], "failOn": "warn" }
import * as nodePath from 'node:path';
import { UsageError } from '../core/errors.js';
import { didYouMean, str, strs, type ParsedArgs } from './args.js';
import type { Context } from './context.js';
import { t } from '../i18n/index.js';

export interface Config {
  ignore: string[];
  failOn?: 'error' | 'warn';
  /** the file it came from, when there was one */
  file: string | null;
}

export function configFile(ctx: Context, args: ParsedArgs): string | null {
  const named = str(args, 'config') ?? ctx.env.GPU_ENV_DOCTOR_CONFIG;
  if (named !== undefined && named !== '') return named;
  const local = nodePath.resolve(ctx.cwd, '.gpu-env-doctor.json');
  if (ctx.files.exists(local)) return local;
  const home = ctx.env.XDG_CONFIG_HOME || (ctx.env.HOME ? nodePath.join(ctx.env.HOME, '.config') : undefined);
  const user = home ? nodePath.join(home, 'gpu-env-doctor', 'config.json') : undefined;
  return user && ctx.files.exists(user) ? user : null;
}

/** The config (file plus --ignore), with every check id validated against `knownChecks`. */
export function loadConfig(ctx: Context, args: ParsedArgs, knownChecks: readonly string[]): Config {
  const file = configFile(ctx, args);
  let fromFile: { ignore?: unknown; failOn?: unknown } = {};
  if (file !== null) {
    const text = ctx.files.readText(file, 1024 * 1024);
    try {
      const v = JSON.parse(text) as unknown;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
      fromFile = v as typeof fromFile;
    } catch (err) {
      throw new UsageError(`config ${file}: not a JSON object (${(err as Error).message.split('\n')[0]})`);
    }
    for (const k of Object.keys(fromFile)) if (k !== 'ignore' && k !== 'failOn' && k !== '$comment') throw new UsageError(`config ${file}: unknown key "${k}" (ignore, failOn)`);
    if (fromFile.ignore !== undefined && !(Array.isArray(fromFile.ignore) && fromFile.ignore.every((x) => typeof x === 'string'))) throw new UsageError(`config ${file}: "ignore" must be a list of check ids`);
    if (fromFile.failOn !== undefined && fromFile.failOn !== 'error' && fromFile.failOn !== 'warn') throw new UsageError(`config ${file}: "failOn" must be "error" or "warn"`);
  }
  const ignore = [...new Set([...((fromFile.ignore as string[] | undefined) ?? []), ...strs(args, 'ignore').flatMap((x) => x.split(','))].map((x) => x.trim()).filter((x) => x !== ''))];
  for (const id of ignore) {
    if (!knownChecks.includes(id)) {
      const guess = didYouMean(id, knownChecks);
      throw new UsageError(`${file !== null && !strs(args, 'ignore').includes(id) ? `config ${file}: ` : '--ignore '}unknown check "${id}"${guess ? ` (did you mean ${guess}?)` : ''}; check -v shows each finding's id`);
    }
  }
  return { ignore, ...(fromFile.failOn ? { failOn: fromFile.failOn as 'error' | 'warn' } : {}), file };
}

/** --fail-on, else the config file's failOn, else error. */
export function failOnWith(flagValue: string | undefined, fromConfig: 'error' | 'warn' | undefined): 'error' | 'warn' {
  const v = flagValue ?? fromConfig ?? 'error';
  if (v !== 'error' && v !== 'warn') throw new UsageError(t('args.failOn', { value: v }));
  return v;
}
