// The explain catalog's signatures are built from their sources by the build, not committed. What ships in the
// bundle (dist/explain/catalog.json, built by the tests' global setup) must be what the sources give now, and the
// same sources must give the same bytes.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '..', '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ged-catalog-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const gen = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/gen-explain-catalog.mjs', ...args], { cwd: repo, encoding: 'utf8' });

describe('the generated explain catalog', () => {
  it('is not committed: git ignores it', () => {
    const r = spawnSync('git', ['check-ignore', 'src/judge/explain/catalog/generated.json'], { cwd: repo });
    expect(r.status).toBe(0);
  });

  it('is what the bundle embeds, regenerated from the sources', () => {
    const r = gen('--check-bundle');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('tells a bundle built from other sources apart', () => {
    cpSync(path.join(repo, 'dist', 'explain'), path.join(tmp, 'explain'), { recursive: true });
    const file = path.join(tmp, 'explain', 'catalog.json');
    const lines = readFileSync(file, 'utf8').split('\n');
    // one row's meaning edited, as if its source had changed after the build
    lines[1] = lines[1]!.replace(/"meaning":"/, '"meaning":"(edited) ');
    writeFileSync(file, lines.join('\n'));
    const r = gen('--check-bundle', '--dist', tmp);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not what the catalog's sources give now: run npm run build/);
  });

  it('gives the same bytes from the same sources', () => {
    const script = [
      "import { generateCatalog } from './scripts/lib/explain-catalog.mjs';",
      'const a = await generateCatalog();',
      'const b = await generateCatalog();',
      'const n = JSON.parse(a.json).signatures.length;',
      'process.stdout.write(JSON.stringify([a.json === b.json, a.problems.length, n]));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, encoding: 'utf8' });
    const [same, problems, signatures] = JSON.parse(r.stdout);
    expect([same, problems]).toEqual([true, 0]);
    expect(signatures).toBeGreaterThan(400);
  });

  it('rejects an unknown option with one line and exit 2', () => {
    const r = gen('--frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
