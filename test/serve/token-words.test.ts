// serve's token length, said one way: the option's help, the description and the refusal name the length the
// check enforces, in both languages.
import { afterEach, expect, it } from 'vitest';
import { MIN_TOKEN_LENGTH } from '../../src/act/serve/security.js';
import { setLang, t } from '../../src/base/i18n/index.js';

afterEach(() => setLang('en'));

it.each(['en', 'zh'] as const)('%s: one token length everywhere', (lang) => {
  setLang(lang);
  const said = [
    t('option.token-file'),
    t('cmd.serve.description', { minToken: MIN_TOKEN_LENGTH }),
    t('serve.tokenShort', { file: 'tok', min: MIN_TOKEN_LENGTH }),
  ];
  for (const s of said) {
    const lengths = [...s.matchAll(/(\d+) (?:characters|个字符)/g)].map((m) => Number(m[1]));
    expect(lengths.length, s).toBeGreaterThan(0);
    expect(new Set(lengths), s).toEqual(new Set([MIN_TOKEN_LENGTH]));
  }
});
