import { describe, expect, it } from 'vitest';
import { compareRootAscii, localeOrder } from '../../src/gather/libraries/collate.js';

// A small deterministic generator: the same strings on every run.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
const PATHY = 'abcdhlosuy_-./0123456789ACHLSu';
function strings(seed: number, alphabet: string, count: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = 1 + Math.floor(r() * 10);
    for (let j = 0; j < n; j++) s += alphabet[Math.floor(r() * alphabet.length)];
    out.push(s);
  }
  return out;
}
const sign = (n: number) => Math.sign(n);

describe('compareRootAscii', () => {
  it('orders printable ASCII as the root collation does', () => {
    const root = new Intl.Collator('und');
    for (const [seed, alphabet] of [
      [1, PRINTABLE],
      [2, PATHY],
    ] as const) {
      const xs = strings(seed, alphabet, 4000);
      for (let i = 0; i + 1 < xs.length; i++) {
        const [a, b] = [xs[i]!, xs[i + 1]!];
        expect([a, b, sign(compareRootAscii(a, b))]).toEqual([a, b, sign(root.compare(a, b))]);
      }
    }
  });

  it('ranks case after letters, punctuation before digits, and prefixes first', () => {
    const sorted = [
      '/x/libcudnn.so.9',
      '/x/libcudnn_adv.so.9',
      '/x/libcudnn-x.so',
      '/x/libCudnn.so',
      '/x/lib',
      '/x/lib1.so',
      '/x/Lib',
    ].sort(compareRootAscii);
    expect(sorted).toEqual([...sorted].sort((a, b) => new Intl.Collator('und').compare(a, b)));
    expect(sorted.indexOf('/x/libcudnn_adv.so.9')).toBeLessThan(sorted.indexOf('/x/libcudnn.so.9'));
    expect(sorted.indexOf('/x/lib')).toBeLessThan(sorted.indexOf('/x/Lib'));
  });

  it('leaves strings with other characters to localeCompare', () => {
    for (const [a, b] of [
      ['/x/é', '/x/f'],
      ['/x/e\u0301', '/x/e'],
      ['/x/a\u0000b', '/x/ab'],
      ['/x/\u00e9a', '/x/eb'],
      ['/x/b', '/x/a\u00e9'],
    ])
      expect(sign(compareRootAscii(a!, b!))).toBe(sign(a!.localeCompare(b!)));
  });
});

describe('localeOrder', () => {
  it('takes the fast order only where the locale leaves ASCII as the root has it', () => {
    expect(localeOrder({ LANG: 'C.UTF-8' })).toBe(compareRootAscii);
    expect(localeOrder({})).toBe(compareRootAscii);
    expect(localeOrder({ LANG: 'zh_CN.UTF-8' })).toBe(compareRootAscii);
    // ICU reads LC_ALL, then LC_MESSAGES, then LANG
    expect(localeOrder({ LC_ALL: 'cs_CZ.UTF-8', LANG: 'en_US.UTF-8' })).not.toBe(compareRootAscii);
    expect(localeOrder({ LC_MESSAGES: 'da_DK.UTF-8', LANG: 'en_US.UTF-8' })).not.toBe(compareRootAscii);
    expect(localeOrder({ LANG: 'sr_RS@latin' })).not.toBe(compareRootAscii);
    expect(localeOrder({ LC_COLLATE: 'cs_CZ.UTF-8', LANG: 'en_US.UTF-8' })).toBe(compareRootAscii);
  });

  it('gives the root order through its ASCII-only comparator when every key is printable ASCII', () => {
    const root = new Intl.Collator('und');
    const xs = strings(4, PRINTABLE, 3000);
    const cmp = localeOrder({ LANG: 'en_US.UTF-8' }, xs);
    expect(cmp).not.toBe(compareRootAscii);
    for (let i = 0; i + 1 < xs.length; i++)
      expect([xs[i], xs[i + 1], sign(cmp(xs[i]!, xs[i + 1]!))]).toEqual([
        xs[i],
        xs[i + 1],
        sign(root.compare(xs[i]!, xs[i + 1]!)),
      ]);
    expect(localeOrder({ LANG: 'en_US.UTF-8' }, [...xs, '/x/é'])).toBe(compareRootAscii);
  });

  it('agrees with each listed language on path-like strings', () => {
    const xs = strings(3, PATHY, 1500);
    for (const lang of ['en', 'zh', 'ja', 'de', 'fr', 'ru', 'es']) {
      const c = new Intl.Collator(lang);
      for (let i = 0; i + 1 < xs.length; i++)
        expect(sign(compareRootAscii(xs[i]!, xs[i + 1]!))).toBe(sign(c.compare(xs[i]!, xs[i + 1]!)));
    }
  });
});
