// Takes screenshots of portal pages in light and dark, desktop and mobile, for looking at them.
// Usage: npx tsx e2e/scripts/screenshots.ts --url http://127.0.0.1:3000 --out /tmp/shots [--email admin@acme.example]
//        [--widths 1440,1280] [--mobile] [path ...]
// It also prints every table wider than the box that scrolls it (cut off or scrolling at that width).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    out: { type: 'string', default: 'e2e/screenshots' },
    email: { type: 'string', default: 'admin@acme.example' },
    mobile: { type: 'boolean', default: false },
    widths: { type: 'string', default: '1440' },
  },
});
const pages = positionals.length > 0 ? positionals : ['/login', '/dashboard', '/profile'];
fs.mkdirSync(values.out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const res = await fetch(`${values.url}/api/customer/auth/dev`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: values.email }),
});
const token = ((await res.json()) as { data: { token: string } }).data.token;
const viewports = [
  ...values.widths.split(',').map((w) => ({ name: `w${w}`, width: Number(w), height: 900 })),
  ...(values.mobile ? [{ name: 'mobile', width: 390, height: 844 }] : []),
];

for (const viewport of viewports) {
  for (const theme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    await context.addInitScript(
      ([keys, t, isDark]) => {
        localStorage.setItem(keys.darkMode, String(isDark));
        if (location.pathname !== '/login') {
          localStorage.setItem(keys.token, t);
        } else {
          localStorage.removeItem(keys.token);
        }
      },
      [STORAGE_KEYS, token, theme === 'dark'] as const,
    );
    const page = await context.newPage();
    for (const p of pages) {
      await page.goto(values.url + p);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await page.waitForTimeout(1500);
      const file = path.join(
        values.out,
        `${p.replace(/\W+/g, '_').replace(/^_/, '') || 'root'}-${viewport.name}-${theme}.png`,
      );
      await page.screenshot({ path: file, fullPage: true });
      const overflowing = await page.evaluate(() =>
        Array.from(document.querySelectorAll('table'))
          .map((t) => t.parentElement)
          .filter((box): box is HTMLElement => box !== null && box.scrollWidth > box.clientWidth + 1)
          .map((box) => `${box.scrollWidth}px table in a ${box.clientWidth}px box`),
      );
      console.log(file, overflowing.length > 0 ? `OVERFLOW: ${overflowing.join('; ')}` : '');
    }
    await context.close();
  }
}
await browser.close();
