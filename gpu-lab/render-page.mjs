// Renders a page saved by gpu-lab/serve.sh to screenshots, here (the GPU machine has no browser): desktop and
// phone width, with JavaScript off (the page is complete without it; its live updates need its server).
//   node gpu-lab/render-page.mjs OUT/page-before.html docs/evidence/h200-serve
// writes docs/evidence/h200-serve-desktop.png and docs/evidence/h200-serve-phone.png
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [html, prefix] = process.argv.slice(2);
if (!html || !prefix) {
  console.error('usage: node gpu-lab/render-page.mjs PAGE.html OUTPUT-PREFIX');
  process.exit(2);
}
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!executablePath) {
  console.error('chromium is not installed (apt-get install chromium)');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const [name, width] of [
  ['desktop', 1200],
  ['phone', 390],
]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
  await page.screenshot({ path: `${prefix}-${name}.png`, fullPage: true });
  console.log(`wrote ${prefix}-${name}.png`);
  await ctx.close();
}
await browser.close();
