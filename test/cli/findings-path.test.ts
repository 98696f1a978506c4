import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-global-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A global install as npm lays it out: the package's files under lib/node_modules/NAME, run from elsewhere.
function install(withDocs: boolean): string {
  const pkg = path.join(tmp, withDocs ? 'with' : 'without', 'lib', 'node_modules', 'gpu-env-doctor');
  fs.cpSync(path.join(repo, 'dist'), path.join(pkg, 'dist'), { recursive: true });
  if (withDocs) fs.cpSync(path.join(repo, 'docs/findings'), path.join(pkg, 'docs/findings'), { recursive: true });
  return pkg;
}

function help(pkg: string, ...extra: string[]): string {
  const r = spawnSync(process.execPath, [path.join(pkg, 'dist/cli.js'), 'procs', '--help', ...extra], {
    cwd: tmp,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', COLUMNS: '400' },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('the findings pages after a global install', () => {
  it('help prints the installed folder of the findings pages, in both languages', () => {
    const pkg = install(true);
    const dir = `${path.join(pkg, 'docs', 'findings')}${path.sep}`;
    expect(help(pkg)).toContain(`Learn more: every finding has a page in ${dir} (its id is shown with -v)`);
    expect(help(pkg, '--lang', 'zh')).toContain(`每个检查结果在 ${dir} 下都有说明页`);
  });

  it('says docs/findings/ when the pages are not installed beside the program', () => {
    expect(help(install(false))).toContain('every finding has a page in docs/findings/ (its id');
  });

  it('the npm package ships the findings pages and the Chinese docs', () => {
    const files = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).files as string[];
    expect(files).toEqual(expect.arrayContaining(['dist', 'docs/findings', 'docs/zh']));
    expect(fs.existsSync(path.join(repo, 'docs/zh/README.md'))).toBe(true);
  });
});
