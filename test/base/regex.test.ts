import { describe, expect, it } from 'vitest';
import { eitherOf, regexOf } from '../../src/base/regex.js';

describe('regexOf', () => {
  it('joins the parts as written: a regex part gives its source, a string part is pattern text', () => {
    const re = regexOf([/^lib/, '(cudart|cublas)', /\.so(?:\.\d+)*$/]);
    expect(re.source).toBe(/^lib(cudart|cublas)\.so(?:\.\d+)*$/.source);
    expect(re.exec('libcublas.so.12')?.[1]).toBe('cublas');
    expect(re.test('libcudnn.so.9')).toBe(false);
  });

  it('gives the whole the flags asked for, and none of a part', () => {
    expect(regexOf([/a/], 'gi').flags).toBe('gi');
    expect(regexOf([/A/i]).test('a')).toBe(false);
    expect(regexOf([/A/], 'i').test('a')).toBe(true);
  });

  it('keeps escapes of a part: a slash, a backslash, a bracket', () => {
    const re = regexOf([/\[pod\/[^\]]+\]\s/, /[A-Z]:\\/]);
    expect(re.test('[pod/x/c] C:\\')).toBe(true);
    expect(re.test('[pod/x/c] C:/')).toBe(false);
  });
});

describe('eitherOf', () => {
  it('joins the parts as alternatives without a group, in their order', () => {
    expect(eitherOf([/a|b/, 'c', /d/])).toBe('a|b|c|d');
    expect(regexOf(['^(', eitherOf([/pip/, /conda/]), ')$']).exec('conda')?.[1]).toBe('conda');
  });

  it('keeps the order of the alternatives, which decides what a match takes', () => {
    expect(regexOf([eitherOf([/a/, /ab/])]).exec('ab')?.[0]).toBe('a');
    expect(regexOf([eitherOf([/ab/, /a/])]).exec('ab')?.[0]).toBe('ab');
  });
});
