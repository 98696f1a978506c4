import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-global-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A global install as npm lays it out: the package's files under lib/node_modules/NAME, run from elsewhere.
function install(withDocs: boolean, withZh = withDocs): string {
  const pkg = path.join(tmp, `${withDocs}-${withZh}`, 'lib', 'node_modules', 'gpu-env-doctor');
  fs.cpSync(path.join(repo, 'dist'), path.join(pkg, 'dist'), { recursive: true });
  if (withDocs) fs.cpSync(path.join(repo, 'docs/findings'), path.join(pkg, 'docs/findings'), { recursive: true });
  if (withZh) fs.cpSync(path.join(repo, 'docs/zh'), path.join(pkg, 'docs/zh'), { recursive: true });
  return pkg;
}

function cli(pkg: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [path.join(pkg, 'dist/cli.js'), ...args], {
    cwd: tmp,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', COLUMNS: '400' },
    encoding: 'utf8',
  });
  return r.stdout;
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
    // Chinese output points at the Chinese pages, installed beside the English ones
    const zh = `${path.join(pkg, 'docs', 'zh', 'findings')}${path.sep}`;
    expect(help(pkg, '--lang', 'zh')).toContain(`每个检查结果在 ${zh} 下都有说明页`);
    // without the Chinese pages, the English ones
    expect(help(install(true, false), '--lang', 'zh')).toContain(
      `每个检查结果在 ${path.join(tmp, 'true-false', 'lib', 'node_modules', 'gpu-env-doctor', 'docs', 'findings')}${path.sep}`,
    );
  });

  it("a finding's page in Chinese output is the Chinese page, and it is there", () => {
    const held = path.join(repo, 'examples/snapshots/h200-memory-held.json');
    const out = cli(install(true), 'check', '--from', held, '-v', '--lang', 'zh');
    expect(out).toContain('docs/zh/findings/memory.headroom.md');
    expect(out).not.toContain('docs/findings/memory.headroom.md');
    expect(fs.existsSync(path.join(repo, 'docs/zh/findings/memory.headroom.md'))).toBe(true);
    expect(cli(install(true), 'check', '--from', held, '-v')).toContain('docs/findings/memory.headroom.md');
  });

  it('says docs/findings/ when the pages are not installed beside the program', () => {
    expect(help(install(false))).toContain('every finding has a page in docs/findings/ (its id');
  });

  it('the npm package ships the findings pages and the Chinese docs', () => {
    const files = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).files as string[];
    expect(files).toEqual(expect.arrayContaining(['dist', 'docs/findings', 'docs/zh']));
    expect(fs.existsSync(path.join(repo, 'docs/zh/README.md'))).toBe(true);
    expect(fs.existsSync(path.join(repo, 'docs/zh/findings/README.md'))).toBe(true);
  });
});

describe('a Chinese page for every findings page', () => {
  const en = fs.readdirSync(path.join(repo, 'docs/findings')).filter((f) => f.endsWith('.md'));
  const zhDir = path.join(repo, 'docs/zh/findings');
  it('the same set of pages, each titled with its id', () => {
    expect(fs.readdirSync(zhDir).sort()).toEqual([...en].sort());
    for (const f of en.filter((x) => x !== 'README.md')) {
      const first = fs.readFileSync(path.join(zhDir, f), 'utf8').split('\n')[0]!;
      expect(first, f).toMatch(new RegExp(`（\`${f.replace(/\.md$/, '').replace(/\./g, '\\.')}\`）$`));
    }
  });

  it.each(en)('%s in Chinese: Chinese prose with full-width punctuation, every link and id kept', (f) => {
    const zh = fs.readFileSync(path.join(zhDir, f), 'utf8');
    const english = fs.readFileSync(path.join(repo, 'docs/findings', f), 'utf8');
    // prose outside code spans and table pipes
    const prose = zh.replace(/`[^`]*`/g, '').replace(/\([^)]*\.md\)/g, '');
    const cjk = (prose.match(/[\u4e00-\u9fff]/g) ?? []).length;
    const latinWords = (prose.match(/[A-Za-z]{4,}/g) ?? []).length;
    expect(cjk, f).toBeGreaterThan(latinWords * 3);
    // the glossary's rule: no half-width comma, colon, semicolon or bracket right after a Chinese character
    expect(prose.match(/[\u4e00-\u9fff][,:;()]/g) ?? [], f).toEqual([]);
    // every command and id of the English page is on the Chinese one (a <placeholder> is translated)
    for (const code of new Set(english.match(/`[^`]+`/g) ?? []))
      if (!code.includes('<')) expect(zh, `${f}: ${code}`).toContain(code);
  });
});
