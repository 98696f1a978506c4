// The message catalogs: every key in every language with the same slots, every message well formed, and the
// formatter's plural, select and number rules.
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../src/base/i18n/en.js';
import { zh } from '../../src/base/i18n/zh.js';
import { formatMessage, literalPieces, paramNames, parseMessage } from '../../src/base/i18n/format.js';
import { joinList, langFromArgv, langFromEnv, setLang, t, tIn } from '../../src/base/i18n/index.js';

const KEYS = Object.keys(en) as MessageKey[];

describe('the catalogs', () => {
  it('have the same keys in every language', () => {
    expect(Object.keys(zh).sort()).toEqual([...KEYS].sort());
  });

  it('take the same parameters in every language, key by key', () => {
    const differ = KEYS.filter((k) => paramNames(en[k]).join(',') !== paramNames(zh[k]).join(','));
    expect(differ.map((k) => `${k}: en {${paramNames(en[k])}} zh {${paramNames(zh[k])}}`)).toEqual([]);
  });

  it('parse, and every plural or select has an "other" branch', () => {
    for (const k of KEYS) {
      for (const text of [en[k], zh[k]]) {
        expect(() => parseMessage(text), k).not.toThrow();
        for (const m of text.matchAll(/\{\s*\w+\s*,\s*(plural|select)\s*,/g))
          expect(text.slice(m.index), k).toMatch(/other\s*\{/);
      }
    }
  });

  it('say something in Chinese for every key that says something in English', () => {
    // a Chinese entry identical to the English one is allowed only where the text is a name, a command or a number
    const same = KEYS.filter((k) => en[k] === zh[k] && /[a-z]{3,} [a-z]{3,}/.test(literalPieces(en[k]).join('')));
    expect(same).toEqual([]);
  });

  it('use the glossary: 显存 for GPU memory, 驱动 for driver, never 内存 for GPU memory nor 杀死 for ending a process', () => {
    const all = Object.values(zh).join('\n');
    expect(all).toContain('显存');
    expect(all).toContain('残留进程');
    expect(all).toContain('动态库');
    expect(all).not.toMatch(/GPU 内存|杀死|杀掉|爆显存|共享库|驱动程序|安培架构|亲，|请您/);
    // GPU memory is 显存 wherever the English says "GPU memory"
    const mixed = KEYS.filter((k) => /GPU memory/.test(en[k]) && !/显存/.test(zh[k]));
    expect(mixed).toEqual([]);
  });
});

describe('the message format', () => {
  it('fills slots and chooses plural forms by the language rules', () => {
    expect(formatMessage('{n, plural, one {# error} other {# errors}}', { n: 1 }, 'en-US')).toBe('1 error');
    expect(formatMessage('{n, plural, one {# error} other {# errors}}', { n: 2 }, 'en-US')).toBe('2 errors');
    expect(formatMessage('{n, plural, one {# error} other {# errors}}', { n: 0 }, 'en-US')).toBe('0 errors');
    expect(formatMessage('{n, plural, =0 {none} other {# left}}', { n: 0 }, 'en-US')).toBe('none');
    expect(formatMessage('{n, plural, other {# 个错误}}', { n: 1 }, 'zh-CN')).toBe('1 个错误');
    expect(formatMessage('{x, select, a {A} other {B}}', { x: 'a' }, 'en-US')).toBe('A');
    expect(formatMessage('{x, select, a {A} other {B}}', { x: 'z' }, 'en-US')).toBe('B');
    expect(formatMessage('{n, number} MiB', { n: 143771 }, 'en-US')).toBe('143,771 MiB');
    expect(paramNames('{a} {n, plural, one {# {b}} other {{c}}}')).toEqual(['a', 'b', 'c', 'n']);
  });

  it('refuses a message with a missing parameter or unbalanced braces', () => {
    expect(() => formatMessage('{a} and {b}', { a: 1 }, 'en-US')).toThrow(/missing parameter "b"/);
    expect(() => parseMessage('a {b')).toThrow();
    expect(() => parseMessage('a } b')).toThrow();
  });

  it('English summary line reads as before: plurals in words, Chinese without them', () => {
    expect(tIn('en', 'summary.counts', { errors: 1, warnings: 0 })).toBe('1 error, 0 warnings');
    expect(tIn('en', 'summary.counts', { errors: 2, warnings: 1 })).toBe('2 errors, 1 warning');
    expect(tIn('zh', 'summary.counts', { errors: 2, warnings: 1 })).toBe('2 个错误，1 个警告');
  });

  it('joins list items the way each language does', () => {
    setLang('zh');
    try {
      expect(joinList(['a', 'b'])).toBe('a；b');
      expect(t('label.fix')).toBe('修复：');
    } finally {
      setLang('en');
    }
    expect(joinList(['a', 'b'])).toBe('a; b');
  });
});

describe('choosing the language', () => {
  it('reads LC_ALL, then LC_MESSAGES, then LANG: zh_* is Chinese, anything else English', () => {
    expect(langFromEnv({ LANG: 'zh_CN.UTF-8' })).toBe('zh');
    expect(langFromEnv({ LANG: 'zh_TW.utf8' })).toBe('zh');
    expect(langFromEnv({ LANG: 'zh_CN' })).toBe('zh');
    expect(langFromEnv({ LANG: 'zh' })).toBe('zh');
    expect(langFromEnv({ LANG: 'en_US.UTF-8' })).toBe('en');
    expect(langFromEnv({ LANG: 'C.UTF-8' })).toBe('en');
    expect(langFromEnv({})).toBe('en');
    expect(langFromEnv({ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(langFromEnv({ LC_ALL: '', LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' })).toBe('zh');
    // a GBK terminal cannot show UTF-8 Chinese: English (with ASCII symbols) reads there
    expect(langFromEnv({ LANG: 'zh_CN.GBK' })).toBe('en');
    expect(langFromEnv({ LANG: 'zh_CN.GB18030' })).toBe('en');
    expect(langFromEnv({ LANG: 'zhx_CN.UTF-8' })).toBe('en');
  });

  it('reads --lang before parsing, and stops at --', () => {
    expect(langFromArgv(['check', '--lang', 'zh'])).toBe('zh');
    expect(langFromArgv(['check', '--lang=en'])).toBe('en');
    expect(langFromArgv(['run', '--', 'python', '--lang', 'zh'])).toBeUndefined();
    expect(langFromArgv(['check'])).toBeUndefined();
  });
});

describe('options every command takes may come before its name', () => {
  it('gpu-env-doctor --lang zh check --from … is check in Chinese; --no-color --lang=en procs is procs', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const path = await import('node:path');
    const snap = path.resolve(__dirname, '../../examples/snapshots/h200-orphan-held.json');
    const zh = runCli(['--lang', 'zh', 'check', '--from', snap]);
    expect(zh.stderr).toBe('');
    expect(zh.stdout).toMatch(/^gpu-env-doctor check：快照/);
    const procs = runCli(['--no-color', '--lang=en', 'procs', '--from', snap]);
    expect(procs.stdout).toMatch(/^gpu-env-doctor procs of the snapshot/);
    // an option of one command only is not moved: its value could be taken for a command's name
    expect(runCli(['--from', snap, 'check']).code).toBe(2);
  });
});
