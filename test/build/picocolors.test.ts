// picocolors in the bundle (scripts/build.mjs picocolorsPlugin): an ES module whose default colours are made on
// first use, answering what picocolors' own object answers, for every colour, with colour forced, refused, guessed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

// @ts-expect-error: a plain .mjs script without types
import * as buildScript from '../../scripts/build.mjs';

const { picocolorsPlugin, REQUIRE_BANNER } = buildScript as { picocolorsPlugin: object; REQUIRE_BANNER: string };
const repo = path.resolve(__dirname, '../..');

// what the code sees of picocolors' default object: its names, each colour applied, support, and a palette
const PROBE = `const names = Object.keys(pc).sort();
const show = (k) => (k === 'createColors' ? typeof pc[k] : typeof pc[k] === 'function' ? pc[k]('x') : String(pc[k]));
const out = names.map((k) => [k, show(k)]);
console.log(JSON.stringify([out, pc.createColors(true).red('y'), pc.createColors(false).red('y')]));`;

describe('picocolors in the bundle', () => {
  it("answers as picocolors' own object, whatever the environment says of colour", async () => {
    const dir = tempDir('ged-pc-');
    const entry = path.join(dir, 'entry.ts');
    fs.writeFileSync(entry, `import pc from 'picocolors';\n${PROBE}\n`);
    const r = await build({
      absWorkingDir: repo,
      entryPoints: [entry],
      nodePaths: [path.join(repo, 'node_modules')],
      outfile: path.join(dir, 'out.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      banner: { js: REQUIRE_BANNER },
      plugins: [picocolorsPlugin as never],
      logLevel: 'silent',
    });
    expect(r.errors).toEqual([]);
    const bundled = fs.readFileSync(path.join(dir, 'out.mjs'), 'utf8');
    expect(bundled).not.toMatch(/__commonJS|__toESM/);
    const own = `const pc = require(${JSON.stringify(path.join(repo, 'node_modules/picocolors'))});\n${PROBE}`;
    const envs = [{}, { FORCE_COLOR: '1' }, { NO_COLOR: '1' }, { CI: '1' }, { FORCE_COLOR: '1', NO_COLOR: '1' }];
    for (const env of envs) {
      const e = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env };
      const a = spawnSync(process.execPath, [path.join(dir, 'out.mjs')], { env: e, encoding: 'utf8' });
      const b = spawnSync(process.execPath, ['-e', own], { env: e, encoding: 'utf8' });
      expect(a.status).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      expect(JSON.parse(a.stdout)[0].length).toBeGreaterThan(40);
    }
    // and --color on the command line, which picocolors reads from argv
    const a = spawnSync(process.execPath, [path.join(dir, 'out.mjs'), '--color'], { encoding: 'utf8' });
    const b = spawnSync(process.execPath, ['-e', own, '--', '--color'], { encoding: 'utf8' });
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toContain('\\u001b[31mx');
  });
});
