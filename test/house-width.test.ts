// No line of src/ over the width biome formats to (120): the formatter breaks code, scripts/wrap-long-lines.mjs
// breaks what it cannot (long strings, comments), and a long regex is written as named parts (base/regex.ts). What
// is left, only in report/, is listed per file with its count, kept exact both ways: a line inside a template that
// spans lines (CSS, HTML), a template whose text holds no break outside its ${…}.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '..', 'src');
const WIDTH = 120;

function tsFiles(dir: string, rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return tsFiles(path.join(dir, e.name), r);
    return e.name.endsWith('.ts') ? [r] : [];
  });
}

describe('line width', () => {
  it(`keeps every line of src/ within ${WIDTH} columns`, () => {
    const over: Record<string, number> = {};
    for (const f of tsFiles(SRC)) {
      const n = readFileSync(path.join(SRC, f), 'utf8')
        .split('\n')
        .filter((l) => l.length > WIDTH).length;
      if (n > 0) over[f] = n;
    }
    // a long line: node scripts/wrap-long-lines.mjs (strings, comments), regexOf/eitherOf (a regex) or break the code
    expect(over).toEqual({});
  });
});
