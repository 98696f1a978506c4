// scripts/wrap-long-lines.mjs splits long strings and rewraps long comments without changing a value.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of the scripts, without types
import { longLines, wrapText } from '../../scripts/wrap-long-lines.mjs';

const value = (code: string): unknown => new Function(code.replace(/^const \w+ =/, 'return'))();
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('wrap-long-lines', () => {
  it('splits a long string at spaces into pieces that join to the same value', () => {
    const src = `const a = '${words(40)} it\\'s {slot} \\n done';\n`;
    const out: string = wrapText(src);
    expect(out).toContain("' +\n");
    expect(value(out)).toBe(value(src));
    expect(wrapText(out)).toBe(out);
  });

  it('splits Chinese text between characters or after full-width punctuation', () => {
    const src = `const z = '${'显存不足，请减小批大小。'.repeat(12)}';\n`;
    const out: string = wrapText(src);
    expect(out.split('\n').length).toBeGreaterThan(2);
    expect(value(out)).toBe(value(src));
    for (const piece of out.match(/'[^']*'/g) ?? []) expect(piece).not.toMatch(/^'[，。]/);
  });

  it('splits a template only outside its ${…}', () => {
    const src = `const t = \`${words(20)} \${['a b', 'c'].join(' + ')} ${words(20)}\`;\n`;
    const out: string = wrapText(src);
    expect(value(out)).toBe(value(src));
    expect(out).toContain("${['a b', 'c'].join(' + ')}");
  });

  it('leaves property names, imports, types and short lines as they are', () => {
    const key = `k${'x'.repeat(130)}`;
    const src = [
      `const o = { '${key}': 1 };`,
      `type T = '${key}';`,
      `import x from './${'y'.repeat(130)}.js';`,
      "const s = 'short';",
      '',
    ].join('\n');
    expect(wrapText(src)).toBe(src);
  });

  it('rewraps a long comment paragraph and a one-line JSDoc, keeping list items apart', () => {
    const src = [
      `  // ${words(30)}`,
      '  // the next line of the paragraph',
      '  // - a list item stays its own line',
      `  /** ${words(30)} */`,
      'const x = 1;',
      '',
    ].join('\n');
    const out: string = wrapText(src);
    expect(longLines(out)).toEqual([]);
    expect(out).toContain('\n  // - a list item stays its own line\n');
    expect(out).toContain('  /**\n   * word0');
    expect(out.replace(/\s+(\/\/|\*)?/g, ' ')).toContain('word29 the next line of the paragraph');
    expect(wrapText(out)).toBe(out);
  });

  it('never touches a comment-looking line inside a template', () => {
    const src = `const css = \`\n// ${words(40)}\n\`;\n`;
    expect(wrapText(src)).toBe(src);
  });
});
