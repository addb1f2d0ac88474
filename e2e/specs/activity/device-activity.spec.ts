import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import type {
  ActivityLogResponse,
  DeviceActivityRow,
  WeeklySummaryResponse,
} from '@outpost/contract/activity';
import { activityMessages, utilizationBand } from '@outpost/contract/activity';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { apiGet } from '../devices/api';

// spec: operations §2.11 Device activity, §4, §8; core §2 Device detail, Device Activity tab.
// The demo fleet keeps logging in and out, so the overview's expectations are computed from the
// very rows the page loaded (its own response), not from a second read.

const OVERVIEW = '**/api/customer/device-activity/overview';

async function openOverview(page: Page): Promise<DeviceActivityRow[]> {
  const response = page.waitForResponse((r) => r.url().endsWith('/api/customer/device-activity/overview'));
  await page.goto('/device-activity');
  const rows = ((await (await response).json()) as { data: DeviceActivityRow[] }).data;
  await expect(page.getByRole('heading', { name: 'Device Utilization Overview' })).toBeVisible();
  return rows;
}

const table = (page: Page) => page.getByRole('table', { name: 'Device Utilization Overview' });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const sortButton = (page: Page, name: string) => table(page).getByRole('button', { name, exact: true });
const columnHeader = (page: Page, name: string) =>
  table(page)
    .getByRole('columnheader')
    .filter({ has: page.getByRole('button', { name, exact: true }) });

const percentIn = (cell: Locator) =>
  cell
    .locator('span')
    .last()
    .textContent()
    .then((t) => Number.parseFloat(t ?? ''));

async function columnValues(page: Page, index: number): Promise<number[]> {
  const cells = bodyRows(page).locator(`td:nth-child(${index})`);
  const values: number[] = [];
  for (const cell of await cells.all()) {
    values.push(await percentIn(cell));
  }
  return values;
}
const names = (page: Page) => bodyRows(page).locator('td:first-child').allTextContents();
const compareText = (a: string, b: string) =>
  a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
const isSorted = <T>(values: T[], cmp: (a: T, b: T) => number) =>
  values.every((v, i) => i === 0 || cmp(values[i - 1]!, v) <= 0);
const label = (r: DeviceActivityRow) => r.device_name || `Device ${r.agent_id}`;

