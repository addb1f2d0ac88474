import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { wireAgent } from '../../fixtures/wire-agent';

// every agent a test connects goes away after it: a connected agent that never runs deployments
// must not be picked by the deployment specs that follow
const connected: { close(): void }[] = [];
const connect = async (...args: Parameters<typeof wireAgent>) => {
  const agent = await wireAgent(...args);
  connected.push(agent);
  return agent;
};
test.afterEach(() => {
  for (const agent of connected.splice(0)) {
    agent.close();
  }
});

// docs/product/monitoring.md#the-alerts-page: an agent that restarts after a crash opens an alert;
// it appears on the Alerts page and in the dashboard's Open Alerts without a reload, is
// acknowledged with a note, and several are acknowledged at once. Routing rules are created and
// listed; maintenance mode is set on a device and ended (#maintenance-mode).

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const crashed = (reason: string) => ({ restartedAfterCrash: { at: new Date().toISOString(), reason } });

async function axe(page: Page) {
  // judged at rest: a dialog's fade-in is waited for (endless animations such as a spinner are not)
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  }
}

/** Resolves once the portal socket has subscribed to the alerts (so no update is missed). */
function alertsSubscribed(page: Page): Promise<unknown> {
  return page.waitForEvent('websocket').then((ws) =>
    ws.waitForEvent('framereceived', {
      predicate: (f) => String(f.payload).includes('"subscribed"') && String(f.payload).includes('"alerts"'),
    }),
  );
}

/** The Open Alerts tile's open total (critical + warning + info). */
async function tileTotal(page: Page): Promise<number> {
  const values = await page.getByTestId('open-alerts-tile').locator('[data-severity] dd').allTextContents();
  return values.reduce((sum, v) => sum + Number(v), 0);
}

test('a crashed agent’s alert appears live on the Alerts page and the dashboard, and is acknowledged with a note', async ({
  page,
}) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const hostname = unique('crashy');
  const subscribed = alertsSubscribed(page);
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
  await subscribed;

  const agent = await connect(page.request, session.token, hostname, {}, crashed('Segmentation fault'));
  const row = page.getByTestId('alert-row').filter({ hasText: hostname });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toHaveAttribute('data-state', 'open');
  await axe(page);
  await shoot(page, 'alerts-1440-light');

  await row.getByRole('button', { name: /^View / }).click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByTestId('alert-detail')).toContainText(hostname);
  await expect(detail.getByText('First seen')).toBeVisible();
  await axe(page);
  await detail.getByLabel('Note').fill('Looking into the crash dump');
  await detail.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByText('Alert acknowledged')).toBeVisible();
  await expect(detail.locator('blockquote')).toHaveText('Looking into the crash dump');
  await expect(detail.getByText(/^Acknowledged by /)).toBeVisible();
  await detail.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(row).toHaveAttribute('data-state', 'acknowledged');

  // the device link filters the list to the device
  await page.goto(`/alerts?device=${agent.guid}`);
  await expect(page.getByTestId('alert-row')).toHaveCount(1);
  await expect(page.getByText(`Device: ${hostname}`)).toBeVisible();

  // the dashboard tile counts a new one without a reload
  const resubscribed = alertsSubscribed(page);
  await page.goto('/dashboard');
  const tile = page.getByTestId('open-alerts-tile');
  await expect(tile.locator('[data-severity]')).toHaveCount(3);
  await resubscribed;
  await expect(page.getByTestId('open-alerts-tile').getByLabel(/^Loading/)).toHaveCount(0);
  const before = await tileTotal(page);
  await connect(page.request, session.token, unique('crashy'), {}, crashed('Out of memory'));
  await expect.poll(() => tileTotal(page), { timeout: 20_000 }).toBe(before + 1);
  await expect(page.getByTestId('nav-alerts-badge').first()).toBeVisible();
  await shoot(page, 'dashboard-1440-light');
});

test('several open alerts are acknowledged at once with a note', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const tag = unique('bulk');
  await connect(page.request, session.token, `${tag}-a`, {}, crashed('Crash A'));
  await connect(page.request, session.token, `${tag}-b`, {}, crashed('Crash B'));
  await page.goto('/alerts?state=open');
  const rows = page.getByTestId('alert-row').filter({ hasText: tag });
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  for (const row of await rows.all()) {
    await row.getByRole('checkbox').check();
  }
  const bar = page.getByTestId('bulk-bar');
  await expect(bar).toContainText('2 alerts selected');
  await bar.getByRole('button', { name: 'Acknowledge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Acknowledge 2 alerts' });
  await dialog.getByLabel('Note').fill('Known crash loop, vendor ticket open');
  await dialog.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByText('2 alerts acknowledged')).toBeVisible();
  // acknowledged alerts leave the Open state
  await expect(rows).toHaveCount(0);
  await page.getByRole('radio', { name: 'Acknowledged' }).click();
  await expect(page.getByTestId('alert-row').filter({ hasText: tag })).toHaveCount(2);
});

