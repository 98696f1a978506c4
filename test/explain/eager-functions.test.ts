// The largest functions a short explain runs once are parenthesised function expressions (see the head of
// src/judge/explain/engine.ts): V8 compiles them with their file, so Node's compile cache keeps their bytecode. A
// formatter or the bundler dropping the parentheses makes them lazy again, silently: this test says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../..');
const MARK = '// biome-ignore format: eager, the parentheses make V8 compile it with its file (see engine.ts)';
/** the source files of explain's engine, their paths and texts */
function sources(dir = path.join(repo, 'src/judge/explain')): Array<[string, string]> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e): Array<[string, string]> => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [[p, fs.readFileSync(p, 'utf8')]] : [];
  });
}
/** the functions marked eager, by name */
function marked(): string[] {
  const names: string[] = [];
  for (const [file, text] of sources()) {
    const lines = text.split('\n');
    lines.forEach((l, i) => {
      if (l !== MARK) return;
      const m = /^(?:export )?const (\w+) = \(function (\w+)\(/.exec(lines[i + 1] ?? '');
      expect(m, `${file}:${i + 2}`).not.toBeNull();
      expect(m![1], `${file}:${i + 2}`).toBe(m![2]);
      names.push(m![1]!);
    });
  }
  return names;
}

describe('eager functions', () => {
  it('are marked and parenthesised in the source, the largest ones among them', () => {
    const names = marked();
    for (const core of ['diagnose', 'analyseMemory', 'torchCurrent', 'buildCompat', 'compileAll', 'pickReadings'])
      expect(names).toContain(core);
    expect(names.length).toBeGreaterThanOrEqual(30);
  });

  it("stay parenthesised in explain's bundle (dist/explain-tree/start.js, built by the tests' setup)", () => {
    const bundle = fs.readFileSync(path.join(repo, 'dist/explain-tree/start.js'), 'utf8');
    // the bundler may rename a function that another module's name shadows (diagnose2)
    for (const name of marked()) expect(bundle, name).toMatch(new RegExp(`= \\(function ${name}\\d*\\(`));
  });
});
