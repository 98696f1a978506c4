// The largest functions a short explain runs once are parenthesised function expressions (see the head of
// src/judge/explain/engine.ts): V8 compiles them with their file, so Node's compile cache keeps their bytecode. A
// formatter or the bundler dropping the parentheses makes them lazy again, silently: this test says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../..');
const EAGER = [
  'diagnose',
  'redirect',
  'analyseMemory',
  'torchCurrent',
  'requestSizes',
  'libraryVersions',
  'cudnnVersions',
  'driverVersions',
  'compilerArch',
  'buildCompat',
  'compileAll',
  'pickReadings',
];

describe('eager functions', () => {
  it('are parenthesised in the source', () => {
    const src = ['diagnose.ts', 'analyse/memory.ts', 'analyse/versions.ts', 'signatures/index.ts', 'collect.ts']
      .map((f) => fs.readFileSync(path.join(repo, 'src/judge/explain', f), 'utf8'))
      .join('\n');
    for (const name of EAGER) expect(src, name).toMatch(new RegExp(`= \\(function ${name}\\(`));
  });

  it("stay parenthesised in explain's bundle (dist/explain-tree/start.js, built by the tests' setup)", () => {
    const bundle = fs.readFileSync(path.join(repo, 'dist/explain-tree/start.js'), 'utf8');
    // the bundler may rename a function that another module's name shadows (diagnose2)
    for (const name of EAGER) expect(bundle, name).toMatch(new RegExp(`= \\(function ${name}\\d*\\(`));
  });
});
