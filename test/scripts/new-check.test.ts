// `npm run new-check -- <area>.<name>` scaffolds a check in one step. Run here in a temporary copy of src/ and of the
// files it changes: what it writes, where it registers the check, and that the result bundles and runs.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realSnapshot } from '../helpers/snapshots.js';

const repo = path.resolve(__dirname, '..', '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ged-new-check-'));
const read = (f: string) => readFileSync(path.join(tmp, f), 'utf8');
const scaffold = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(repo, 'scripts/new-check.mjs'), ...args, '--root', tmp], {
    encoding: 'utf8',
  });

let out: ReturnType<typeof scaffold>;
beforeAll(() => {
  cpSync(path.join(repo, 'src'), path.join(tmp, 'src'), { recursive: true });
  mkdirSync(path.join(tmp, 'docs', 'findings'), { recursive: true });
  cpSync(path.join(repo, 'docs/findings/README.md'), path.join(tmp, 'docs/findings/README.md'));
  out = scaffold('node.fan-speed');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('new-check', () => {
  it('writes the check, its test and its page, and changes the registry, both catalogs and the index', () => {
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n').filter((l) => /^(created|changed) /.test(l))).toEqual([
      'created src/judge/checks/node/fan-speed.ts',
      'created test/checks/node/fan-speed.test.ts',
      'created docs/findings/node.fan-speed.md',
      'changed src/judge/checks/index.ts',
      'changed src/base/i18n/en.ts',
      'changed src/base/i18n/zh.ts',
      'changed docs/findings/README.md',
    ]);
    expect(read('src/judge/checks/node/fan-speed.ts')).toContain("id: 'node.fan-speed',\n  category: 'system',");
    expect(read('test/checks/node/fan-speed.test.ts')).toContain(
      "import { fanSpeedCheck } from '../../../src/judge/checks/node/fan-speed.js';",
    );
    for (const part of ['**What it checks.**', '**Why it matters.**', '**How to fix.**'])
      expect(read('docs/findings/node.fan-speed.md')).toContain(part);
    expect(read('docs/findings/README.md')).toContain(
      '| [`node.cuda-init`](node.cuda-init.md) | CUDA starts where NVML works |\n' +
        '| [`node.fan-speed`](node.fan-speed.md) | Fan speed |',
    );
  });

  it('registers the check after its area’s last one, import and list', () => {
    const index = read('src/judge/checks/index.ts');
    expect(index).toContain(
      "import { cudaInitCheck } from './node/cuda-init.js';\nimport { fanSpeedCheck } from './node/fan-speed.js';",
    );
    expect(index).toContain('  cudaInitCheck,\n  fanSpeedCheck,\n');
  });

  it('adds each key once to both catalogs, only adding lines', () => {
    for (const lang of ['en', 'zh']) {
      const before = readFileSync(path.join(repo, `src/base/i18n/${lang}.ts`), 'utf8').split('\n');
      const after = read(`src/base/i18n/${lang}.ts`).split('\n');
      expect(after.filter((l) => !before.includes(l))).toHaveLength(3);
      expect(after.filter((l) => before.includes(l))).toEqual(before);
      for (const key of ['title.node.fan-speed', 'node.fan-speed.found', 'node.fan-speed.fix'])
        expect(
          after.filter((l) => l.startsWith(`  '${key}': `)),
          `${lang} ${key}`,
        ).toHaveLength(1);
    }
  });

  it('gives a check that bundles, is in ALL_CHECKS and finds nothing on a healthy snapshot', async () => {
    const outfile = path.join(tmp, 'checks.mjs');
    await build({
      entryPoints: [path.join(tmp, 'src/judge/checks/index.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
      define: { __KNOWLEDGE_DIR__: JSON.stringify(pathToFileURL(path.join(tmp, 'src/knowledge/')).href) },
    });
    const { ALL_CHECKS } = await import(pathToFileURL(outfile).href);
    const check = ALL_CHECKS.find((c: { id: string }) => c.id === 'node.fan-speed');
    expect(check.title).toBe('Fan speed');
    expect(check.evaluate(realSnapshot('h200-idle'))).toEqual([]);
  });

  it('refuses an id that is taken, a bad id or an unknown area with one line and exit 2, writing nothing', () => {
    for (const [id, msg] of [
      ['node.fan-speed', /node\/fan-speed\.ts exists already/],
      ['node.shm', /src\/judge\/checks\/node\/shm\.ts exists already/],
      ['Node.Fans', /is not a check id like node\.fans/],
      ['disk.usage', /unknown area "disk"/],
    ] as const) {
      const r = scaffold(id);
      expect(r.status, id).toBe(2);
      expect(r.stderr.trim().split('\n'), id).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
    expect(existsSync(path.join(tmp, 'src/judge/checks/disk'))).toBe(false);
  });

  it('with --dry-run names what it would write and writes nothing', () => {
    const r = scaffold('gpu.fans', '--dry-run');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('would create src/judge/checks/gpu/fans.ts');
    expect(existsSync(path.join(tmp, 'src/judge/checks/gpu/fans.ts'))).toBe(false);
  });
});
