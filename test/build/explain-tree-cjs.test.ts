// explain's tree as CommonJS (scripts/build.mjs treeAsCommonJs): esbuild's exports rewritten as one object literal
// of getters (exportsAsLiteral) give the same names, read live, to a module that requires the file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

const { exportsAsLiteral } = (await import(
  // @ts-expect-error: a plain .mjs script without types
  '../../scripts/build.mjs'
)) as { exportsAsLiteral: (code: string) => string };

const cjs = async (esm: string) =>
  (await transform(esm, { format: 'cjs', platform: 'node', target: 'node20', loader: 'js' })).code;

describe('exportsAsLiteral', () => {
  it('gives the same names, live, as esbuild exports them', async () => {
    const lib = await cjs(
      'export let count = 0;\nexport function bump() { count += 1; }\nconst hidden = 2;\nexport { hidden as shown };\n',
    );
    const rewritten = exportsAsLiteral(lib);
    expect(rewritten).not.toBe(lib);
    expect(rewritten).not.toContain('__toCommonJS(stdin_exports)');
    expect(rewritten).toContain('get shown() {');
    const user = await cjs(
      'import { count, bump, shown } from "./lib.js";\nimport * as ns from "./lib.js";\n' +
        'bump(); bump();\nconsole.log(JSON.stringify([count, shown, Object.keys(ns).sort(), ns.__esModule]));\n',
    );
    const outputs = [lib, rewritten].map((code) => {
      const dir = tempDir('ged-exports-literal-');
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "commonjs" }\n');
      fs.writeFileSync(path.join(dir, 'lib.js'), code);
      fs.writeFileSync(path.join(dir, 'user.js'), user);
      return spawnSync(process.execPath, [path.join(dir, 'user.js')], { encoding: 'utf8' }).stdout;
    });
    expect(outputs[0]).toBe('[2,2,["bump","count","shown"],true]\n');
    expect(outputs[1]).toBe(outputs[0]);
  });

  it('leaves code of another shape as it is', async () => {
    // an export read from another module (a member expression, not a local name)
    const reexport = await cjs('import { a } from "./x.js";\nexport { a as b };\n');
    expect(exportsAsLiteral(reexport)).toBe(reexport);
    expect(exportsAsLiteral('module.exports = 1;\n')).toBe('module.exports = 1;\n');
  });
});
