// scripts/regroup/regroup.mjs on a small git tree of the old layout: the moves, the references it rewrites (and the
// look-alikes it leaves), and a second run that changes nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '..', '..');
let dir = '';
let firstRun = '';

const FILES: Record<string, string> = {
  'src/core/errors.ts': 'export class UsageError extends Error {}\n',
  'src/core/finding.ts': "import { UsageError } from './errors.js';\nexport type Finding = { e: UsageError };\n",
  'src/checks/gpu/driver.ts': [
    "import type { Finding } from '../../core/finding.js';",
    "import table from '../../libs/frameworks.json' with { type: 'json' };",
    '// the table lives in src/libs/frameworks.json; torch reads aten/src/ATen/cudnn/Exceptions.h, not ours',
    "export const f = (x: Finding) => [x, table, './', '../nowhere.js'];",
    '',
  ].join('\n'),
  'src/libs/frameworks.json': '{}\n',
  'src/python/assets/probe.py': 'print(1)\n',
  'src/python/probe.ts':
    "import text from './assets/probe.py?raw';\nexport const probe = () => import('../checks/gpu/driver.js').then(() => text);\n",
  'src/knowledge/index.ts': "const DIR = new URL('./', import.meta.url);\nexport { DIR };\n",
  'src/commands/registry.ts': "export const load = () => import('./check.js');\n",
  'src/commands/check.ts': "import type { load } from './registry.js';\nexport type L = typeof load;\n",
  'src/somewhere-new/x.ts': "import { UsageError } from '../core/errors.js';\nexport { UsageError };\n",
  'test/driver.test.ts':
    "import { f } from '../src/checks/gpu/driver.js';\nconst py = new URL('../src/python/assets/probe.py', import.meta.url);\nexport { f, py };\n",
  'scripts/build.mjs': [
    'const I18N = /[\\\\/]src[\\\\/]core[\\\\/](errors)\\.ts$/;',
    "const entry = 'src/python/probe.ts';",
    'const bundled = /src\\/checks\\/gpu\\/driver\\.ts$/;',
    'export { I18N, entry, bundled };',
    '',
  ].join('\n'),
  'docs/ARCHITECTURE.md': '| `src/checks/` | checks |\nSee [the probe](../src/python/probe.ts).\n',
};

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
}
function regroup(...args: string[]): string {
  return execFileSync(process.execPath, ['scripts/regroup/regroup.mjs', ...args], { cwd: dir, encoding: 'utf8' });
}
const read = (p: string) => readFileSync(path.join(dir, p), 'utf8');

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ged-regroup-'));
  for (const [p, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  }
  cpSync(path.join(REPO, 'scripts/regroup'), path.join(dir, 'scripts/regroup'), { recursive: true });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'old layout');
  firstRun = regroup();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/regroup/regroup.mjs', () => {
  it('moves files by folder, with the file exceptions, as git renames', () => {
    expect(existsSync(path.join(dir, 'src/base/errors.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/judge/finding.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/judge/checks/gpu/driver.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/knowledge/libraries/frameworks.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/gather/python/assets/probe.py'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/cli/registry.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/core'))).toBe(false);
    expect(git('status', '--porcelain')).toContain('R  src/core/errors.ts -> src/base/errors.ts');
  });

  it('rewrites relative specifiers (.js for .ts, json, ?raw, import(), type imports) from the new places', () => {
    expect(read('src/judge/finding.ts')).toContain("from '../base/errors.js'");
    const driver = read('src/judge/checks/gpu/driver.ts');
    expect(driver).toContain("from '../../finding.js'");
    expect(driver).toContain("from '../../../knowledge/libraries/frameworks.json' with");
    expect(read('src/gather/python/probe.ts')).toContain("from './assets/probe.py?raw'");
    expect(read('src/gather/python/probe.ts')).toContain("import('../../judge/checks/gpu/driver.js')");
    expect(read('src/commands/check.ts')).toContain("from '../cli/registry.js'");
    expect(read('src/cli/registry.ts')).toContain("import('../commands/check.js')");
    expect(read('test/driver.test.ts')).toContain("from '../src/judge/checks/gpu/driver.js'");
    expect(read('test/driver.test.ts')).toContain("new URL('../src/gather/python/assets/probe.py'");
  });

  it('rewrites paths from the root, in text and in regexes, and leaves what only looks like one', () => {
    const driver = read('src/judge/checks/gpu/driver.ts');
    expect(driver).toContain('the table lives in src/knowledge/libraries/frameworks.json;');
    expect(driver).toContain('aten/src/ATen/cudnn/Exceptions.h');
    expect(driver).toContain("'./', '../nowhere.js'");
    const build = read('scripts/build.mjs');
    expect(build).toContain('const I18N = /[\\\\/]src[\\\\/]base[\\\\/](errors)\\.ts$/;');
    expect(build).toContain("const entry = 'src/gather/python/probe.ts';");
    expect(build).toContain('const bundled = /src\\/judge\\/checks\\/gpu\\/driver\\.ts$/;');
    expect(read('docs/ARCHITECTURE.md')).toBe(
      '| `src/judge/checks/` | checks |\nSee [the probe](../src/gather/python/probe.ts).\n',
    );
  });

  it('leaves a folder no rule names where it is, says so, and still rewrites its imports', () => {
    expect(firstRun).toContain('UNMAPPED src/somewhere-new/x.ts');
    expect(read('src/somewhere-new/x.ts')).toContain("from '../base/errors.js'");
  });

  it('does nothing the second time', () => {
    const before = git('status', '--porcelain');
    expect(regroup()).toContain('nothing to do');
    expect(git('status', '--porcelain')).toBe(before);
  });

  it('prints the plan and changes nothing with --dry-run', () => {
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'regrouped');
    git('reset', '-q', '--hard', 'HEAD~1');
    const plan = regroup('--dry-run');
    expect(plan).toContain('move     src/core/errors.ts → src/base/errors.ts');
    expect(plan).toMatch(/rewrite {2}scripts\/build\.mjs: 3 references/);
    expect(git('status', '--porcelain')).toBe('');
  });
});
