// `serve`'s live page in a real browser (Debian's chromium, headless, driven by playwright-core), against the
// built CLI with a fake nvidia-smi that replays the H200 capture with real processes in its list. Unlike the
// HTML report's tests, the page's own Content-Security-Policy is left on: its script must run under it, and
// nothing else may. Screenshots go to docs/ (desktop, phone, dark).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { killQuietly, spawnOrphan } from '../fix/helpers.js';
import { tempDir } from '../helpers/fake-bin.js';
import { fakeSmi, get, startServe, until, type FakeSmi, type Serve } from '../serve/helpers.js';
import { NOW, sampleState } from '../serve/sample-state.js';
import { CLIENT_JS_HASH, cspHash } from '../../src/report/serve/client.js';
import { buildPageModel } from '../../src/report/serve/model.js';
import { PAGE_CSS, renderPage } from '../../src/report/serve/render.js';
import { contentSecurityPolicy } from '../../src/act/serve/security.js';
import { startServer } from '../../src/act/serve/server.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

// Run in the page by playwright (the tests' TypeScript has no DOM library).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare function getComputedStyle(e: unknown): { backgroundColor: string };

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
if (!CHROMIUM)
  console.warn(
    'test/browser: chromium is not installed (apt-get install chromium): the serve browser tests are skipped',
  );

// The screenshots land in docs/ only when asked (GED_UPDATE_DOCS=1): a test run leaves the checkout as it was.
const DOCS =
  process.env.GED_UPDATE_DOCS === '1'
    ? path.resolve(__dirname, '../../docs')
    : fs.mkdtempSync(path.join(os.tmpdir(), 'ged-shots-'));
const INTERVAL_S = 2;
const HOSTILE_ARG = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_SCRIPT = '</script><script>window.__pwned=2</script>';
const HOSTILE_NAME = '<img src=x onerror=window.__pwned=3>';