test('a routing rule is created and listed', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const channel = unique('Rule hook');
  const created = await page.request.post('/api/customer/notification-channels', {
    headers: { authorization: `Bearer ${session.token}` },
    data: { kind: 'webhook', name: channel, config: { url: 'http://127.0.0.1:9/outpost' } },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/notification-channels?tab=routing');
  const section = page.getByTestId('routing-rules');
  await expect(
    section.getByText(/Without rules, every enabled channel hears warning and critical alerts/),
  ).toBeVisible();
  await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
  await axe(page);

  const name = unique('Critical to on-call');
  await section.getByRole('button', { name: 'New rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New routing rule' });
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await expect(dialog.getByText('Choose at least one channel')).toBeVisible();
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Warning').uncheck();
  await dialog.getByLabel('Agent crashed').check();
  await dialog.getByLabel(channel).check();
  await axe(page);
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('route-row').filter({ hasText: name });
  await expect(row).toContainText('Critical');
  await expect(row).toContainText('Agent crashed');
  await expect(row).toContainText('All devices');
  await expect(row).toContainText(channel);
  await shoot(page, 'routing-1440-light');
});

test('maintenance mode is set on a device and ended', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const hostname = unique('maint');
  const agent = await connect(page.request, session.token, hostname);
  await page.goto(`/devices/${agent.guid}`);
  await expect(page.getByRole('heading', { name: hostname, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Maintenance', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Maintenance mode: ${hostname}` });
  await dialog.getByRole('radio', { name: '4 hours' }).click();
  await dialog.getByLabel('Reason').fill('Replacing the disk');
  await axe(page);
  await dialog.getByRole('button', { name: 'Start maintenance' }).click();
  const banner = page.getByTestId('maintenance-banner');
  await expect(banner).toContainText('In maintenance until');
  await expect(banner).toContainText('Replacing the disk');
  await shoot(page, 'device-maintenance-1440-light');
  await banner.getByRole('button', { name: 'End maintenance' }).click();
  await expect(page.getByText('Maintenance ended')).toBeVisible();
  await expect(banner).toBeHidden();
  await expect(page.getByRole('button', { name: 'Maintenance', exact: true })).toBeVisible();
});

test('an administrator puts a site in maintenance from the Sites page; its devices say so', async ({
  page,
}) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const h = { authorization: `Bearer ${session.token}` };
  const created = await page.request.post('/api/customer/sites', {
    headers: h,
    data: {
      site_name: unique('Maint site'),
      site_code: `M${Date.now().toString(36).slice(-4).toUpperCase()}`,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const site = ((await created.json()) as { data: { id: number; site_name: string } }).data;
  const agent = await connect(page.request, session.token, unique('site-dev'), { siteId: site.id });
  await page.goto('/sites');
  await page.getByRole('searchbox', { name: 'Search' }).fill(site.site_name);
  await page.getByRole('button', { name: `Maintenance mode of ${site.site_name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Maintenance mode: ${site.site_name}` });
  await dialog.getByRole('radio', { name: '30 min' }).click();
  await dialog.getByRole('button', { name: 'Start maintenance' }).click();
  await expect(page.getByText('Maintenance mode on')).toBeVisible();
  await page.goto(`/devices/${agent.guid}`);
  await expect(page.getByTestId('maintenance-banner')).toContainText('Site in maintenance until');
  await expect(page.getByRole('button', { name: 'End maintenance' })).toHaveCount(0);
  await page.goto('/sites');
  await page.getByRole('searchbox', { name: 'Search' }).fill(site.site_name);
  await page.getByRole('button', { name: `Maintenance mode of ${site.site_name}` }).click();
  const banner = page.getByRole('dialog').getByTestId('maintenance-banner');
  await expect(banner).toContainText('Site in maintenance until');
  await banner.getByRole('button', { name: 'End maintenance' }).click();
  await expect(page.getByText('Maintenance ended')).toBeVisible();
});
