// explain's start file rewritten for a short explain (scripts/lib/eager-functions.mjs): the functions it runs
// compiled with the file (the rewrite keeps what a hoisted declaration gives to code that runs while the file loads),
// the text in ASCII (the same strings and patterns); the build's step puts the file back when what the build prints
// changes, and the built tree holds the rewrite.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

// @ts-expect-error: a plain .mjs script without types
import * as eager from '../../scripts/lib/eager-functions.mjs';

const { parenthesise, asciiSource, eagerExplainStart } = eager as {
  parenthesise: (source: string, names: Set<string>) => { text: string; moved: string[] };
  asciiSource: (source: string) => string;
  eagerExplainStart: (outdir: string, startFile: string, argvs: string[][]) => string[];
};

const run = (file: string) => spawnSync(process.execPath, [file], { encoding: 'utf8' });

describe('parenthesise', () => {
  // `late` is called and stored while the file loads, before its declaration: hoisting gives it a value there
  const source = [
    'const table = { late };',
    'console.log(late(2), table.late(3), once(4));',
    'function late(x) {',
    '  const y = x * 10;',
    '  return y + 1;',
    '}',
    'function once(x) { return x - 1; }',
    'function other(x) {',
    '  return `}',
    '${x}`;',
    '}',
    'console.log(other.name, late.name);',
  ].join('\n');

  it('moves the named declarations to the head as parenthesised expressions, their names kept', () => {
    const { text, moved } = parenthesise(source, new Set(['late', 'once', 'absent']));
    expect(moved).toEqual(['late', 'once']);
    expect(text.split('\n').slice(0, 6)).toEqual([
      'var late = (function late(x) {',
      '  const y = x * 10;',
      '  return y + 1;',
      '});',
      'var once = (function once(x) { return x - 1; });',
      'const table = { late };',
    ]);
    expect(text).toContain('function other(x) {');
  });

  it('prints what the declarations printed, though the code that loads first calls them', () => {
    const dir = tempDir('ged-eager-');
    fs.writeFileSync(path.join(dir, 'a.mjs'), source);
    fs.writeFileSync(path.join(dir, 'b.mjs'), parenthesise(source, new Set(['late', 'once'])).text);
    const a = run(path.join(dir, 'a.mjs'));
    expect(a.stdout).toBe('21 31 3\nother late\n');
    expect(run(path.join(dir, 'b.mjs'))).toMatchObject({ status: 0, stdout: a.stdout });
  });

  it('keeps a "use strict" first line first, where it still makes the whole file strict', () => {
    const strict = '"use strict";\nfunction loose() {\n  return this;\n}\nconsole.log(loose() === undefined);';
    const { text, moved } = parenthesise(strict, new Set(['loose']));
    expect(moved).toEqual(['loose']);
    expect(text.startsWith('"use strict";\nvar loose = (function loose() {')).toBe(true);
    const dir = tempDir('ged-eager-strict-');
    fs.writeFileSync(path.join(dir, 'a.cjs'), text);
    expect(run(path.join(dir, 'a.cjs')).stdout).toBe('true\n');
  });

  it('refuses a declaration it cannot find the end of', () => {
    expect(() => parenthesise('function open(x) {\n  return x;\n  }', new Set(['open']))).toThrow(/open/);
  });
});

describe('asciiSource', () => {
  // a string, a template, patterns with and without the u flag (an astral character: one code point with u, two
  // units without), a character class, an identifier, a comment
  const source = [
    '// 显卡 → GPU',
    'const 名 = "显存：";',
    'const tpl = `驱动 ${名.length}`;',
    'const a = /^[“”]+$/.test("“”");',
    'const b = /^😀$/u.test("😀") && /^😀$/.test("😀") && !/^.$/.test("😀") && /^.$/u.test("😀");',
    'const c = "a，b；c".split(/[，；]/).join("|");',
    'console.log(JSON.stringify([名, tpl, a, b, c, /[®™]/g.test("x™")]));',
  ].join('\n');

  it('writes every character above 0x7f as an escape, and the program prints the same', () => {
    const text = asciiSource(source);
    expect(text).toMatch(/^[\x00-\x7f]*$/);
    expect(text).toContain('/^[\\u201C\\u201D]+$/');
    const dir = tempDir('ged-ascii-');
    fs.writeFileSync(path.join(dir, 'a.mjs'), source);
    fs.writeFileSync(path.join(dir, 'b.mjs'), text);
    const a = run(path.join(dir, 'a.mjs'));
    expect(a.stdout).toBe('["显存：","驱动 3",true,true,"a|b|c",true]\n');
    expect(run(path.join(dir, 'b.mjs'))).toMatchObject({ status: 0, stdout: a.stdout });
  });
});

describe("the build's step", () => {
  /** a tree like dist/: cli.js loads explain-tree/start.js, whose `where` prints the line it is on */
  function tree(): { dir: string; start: string } {
    const dir = tempDir('ged-eager-tree-');
    fs.mkdirSync(path.join(dir, 'explain-tree'));
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(dir, 'cli.js'), 'import { start } from "./explain-tree/start.js";\nstart();\n');
    const start = path.join(dir, 'explain-tree', 'start.js');
    fs.writeFileSync(
      start,
      [
        'export function start() {',
        '  console.log(plain(1));',
        '}',
        'function plain(x) {',
        '  return x + 1;',
        '}',
        'function unused(x) {',
        '  return x;',
        '}',
      ].join('\n'),
    );
    return { dir, start };
  }

  it('rewrites the functions the run calls, and no other', () => {
    const { dir, start } = tree();
    expect(eagerExplainStart(dir, start, [['explain']])).toEqual(['plain']);
    const text = fs.readFileSync(start, 'utf8');
    expect(text.startsWith('var plain = (function plain(x) {')).toBe(true);
    expect(text).toContain('\nfunction unused(x) {');
    expect(run(path.join(dir, 'cli.js')).stdout).toBe('2\n');
  });

  it('puts the file back, and says so, when the rewritten build prints something else', () => {
    const { dir, start } = tree();
    // the line a function is on is the one thing the rewrite changes: a run that prints it tells
    const before = fs
      .readFileSync(start, 'utf8')
      .replace('return x + 1;', 'return new Error().stack.split("\\n")[1].split(":").at(-2);');
    fs.writeFileSync(start, before);
    expect(() => eagerExplainStart(dir, start, [['explain', 'x']])).toThrow(/changes what `explain x` prints/);
    expect(fs.readFileSync(start, 'utf8')).toBe(before);
  });
});

describe('the built tree', () => {
  it("holds diagnose and the engine's first functions as parenthesised expressions, in ASCII", () => {
    const text = fs.readFileSync(path.resolve('dist/explain-tree/start.js'), 'utf8');
    expect(text).toMatch(/^[\x00-\x7f]*$/);
    const moved = [...text.matchAll(/^var (\w+) = \(function \1\(/gm)].map((m) => m[1]!.replace(/\d+$/, ''));
    expect(moved.length).toBeGreaterThan(60);
    expect(moved).toEqual(expect.arrayContaining(['diagnose', 'pickReadings', 'normaliseLine', 'analyseMemory']));
    // what the run never calls stays a declaration (the reading of a private configuration file)
    expect(text).toMatch(/^function readConfigFile\d*\(/m);
  });
});