describe.skipIf(!CHROMIUM)('serve: the live page in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  const pids: number[] = [];
  const children: ChildProcess[] = [];
  const servers: Serve[] = [];
  /** every console error or warning, page error and failed request of every page, checked at the end */
  const problems: string[] = [];

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    dir = tempDir('ged-serve-browser-');
    browser = await chromium.launch({
      executablePath: CHROMIUM!,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60000);

  afterEach(async () => {
    // each test's server is stopped at its end: the machine running the tests is small
    for (const s of servers.splice(0)) await s.stop();
  });

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    for (const p of pids) killQuietly(p);
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function serve(args: string[], smi: FakeSmi): Promise<Serve> {
    const s = await startServe(['--check-interval', '0', '--interval', String(INTERVAL_S), ...args], {
      PATH: `${smi.dir}:${process.env.PATH}`,
    });
    servers.push(s);
    return s;
  }

  async function open(
    url: string,
    o: { viewport?: { width: number; height: number }; scripts?: boolean; dark?: boolean } = {},
  ): Promise<{ page: Page; ctx: BrowserContext; status: number }> {
    const ctx = await browser.newContext({
      viewport: o.viewport ?? { width: 1200, height: 900 },
      javaScriptEnabled: o.scripts ?? true,
      colorScheme: o.dark ? 'dark' : 'light',
    });
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${url}: ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${url}: pageerror: ${e.message}`));
    page.on('requestfailed', (r) => {
      // the event stream is cut when the page closes: that is not a failure of the page
      if (!new URL(r.url()).pathname.startsWith('/events')) problems.push(`${url}: request failed: ${r.url()}`);
    });
    const res = await page.goto(url, { waitUntil: 'load' });
    return { page, ctx, status: res?.status() ?? 0 };
  }

  const updates = (page: Page) => page.evaluate(() => Number(document.body.getAttribute('data-updates') ?? '0'));

  it('shows a change of nvidia-smi within two intervals, without reloading', async () => {
    const holder = spawnOrphan(['sleep', '310']);
    pids.push(holder);
    // a running job: a child of this test, so its parent is alive
    const job = spawn('sleep', ['311'], { stdio: 'ignore' });
    children.push(job);
    const smi = fakeSmi([
      { procs: [{ pid: holder, usedMiB: 138_600 }] },
      { procs: [{ pid: job.pid!, usedMiB: 61_000 }] },
      { procs: [] },
      { procs: [] },
    ]);
    const s = await serve([], smi);
    const { page, ctx } = await open(s.url);
    await page.waitForSelector('#status [data-kind="ok"]', { timeout: 10000 });
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 42));
    expect(await page.locator(`#gpu-0 tr[data-pid="${holder}"]`).getAttribute('data-verdict')).toBe('orphaned');
    expect(await page.locator(`#gpu-1 tr[data-pid="${job.pid}"]`).getAttribute('data-verdict')).toBe('active');
    expect(await page.locator('#free').innerText()).toContain('Free now: GPU 2, GPU 3 of 4 GPUs');
    expect(
      await page.locator('#gpu-0 svg.bar rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-kind'))),
    ).toEqual(['proc', 'free']);
    // the bar fills its width
    // (measured in one evaluate: an update may replace the section between two calls)
    const widths = await page.evaluate(() => {
      const svg = document.querySelector('#gpu-0 svg.bar')!;
      return {
        total: svg.getBoundingClientRect().width,
        sum: [...svg.querySelectorAll('rect')].reduce((a, r) => a + r.getBoundingClientRect().width, 0),
      };
    });
    expect(Math.abs(widths.total - widths.sum)).toBeLessThan(3);

    // The live page shows real ages and PIDs: it goes to docs/ only when asked (GED_UPDATE_DOCS=1), so a test run
    // leaves the working tree as it found it.
    await page.screenshot({
      path: path.join(process.env.GED_UPDATE_DOCS === '1' ? DOCS : os.tmpdir(), 'serve-live.png'),
      fullPage: true,
    });
    const phone = await open(s.url, { viewport: { width: 390, height: 844 } });
    await phone.page.waitForSelector('#status [data-kind="ok"]');
    const { scroll, client } = (await phone.page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(scroll).toBeLessThanOrEqual(client);
    await phone.ctx.close();

    // the holder ends: nvidia-smi no longer lists it
    const before = await updates(page);
    const changedAt = Date.now();
    smi.set([{ procs: [] }, { procs: [{ pid: job.pid!, usedMiB: 61_000 }] }, { procs: [] }, { procs: [] }]);
    await page.waitForFunction(
      () => document.querySelector('#free')?.textContent?.includes('Free now: GPU 0, GPU 2, GPU 3'),
      undefined,
      { timeout: 2 * INTERVAL_S * 1000 + 500, polling: 50 },
    );
    const tookMs = Date.now() - changedAt;
    expect(tookMs).toBeLessThanOrEqual(2 * INTERVAL_S * 1000 + 500);
    expect(await page.locator(`tr[data-pid="${holder}"]`).count()).toBe(0);
    expect(await page.locator('#gpu-0').getAttribute('data-free')).toBe('true');
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42); // not reloaded
    expect(await updates(page)).toBeGreaterThan(before);
    // "updated N s ago" counts on its own
    expect(await page.locator('#status').innerText()).toMatch(/Live · updated \d+ s ago · read every 2 s/);
    await ctx.close();
  }, 60000);

  it('a command line holding <img onerror> and </script>, and a hostile process name: shown as text, nothing runs, also after live updates', async () => {
    const hostile = spawnOrphan(['/bin/sh', '-c', 'sleep 320; : "$0" "$1"', HOSTILE_ARG, HOSTILE_SCRIPT]);
    pids.push(hostile);
    const smi = fakeSmi([
      {
        procs: [
          { pid: hostile, usedMiB: 4000 },
          { pid: 4_000_000, usedMiB: 1000, name: HOSTILE_NAME },
        ],
      },
    ]);
    const s = await serve([], smi);
    const { page, ctx } = await open(s.url);
    await page.waitForSelector(`tr[data-pid="${hostile}"]`, { timeout: 10000 });
    const n = await updates(page);
    await page.waitForFunction((k) => Number(document.body.getAttribute('data-updates')) >= k + 2, n, {
      timeout: 10000,
    });
    await page.waitForTimeout(300); // give an <img onerror> every chance to fire
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1); // the page's own
    const row = await page.locator(`tr[data-pid="${hostile}"] td.cmd`).innerText();
    expect(row).toContain(HOSTILE_ARG);
    expect(row).toContain(HOSTILE_SCRIPT);
    expect(await page.locator('tr[data-pid="4000000"]').innerText()).toContain(HOSTILE_NAME);
    // the same without the CSP's help: the escaping alone keeps it text
    const raw = await ctx.request.get(s.url);
    const html = await raw.text();
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<script>/g)).toHaveLength(1);
    await ctx.close();
  }, 90000);

  it('with --host 0.0.0.0: refused without the token, served and live with it', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve(['--host', '0.0.0.0'], smi);
    const token = new URL(s.url).searchParams.get('token')!;
    const denied = await open(`${s.base}/`);
    expect(denied.status).toBe(401);
    expect(await denied.page.locator('body').innerText()).toContain('a token is needed');
    await denied.ctx.close();
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('401'))); // the refusal itself is logged as a failed resource
    const ok = await open(`${s.base}/?token=${token}`);
    expect(ok.status).toBe(200);
    await ok.page.waitForSelector('#status [data-kind="ok"]', { timeout: 10000 });
    const n = await updates(ok.page);
    await ok.page.waitForFunction((k) => Number(document.body.getAttribute('data-updates')) > k, n, { timeout: 5000 });
    await ok.ctx.close();
  }, 90000);

  it('when nvidia-smi hangs the page says so without a reload, and the server still answers', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve(['--timeout', '60'], smi);
    const { page, ctx } = await open(s.url);
    await page.waitForSelector('#status [data-kind="ok"]', { timeout: 10000 });
    smi.hang(true);
    await page.waitForSelector('#status [data-kind="hanging"]', { timeout: 10000 });
    const text = await page.locator('#status').innerText();
    expect(text).toMatch(/nvidia-smi has not answered for \d+ s: the driver may be hung/);
    expect(text).toMatch(/The figures below are from \d\d:\d\d:\d\d UTC \(\d+ s ago\)/);
    expect(await page.locator('#free').innerText()).toContain('Which GPUs are free is not known');
    // the counter goes on by itself while nothing new arrives
    const a = await page.locator('#status span[data-ago]').first().innerText();
    await page.waitForTimeout(2100);
    expect(await page.locator('#status span[data-ago]').first().innerText()).not.toBe(a);
    const t0 = Date.now();
    const again = await ctx.request.get(s.url);
    expect(again.status()).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
    smi.hang(false);
    await ctx.close();
  }, 90000);

  it('at 100 open streams a further page is complete and says live updates stopped', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve([], smi);
    const agent = new http.Agent({ keepAlive: false, maxSockets: 200 });
    const held: http.ClientRequest[] = [];
    // ten at a time, as clients come (a burst of 100 half-open connections from one address is a flood to serve)
    const openStream = () =>
      new Promise<void>((resolve) => {
        const req = http.get(`${s.base}/events`, { agent }, (res) => {
          res.resume();
          resolve();
        });
        req.on('error', () => undefined);
        held.push(req);
      });
    for (let b = 0; b < 100; b += 10) await Promise.all(Array.from({ length: 10 }, openStream));
    const { page, ctx } = await open(s.url);
    await page.waitForSelector('#conn:not([hidden])', { timeout: 10000 });
    expect(await page.locator('#conn').innerText()).toContain('Live updates stopped: the server refused the stream');
    expect(await page.locator('section.gpu').count()).toBe(1);
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('503'))); // the refused stream is logged as a failed resource
    await ctx.close();
    for (const r of held) r.destroy();
    agent.destroy();
  }, 90000);

  it('without JavaScript the page is complete and reloads itself', async () => {
    const smi = fakeSmi([{ procs: [] }, { procs: [] }]);
    const s = await serve([], smi);
    await until('the first sample', async () =>
      (await get(`${s.base}/state.json`)).body.includes('"kind":"ok"') ? true : null,
    );
    const { page, ctx } = await open(s.url, { scripts: false });
    expect(await page.locator('section.gpu').count()).toBe(2);
    expect(await page.locator('#free').innerText()).toContain('Free now: GPU 0, GPU 1 of 2 GPUs');
    let loads = 0;
    page.on('load', () => loads++);
    await page.waitForTimeout(6500);
    expect(loads).toBeGreaterThanOrEqual(1);
    expect(await page.locator('noscript').first().count()).toBe(1);
    await ctx.close();
  }, 90000);

  it('a shared server with frameworks, an hour of memory and findings, under the real headers: screenshots at desktop and phone width, light and dark', async () => {
    const model = buildPageModel(wordsFor(getLang()), sampleState());
    const now = NOW + 1500;
    const srv = await startServer({
      host: '127.0.0.1',
      port: 0,
      token: null,
      loopback: true,
      csp: contentSecurityPolicy({ scriptHash: CLIENT_JS_HASH, styleHash: cspHash(PAGE_CSS) }),
      source: {
        page: (q) =>
          renderPage(wordsFor(getLang()), model, {
            now,
            query: q,
            refreshS: 5,
            tool: 'gpu-env-doctor 0.1.0',
            historyWindowMs: 3600_000,
          }),
        json: () => '{}',
        eventData: () => JSON.stringify({ now }),
      },
    });
    try {
      const { page, ctx } = await open(srv.url);
      expect(await page.locator('#gpu-0 .policy').innerText()).toContain(
        'JAX, preallocating 75% of the GPU at its first operation',
      );
      expect(await page.locator('#gpu-1 .policy').innerText()).toContain(
        'PyTorch: its caching allocator keeps freed blocks reserved',
      );
      expect(await page.locator('#gpu-0 tr[data-pid="4242"] td[data-label="framework"]').innerText()).toContain('JAX');
      expect(await page.locator('svg.timeline polyline').count()).toBeGreaterThanOrEqual(5);
      expect(await page.locator('#findings li').count()).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(DOCS, 'serve-desktop.png'), fullPage: true });
      await ctx.close();
      const phone = await open(srv.url, { viewport: { width: 390, height: 844 } });
      const { scroll, client } = (await phone.page.evaluate(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      )) as { scroll: number; client: number };
      expect(scroll).toBeLessThanOrEqual(client);
      expect(
        await phone.page.evaluate(() => document.querySelector('#gpu-0 svg.bar')!.getBoundingClientRect().width),
      ).toBeGreaterThan(300);
      expect(
        await phone.page.evaluate(() => document.querySelector('#gpu-0 svg.timeline')!.getBoundingClientRect().width),
      ).toBeGreaterThan(250);
      await phone.page.screenshot({ path: path.join(DOCS, 'serve-phone.png'), fullPage: true });
      await phone.ctx.close();
      const dark = await open(srv.url, { dark: true });
      expect(await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
      await dark.page.screenshot({ path: path.join(DOCS, 'serve-dark.png'), fullPage: false });
      await dark.ctx.close();
    } finally {
      await srv.close();
    }
  }, 60000);

  it('no console errors, CSP violations or failed requests on any page', () => {
    expect(problems).toEqual([]);
  });
});