test('the overview sorts by 30-day utilisation, toggles the active column and sorts a new one descending', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const rows = await openOverview(page);
  expect(rows.length, 'the demo fleet reports activity').toBeGreaterThan(5);
  await expect(bodyRows(page)).toHaveCount(rows.length);

  await expect(columnHeader(page, '30 Days')).toHaveAttribute('aria-sort', 'descending');
  expect(isSorted(await columnValues(page, 6), (a, b) => b - a)).toBe(true);

  await sortButton(page, '30 Days').click();
  await expect(columnHeader(page, '30 Days')).toHaveAttribute('aria-sort', 'ascending');
  expect(isSorted(await columnValues(page, 6), (a, b) => a - b)).toBe(true);

  await sortButton(page, 'Device').click();
  await expect(columnHeader(page, 'Device')).toHaveAttribute('aria-sort', 'descending');
  await expect(columnHeader(page, '30 Days')).toHaveAttribute('aria-sort', 'none');
  expect(isSorted(await names(page), (a, b) => compareText(b, a))).toBe(true);

  await sortButton(page, 'Device').click();
  await expect(columnHeader(page, 'Device')).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await names(page);
  expect(isSorted(ascending, compareText)).toBe(true);
  expect([...ascending].sort(compareText)).toEqual(rows.map(label).sort(compareText));

  await sortButton(page, '7 Days').click();
  await expect(columnHeader(page, '7 Days')).toHaveAttribute('aria-sort', 'descending');
  expect(isSorted(await columnValues(page, 4), (a, b) => b - a)).toBe(true);

  await sortButton(page, 'Sessions Today').click();
  await expect(columnHeader(page, 'Sessions Today')).toHaveAttribute('aria-sort', 'descending');
  const sessions = (await bodyRows(page).locator('td:nth-child(3)').allTextContents()).map(Number);
  expect(isSorted(sessions, (a, b) => b - a)).toBe(true);

  // the device name links to its page
  const first = rows.find((r) => r.device_name)!;
  await page.getByRole('link', { name: first.device_name!, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${first.device_guid}$`));
});

test('search, the utilisation filter and the sessions filter combine; Clear Filters resets them', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const rows = await openOverview(page);
  const showing = page.getByTestId('counter-Showing');
  await expect(page.getByTestId('counter-Total Devices')).toHaveText(String(rows.length));
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);

  // the site with the most devices, searched in another case
  const perSite = new Map<string, number>();
  for (const r of rows) {
    if (r.site_name) {
      perSite.set(r.site_name, (perSite.get(r.site_name) ?? 0) + 1);
    }
  }
  const [site] = [...perSite].sort((a, b) => b[1] - a[1])[0]!;
  const bySite = rows.filter((r) => r.site_name === site);
  await page.getByPlaceholder('Search devices or sites...').fill(site.toUpperCase());
  await expect(showing).toHaveText(String(bySite.length));
  await expect(bodyRows(page)).toHaveCount(bySite.length);
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Utilization' }).selectOption({ label: 'Low (<40%)' });
  const lowAtSite = bySite.filter((r) => utilizationBand(r.utilization_30d) === 'low');
  await expect(showing).toHaveText(String(lowAtSite.length));

  await page.getByRole('combobox', { name: 'Sessions' }).selectOption({ label: 'Inactive Today' });
  const all3 = lowAtSite.filter((r) => r.login_sessions_today === 0);
  await expect(showing).toHaveText(String(all3.length));
  if (all3.length === 0) {
    await expect(page.getByText(activityMessages.noMatchingDevices)).toBeVisible();
    await expect(page.getByText(activityMessages.noMatchHint)).toBeVisible();
  } else {
    await expect(bodyRows(page)).toHaveCount(all3.length);
    for (const r of all3) {
      await expect(table(page).getByRole('link', { name: label(r), exact: true })).toBeVisible();
    }
  }

  // a device name, then nothing at all
  const device = rows.find((r) => r.device_name)!;
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(showing).toHaveText(String(rows.length));
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
  await page.getByPlaceholder('Search devices or sites...').fill(device.device_name!.toLowerCase());
  await expect(table(page).getByRole('link', { name: device.device_name!, exact: true })).toBeVisible();
  await page.getByPlaceholder('Search devices or sites...').fill('no-such-device-anywhere');
  await expect(page.getByText(activityMessages.noMatchingDevices)).toBeVisible();
  await expect(page.getByText(activityMessages.noMatchHint)).toBeVisible();
  await page.getByRole('button', { name: 'Clear All Filters' }).click();
  await expect(bodyRows(page)).toHaveCount(rows.length);
  await expect(page.getByPlaceholder('Search devices or sites...')).toHaveValue('');
});

test('a failed load shows the error panel with the server text, and Try Again loads the page', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  await page.route(OVERVIEW, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, error: 'Activity store is restarting' }),
    }),
  );
  await page.goto('/device-activity');
  const alert = page.getByRole('alert');
  await expect(alert.getByText(activityMessages.overviewErrorTitle)).toBeVisible();
  await expect(alert.getByText('Activity store is restarting')).toBeVisible();
  await page.unroute(OVERVIEW);
  await alert.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { name: 'Device Utilization Overview' })).toBeVisible();
});

test('the device Activity tab shows the 12-hour chart, the weekly table and the log', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const overview = await apiGet<DeviceActivityRow[]>(
    page.request,
    session.token,
    '/api/customer/device-activity/overview',
  );
  const device = overview.find((r) => r.login_sessions_today > 0) ?? overview[0]!;
  const weekly = await apiGet<WeeklySummaryResponse>(
    page.request,
    session.token,
    `/api/customer/device-activity/device/${device.device_guid}/weekly-summary`,
  );
  await page.goto(`/devices/${device.device_guid}?tab=activity`);

  const chart = page.getByRole('list', { name: 'Hourly activity, last 12 hours' });
  await expect(chart.getByRole('listitem')).toHaveCount(12);
  await expect(chart.getByRole('listitem').last()).toHaveAttribute('data-slot-state', 'current');
  await expect(chart.getByRole('listitem').last().getByText('Now')).toBeVisible();
  await expect(chart.locator('[data-slot-state="past"]')).toHaveCount(11);

  const summary = page.getByRole('table', { name: '7-day login summary' });
  await expect(summary.getByRole('columnheader')).toHaveText(['Day', 'Sessions', 'Hours Logged In']);
  await expect(summary.locator('tbody tr')).toHaveCount(7);
  for (const [i, day] of weekly.entries()) {
    await expect(summary.locator('tbody tr').nth(i)).toContainText(day.day_name);
    await expect(summary.locator('tbody tr').nth(i)).toContainText(day.activity_date);
  }
  await expect(summary.locator('tbody tr').last()).toContainText('Today');

  const log = page.getByRole('region', { name: 'Recent activity log' });
  await expect(log.locator('tbody tr').first()).toBeVisible();
  const entries = await apiGet<ActivityLogResponse>(
    page.request,
    session.token,
    `/api/customer/device-activity/device/${device.device_guid}?days=7`,
  );
  const withSession = entries.find((e) => e.session_id && e.session_id.length > 8);
  if (withSession) {
    await expect(log.getByText(withSession.session_id!.slice(0, 8), { exact: true }).first()).toBeVisible();
  }
  for (const text of await log.locator('tbody tr td:last-child').allTextContents()) {
    expect(text.length).toBeLessThanOrEqual(8);
  }
});
