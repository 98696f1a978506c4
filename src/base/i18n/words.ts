// Words: the message catalog of one language, made once by the command line from the chosen language and handed
// to whatever words a sentence (the renderers take it in their options), so that no renderer reads a language
// from global state. t(key, params) checks its slots at compile time (./slots.ts).
import { en, type MessageKey } from './en.js';
import { zh } from './zh.js';
import { formatMessage } from './format.js';
import type { ParamsFor } from './slots.js';

export type Lang = 'en' | 'zh';

export type ListKind = 'semicolon' | 'comma' | 'sentence' | 'and';

export interface Words {
  readonly lang: Lang;
  /** the BCP 47 tag of the language, for <html lang> and Intl */
  readonly locale: string;
  /** the message `key`, its slots filled from `params` */
  t<K extends MessageKey>(key: K, ...params: ParamsFor<K>): string;
  /** items of a list joined as the language joins them ("a; b" / "a；b"): list items, never sentence pieces */
  joinList(items: readonly string[], kind?: ListKind): string;
  /** a number with the language's grouping (1,234) */
  number(n: number): string;
}

const CATALOGS: Record<Lang, Record<MessageKey, string>> = { en, zh };
const LOCALE: Record<Lang, string> = { en: 'en-US', zh: 'zh-CN' };
const LIST_KEY: Record<ListKind, MessageKey> = {
  semicolon: 'list.semicolon',
  comma: 'list.comma',
  sentence: 'list.sentence',
  and: 'list.and',
};

const made = new Map<Lang, Words>();

/** The words of `lang` (one object per language, so that words can be compared and cached by identity). */
export function wordsFor(lang: Lang): Words {
  let w = made.get(lang);
  if (!w) {
    const catalog = CATALOGS[lang];
    const locale = LOCALE[lang];
    const t = <K extends MessageKey>(key: K, ...params: ParamsFor<K>): string =>
      formatMessage(catalog[key], params[0] ?? {}, locale);
    w = {
      lang,
      locale,
      t,
      joinList: (items, kind = 'semicolon') => items.join(formatMessage(catalog[LIST_KEY[kind]], {}, locale)),
      number: (n) => formatMessage('{n, number}', { n }, locale),
    };
    made.set(lang, w);
  }
  return w;
}
