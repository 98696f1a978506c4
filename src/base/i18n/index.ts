// The one way a human-facing text is produced: t(key, params), resolved from the chosen language's catalog
// (./en.ts, ./zh.ts). The language is chosen once per run (main(): --lang, else LC_ALL / LC_MESSAGES / LANG)
// and held here for the judge layer (checks, explain), which words its findings without a language passed through
// every signature. The report layer does not read it: it is handed a Words (./words.ts) made from the same choice.
// --json output is data and is always produced in English (main() says so).
import type { MessageKey } from './en.js';
import type { ParamsFor } from './slots.js';
import { nativeWhenAsked } from '../native-regex.js';
import { type Lang, type ListKind, wordsFor } from './words.js';

export type { Lang, ListKind, Words } from './words.js';
export { wordsFor } from './words.js';
export const LANGS: readonly Lang[] = ['en', 'zh'];
export type { MessageKey } from './en.js';
export type { ParamsFor, SlotsOf } from './slots.js';

let current: Lang = 'en';

export function setLang(lang: Lang): void {
  current = lang;
}
export function getLang(): Lang {
  return current;
}

/** The message `key` in the chosen language, its slots filled from `params`. */
export function t<K extends MessageKey>(key: K, ...params: ParamsFor<K>): string {
  return wordsFor(current).t(key, ...params);
}

/** The same message in a given language (the tests, and the one place that needs English whatever was chosen). */
export function tIn<K extends MessageKey>(lang: Lang, key: K, ...params: ParamsFor<K>): string {
  return wordsFor(lang).t(key, ...params);
}

/** Items of a list joined as the language joins them ("a; b" / "a；b"): list items, never sentence pieces. */
export function joinList(items: readonly string[], kind: ListKind = 'semicolon'): string {
  return wordsFor(current).joinList(items, kind);
}

/** a zh_* locale, compiled to machine code at its first use (src/base/native-regex.ts): run once a process */
const zhLocale = nativeWhenAsked(/^zh(?:[_-][A-Za-z]+)?(?:\.([A-Za-z0-9-]+))?(?:@.*)?$/);

/**
 * The language from the environment, as POSIX orders it: LC_ALL, else LC_MESSAGES, else LANG. zh_* (zh_CN,
 * zh_TW, zh_SG, zh_HK) is Chinese; anything else, or nothing, English. A zh_* locale whose charset is not
 * UTF-8 (zh_CN.GBK, zh_CN.GB18030) gets English: the output is written in UTF-8, and on such a terminal the
 * Chinese would be mojibake while English with ASCII symbols reads (--lang zh still forces Chinese).
 */
export function langFromEnv(env: Readonly<Record<string, string | undefined>>): Lang {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '') ?? '';
  const m = zhLocale().exec(locale);
  if (!m) return 'en';
  const charset = (m[1] ?? '').toLowerCase().replace(/-/g, '');
  return charset === '' || charset === 'utf8' ? 'zh' : 'en';
}

/** The value of --lang (or --lang=…) in argv, read before parsing so that help and errors come in it too. */
export function langFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--lang') found = argv[i + 1] ?? '';
    else if (a.startsWith('--lang=')) found = a.slice('--lang='.length);
  }
  return found;
}

export function isLang(v: string): v is Lang {
  return (LANGS as readonly string[]).includes(v);
}
