// The user guide's rollout pictures (docs/user-guide.md "Rollouts in waves", "Maintenance
// windows"), taken from a running demo (`npm start`): the deploy dialog's Rollout section turned
// on with three waves, the halted rollout's card, and the first site's maintenance windows.
// Usage: npx tsx e2e/scripts/guide-screenshots.ts --url http://127.0.0.1:3000 --out /tmp/shots
//        [--docs docs/screenshots] [--email admin@acme.example]
// Every picture is taken at 1440 px (cropped to its card or dialog) and 390 px (the screen), light
// and dark, into --out; with --docs the 1440 px light ones are also written there under the
// guide's names.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { ListData } from '@outpost/contract/envelope';
import { STORAGE_KEYS } from '@outpost/contract/limits';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    out: { type: 'string', default: 'e2e/screenshots/guide' },
    docs: { type: 'string' },
    email: { type: 'string', default: 'admin@acme.example' },
  },
});
fs.mkdirSync(values.out, { recursive: true });

const res = await fetch(`${values.url}/api/customer/auth/dev`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: values.email }),
});
const token = ((await res.json()) as { data: { token: string } }).data.token;

async function api<T>(p: string): Promise<T> {
  const r = await fetch(`${values.url}/api/customer${p}`, { headers: { authorization: `Bearer ${token}` } });
  if (!r.ok) {
    throw new Error(`GET ${p}: ${r.status} ${await r.text()}`);
  }
  return ((await r.json()) as { data: T }).data;
}

const jobs = await api<ListData<DeploymentJob>>('/deployments?limit=100');
const halted = jobs.data.find((j) => j.rollout_state === 'halted');
const groups = await api<{ data: { id: number; name: string }[] }>('/groups');
const ring = groups.data.find((g) => g.name === 'Pilot ring') ?? groups.data[0];
const packages = await api<{ data: { name: string; target_os: string }[] }>('/deployment-packages?limit=20');
const windowsPackage = packages.data.find((p) => p.target_os === 'windows') ?? packages.data[0];
if (!halted || !ring || !windowsPackage) {
  throw new Error('the demo has no halted rollout, group or package: start it fresh with `npm start`');
}

/** Waits until the page has settled (no spinner) and the fonts are in. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .getByLabel(/^Loading/)
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await page.waitForTimeout(600);
}

/** The deploy dialog from the pilot ring's page, a package chosen, the Rollout section on. */
async function rolloutDialog(page: Page): Promise<Locator> {
  await page.goto(`${values.url}/groups/${ring!.id}`);
  await settle(page);
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const deploy = page.getByRole('dialog', { name: 'Deploy Package' });
  const chooser = deploy.getByRole('group', { name: 'Packages' });
  await chooser.getByRole('searchbox').fill(windowsPackage!.name);
  await chooser
    .getByRole('list', { name: 'Available packages' })
    .getByRole('checkbox', { name: windowsPackage!.name })
    .check();
  await chooser.getByRole('button', { name: 'Add', exact: true }).click();
  const section = deploy.getByRole('region', { name: 'Rollout' });
  await section.getByRole('button', { name: /Rollout/ }).click();
  await section.getByRole('switch', { name: 'Deploy in waves' }).click();
  const soak = section.getByLabel('Soak time (minutes)');
  await soak.fill('30');
  await soak.blur();
  await section.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  return section;
}

async function haltedCard(page: Page): Promise<Locator> {
  await page.goto(`${values.url}/deployments/${halted!.id}`);
  await settle(page);
  const card = page.getByTestId('rollout-card');
  await card.waitFor();
  return card;
}

async function siteWindows(page: Page): Promise<Locator> {
  await page.goto(`${values.url}/sites`);
  await settle(page);
  await page.getByRole('button', { name: 'Maintenance windows of Headquarters' }).click();
  const dialog = page.getByRole('dialog', { name: /^Maintenance windows · / });
  await dialog.getByTestId('maintenance-window').first().waitFor();
  await page.waitForTimeout(300);
  return dialog;
}

const shots: [string, (page: Page) => Promise<Locator>][] = [
  ['rollout-dialog', rolloutDialog],
  ['rollout-halted', haltedCard],
  ['maintenance-windows', siteWindows],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const viewport of [
  { width: 1440, height: 1100 },
  { width: 390, height: 844 },
]) {
  for (const theme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    await context.addInitScript(
      ([keys, t, isDark]) => {
        localStorage.setItem(keys.darkMode, String(isDark));
        localStorage.setItem(keys.token, t);
      },
      [STORAGE_KEYS, token, theme === 'dark'] as const,
    );
    const page = await context.newPage();
    for (const [name, open] of shots) {
      const region = await open(page);
      const file = path.join(values.out, `${name}-${viewport.width}-${theme}.png`);
      // on a phone the dialogs fill the screen: the screen, scrolled to the region, is the picture
      await region.scrollIntoViewIfNeeded();
      await (viewport.width < 640 ? page : region).screenshot({ path: file });
      if (values.docs && viewport.width === 1440 && theme === 'light') {
        fs.copyFileSync(file, path.join(values.docs, `${name}.png`));
      }
      console.log(file);
    }
    await context.close();
  }
}
await browser.close();
