// Takes screenshots of portal pages in light and dark, desktop and mobile, for looking at them.
// Usage: npx tsx e2e/scripts/screenshots.ts --url http://127.0.0.1:3000 --out /tmp/shots [--email admin@acme.example] [path ...]
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
const viewports = values.mobile
  ? [
      { name: 'desktop', width: 1440, height: 900 },
      { name: 'mobile', width: 390, height: 844 },
    ]
  : [{ name: 'desktop', width: 1440, height: 900 }];

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
      console.log(file);
    }
    await context.close();
  }
}
await browser.close();
