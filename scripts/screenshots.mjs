// Screenshots of the reports for docs/screenshots/: the HTML report, and the Markdown report rendered the
// way GitHub renders an issue (marked, GitHub's Markdown CSS, raw HTML allowed as GitHub allows <details>).
// Uses the same headless Chromium + playwright-core as test/browser/.
//   node scripts/screenshots.mjs [MDTOOLS]
// MDTOOLS: a folder with node_modules/marked and node_modules/github-markdown-css (not dependencies of the
// project: `npm install --prefix /tmp/mdtools marked@15 github-markdown-css@5`); default /tmp/mdtools.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!CHROMIUM) throw new Error('chromium is not installed (apt-get install chromium)');
const mdtools = process.argv[2] ?? '/tmp/mdtools';
const req = createRequire(path.join(mdtools, 'package.json'));
const { marked } = req('marked');
const githubCss = readFileSync(req.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');

const OUT = 'docs/screenshots';
mkdirSync(OUT, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'ged-shots-'));
const cli = (args, env = {}) => {
  try {
    return execFileSync(process.execPath, ['dist/cli.js', ...args], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
  } catch (e) {
    return e.stdout; // exit 1: findings
  }
};

const HELD = 'examples/snapshots/h200-memory-held.json';
cli(['check', '--from', HELD, '--html', path.join(tmp, 'check.html')]);
const md = cli(['check', '--from', HELD, '--markdown']);
// GitHub renders <details> closed; open them here so the shot shows what a reader sees after clicking.
const body = marked.parse(md).replace(/<details>/g, '<details open>');
writeFileSync(
  path.join(tmp, 'md.html'),
  `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${githubCss} body{margin:0} .markdown-body{box-sizing:border-box;max-width:980px;margin:0 auto;padding:32px}</style></head><body><article class="markdown-body">${body}</article></body></html>`,
);

const ctx = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  for (const [file, png, width] of [
    ['check.html', 'check-html-memory-held.png', 1100],
    ['md.html', 'check-markdown-as-github.png', 1012],
  ]) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(pathToFileURL(path.join(tmp, file)).href, { waitUntil: 'load' });
    // The top of the page: what a reader sees first (the rest is tables).
    const height = Math.min(1700, await page.evaluate(() => document.documentElement.scrollHeight));
    await page.screenshot({ path: path.join(OUT, png), fullPage: true, clip: { x: 0, y: 0, width, height } });
    console.log(`wrote ${path.join(OUT, png)}`);
  }
} finally {
  await ctx.close();
}
