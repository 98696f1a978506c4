// Times and durations in Chinese are written with Chinese units, a space between number and unit.
import { afterEach, expect, test } from 'vitest';
import { fmtAge } from '../../src/base/format.js';
import { fmtSeconds } from '../../src/report/html/svg.js';
import { setLang } from '../../src/base/i18n/index.js';

afterEach(() => setLang('en'));

test('fmtAge and fmtSeconds in zh and en', () => {
  expect(fmtAge(11 * 3600 + 19 * 60)).toBe('11h 19m');
  expect(fmtSeconds(9000)).toBe('9.0 s');
  setLang('zh');
  expect(fmtAge(11 * 3600 + 19 * 60)).toBe('11 小时 19 分钟');
  expect(fmtAge(9)).toBe('9 秒');
  expect(fmtAge(2 * 86400 + 3600)).toBe('2 天 1 小时');
  expect(fmtAge(8 * 60 + 22)).toBe('8 分 22 秒');
  expect(fmtSeconds(9000)).toBe('9.0 秒');
  expect(fmtSeconds(502000)).toBe('8 分 22 秒');
});
