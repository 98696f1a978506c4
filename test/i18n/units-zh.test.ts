// Times and durations in Chinese are written with Chinese units, a space between number and unit.
import { afterEach, expect, test } from 'vitest';
import { fmtAge } from '../../src/base/format.js';
import { fmtSeconds } from '../../src/report/html/svg.js';
import { setLang, getLang, wordsFor } from '../../src/base/i18n/index.js';
import { agoText, secs, timeUnits } from '../../src/report/serve/model.js';
import { t } from '../../src/base/i18n/index.js';

afterEach(() => setLang('en'));

test('fmtAge and fmtSeconds in zh and en', () => {
  expect(fmtAge(11 * 3600 + 19 * 60)).toBe('11h 19m');
  expect(fmtSeconds(wordsFor(getLang()), 9000)).toBe('9.0 s');
  setLang('zh');
  expect(fmtAge(11 * 3600 + 19 * 60)).toBe('11 小时 19 分钟');
  expect(fmtAge(9)).toBe('9 秒');
  expect(fmtAge(2 * 86400 + 3600)).toBe('2 天 1 小时');
  expect(fmtAge(8 * 60 + 22)).toBe('8 分 22 秒');
  expect(fmtSeconds(wordsFor(getLang()), 9000)).toBe('9.0 秒');
  expect(fmtSeconds(wordsFor(getLang()), 502000)).toBe('8 分 22 秒');
});

test('serve and its script count time in the page language', () => {
  expect(agoText(wordsFor(getLang()), 7 * 60_000 + 21_000)).toBe('7 min');
  expect(secs(wordsFor(getLang()), 2000)).toBe('2 s');
  expect(timeUnits(wordsFor(getLang()))).toBe('s|min|h');
  setLang('zh');
  expect(agoText(wordsFor(getLang()), 7 * 60_000 + 21_000)).toBe('7 分钟');
  expect(agoText(wordsFor(getLang()), 3 * 3600_000 + 5 * 60_000)).toBe('3 小时 5 分钟');
  expect(secs(wordsFor(getLang()), 500)).toBe('0.5 秒');
  expect(timeUnits(wordsFor(getLang()))).toBe('秒|分钟|小时');
});

test('no English unit after a number in the Chinese catalog', () => {
  setLang('zh');
  // a placeholder or a digit followed by an English time unit, in Chinese text (commands and flags aside)
  const keys = [
    'summary.slowest',
    'reason.idle',
    'memory.holderLineLife',
    'plan.toEnd',
    'facts.probe',
    'smoke.timeAll',
  ] as const;
  for (const k of keys) {
    const text = t(k, {
      ms: 5,
      s: 5,
      cpu: 5,
      hours: 5,
      grace: 5,
      id: 'x',
      who: 'w',
      mib: '1 GiB',
      verdict: 'v',
      reason: 'r',
      age: 'a',
      cmd: 'c',
      user: 'u',
    } as never);
    expect(text, k).not.toMatch(/\d (s|ms|h|min)\b/);
  }
});
