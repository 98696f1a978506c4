// serve's command cell breaks a command line at its spaces (or after a hyphen), never inside a short argument ("hog.py 3|000"), at
// desktop and phone width, in headless Chromium. A token longer than the cell (a path) may still break anywhere.
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildPageModel } from '../../src/report/serve/model.js';
import { renderPage } from '../../src/report/serve/render.js';
import { NOW, sampleState } from '../serve/sample-state.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

// biome-ignore lint/suspicious/noExplicitAny: the page's DOM, typed by the browser, not by this project
declare const document: any;

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

describe.skipIf(!CHROMIUM)('serve: the command cell', () => {
  let browser: Browser;
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM!,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
  }, 60000);
  afterAll(async () => {
    await browser?.close();
  });

  it.each([1280, 900, 390])(
    'at %i px a line of the command ends at a space or inside a token wider than the cell',
    async (width) => {
      const st = sampleState();
      const s = st.good!.snapshot;
      // a real command line: a long interpreter path, a script, short arguments
      for (const p of s.processes.list)
        p.cmdline = [
          '/home/alice/.pyenv/versions/3.11.7/bin/python3',
          '/home/alice/work/hog.py',
          '3000',
          '120',
          '--steps',
          '100000',
        ];
      const html = renderPage(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), st), {
        now: NOW,
        query: '',
        refreshS: 5,
        tool: 'gpu-env-doctor 0',
        historyWindowMs: 3600_000,
      });
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
      const page = await ctx.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      const breaks = await page.evaluate(() => {
        // biome-ignore lint/suspicious/noExplicitAny: the page's own function
        const getComputedStyle = (globalThis as any).getComputedStyle;
        const out: { before: string; after: string; token: number; cell: number }[] = [];
        // biome-ignore lint/suspicious/noExplicitAny: DOM nodes, typed by the browser
        const cells: Array<{ firstChild: any; clientWidth: number }> = Array.from(document.querySelectorAll('td.cmd'));
        for (const td of cells) {
          const node = td.firstChild;
          if (node?.nodeType !== 3) continue;
          const text = node.textContent ?? '';
          const r = document.createRange();
          let top: number | null = null;
          for (let i = 0; i < text.length; i++) {
            r.setStart(node, i);
            r.setEnd(node, i + 1);
            const rect = r.getClientRects()[0];
            if (!rect) continue;
            if (top !== null && rect.top > top + 2) {
              // the token the break falls in, and how wide it would be whole
              const start = text.lastIndexOf(' ', i - 1) + 1;
              const end = text.indexOf(' ', i) === -1 ? text.length : text.indexOf(' ', i);
              // its width whole: the sum of its characters (its box would span both lines once broken)
              let w = 0;
              for (let k = start; k < end; k++) {
                r.setStart(node, k);
                r.setEnd(node, k + 1);
                w += r.getBoundingClientRect().width;
              }
              out.push({
                before: text[i - 1]!,
                after: text[i]!,
                token: w,
                cell:
                  td.clientWidth -
                  Number.parseFloat(getComputedStyle(td).paddingLeft) -
                  Number.parseFloat(getComputedStyle(td).paddingRight),
              });
            }
            top = rect.top;
          }
        }
        return out;
      });
      await ctx.close();
      // a space, or after a hyphen (a break the browser allows in any text), else only inside a token too wide
      for (const b of breaks)
        if (b.before !== ' ' && b.after !== ' ' && b.before !== '-')
          expect(b.token, JSON.stringify(b)).toBeGreaterThan(b.cell);
    },
    60000,
  );
});
