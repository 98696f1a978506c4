// The HTML report in a real browser: Debian's chromium, headless, driven by playwright-core.
// .ci/run installs chromium; where it is absent these tests are skipped with a message saying so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { renderHtml } from '../../src/report/html/render.js';
import { tempDir } from '../helpers/fake-bin.js';
import { hogRunModel } from '../report/sample.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
if (!CHROMIUM)
  console.warn('test/browser: chromium is not installed (apt-get install chromium): the browser tests are skipped');

const POINTS = 17;

describe.skipIf(!CHROMIUM)('HTML report in headless Chromium', () => {
  let browser: BrowserContext;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    dir = tempDir('ged-browser-');
    file = path.join(dir, 'report.html');
    fs.writeFileSync(file, renderHtml(wordsFor(getLang()), hogRunModel(POINTS)));
    // A fresh profile in a temp folder (playwright passes it as --user-data-dir).
    browser = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM!,
      headless: true,
      // The report's own CSP forbids scripts; bypass it here so these tests prove the escaping alone.
      bypassCSP: true,
      args: [
        '--headless',
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

  afterAll(async () => {
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(
    viewport = { width: 1200, height: 900 },
  ): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage();
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, errors, requests };
  }

  it('renders with no console errors and loads nothing but itself', async () => {
    const { page, errors, requests } = await open();
    expect(await page.title()).toBe('gpu-env-doctor run on gpu-node-17.example.com: the job failed');
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await page.close();
  });

  it('shows hostile log lines as text, and none of them runs', async () => {
    const { page, errors } = await open();
    // give an <img onerror> every chance to fire
    await page.waitForTimeout(300);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('a').count()).toBe(0);
    const logText = await page.locator('ol.log').innerText();
    expect(logText).toContain('<script>window.__pwned = "script"</script>');
    expect(logText).toContain(`<img src=x onerror="window.__pwned = 'img'">`);
    expect(logText).toContain('</svg><svg onload=');
    expect(await page.locator('ol.log li').count()).toBe(33);
    // the hostile process name is text in the legend too
    expect(await page.locator('#memory ul.legend').innerText()).toContain('<img src=x onerror=window.__pwned=9>');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the charts: one bar per GPU with a segment per holder, the timeline with one point per sample', async () => {
    const { page } = await open();
    expect(await page.locator('#memory svg.bar').count()).toBe(1);
    const kinds = await page
      .locator('#memory svg.bar rect')
      .evaluateAll((rs) => rs.map((r) => r.getAttribute('data-kind')));
    expect(kinds).toEqual(['job', 'other', 'other', 'free']);
    // the bar fills its width: the segments' rendered widths add up to the bar's
    const widths = await page.locator('#memory svg.bar').evaluate((svg) => {
      const total = svg.getBoundingClientRect().width;
      const sum = [...svg.querySelectorAll('rect')].reduce((a, r) => a + r.getBoundingClientRect().width, 0);
      return { total, sum };
    });
    expect(Math.abs(widths.total - widths.sum)).toBeLessThan(3);
    const used = await page
      .locator('#timeline polyline.line-used')
      .evaluate((p) => (p as unknown as { points: { numberOfItems: number } }).points.numberOfItems);
    const job = await page
      .locator('#timeline polyline.line-job')
      .evaluate((p) => (p as unknown as { points: { numberOfItems: number } }).points.numberOfItems);
    expect(used).toBe(POINTS);
    expect(job).toBe(POINTS - 1);
    expect(await page.locator('#timeline g.failure').count()).toBe(1);
    expect(await page.locator('#timeline g.failure text').textContent()).toBe('failed');
    await page.close();
  });

  it('fits a phone screen: nothing wider than the viewport', async () => {
    const { page } = await open({ width: 375, height: 740 });
    const { scroll, client } = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(scroll).toBeLessThanOrEqual(client);
    const barWidth = await page.locator('#memory svg.bar').evaluate((s) => s.getBoundingClientRect().width);
    expect(barWidth).toBeGreaterThan(300);
    await page.close();
  });

  it('prints: the page renders as a PDF with the charts in it', async () => {
    const { page } = await open();
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#memory svg.bar').isVisible()).toBe(true);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(10000);
    await page.close();
  });
});
