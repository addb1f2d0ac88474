import { expect, test } from '@playwright/test';
import type { Locator, Page, Response } from '@playwright/test';
import type {
  ActivityLogResponse,
  ActivityOverviewPage,
  DeviceActivityRow,
  WeeklySummaryResponse,
} from '@outpost/contract/activity';
import { activityMessages, deviceLabel, utilizationBand } from '@outpost/contract/activity';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { apiGet } from '../devices/api';

// docs/product/activity.md#device-activity-overview Device activity, #utilisation; docs/product/devices.md#device-detail, Device Activity tab.
// The page asks the server for one page at a time (docs/decisions/2026-11-26-device-activity-overview.md). The demo
// fleet keeps logging in and out, so each expectation is computed from the very answer the page
// received for it (its own response), not from a second read.

const OVERVIEW_PATH = '/api/customer/device-activity/overview';
const isOverview = (url: URL) => url.pathname === OVERVIEW_PATH;

/** The next overview answer whose arguments include `params`. */
function nextAnswer(page: Page, params: Record<string, string> = {}): Promise<ActivityOverviewPage> {
  return page
    .waitForResponse((r: Response) => {
      const url = new URL(r.url());
      return isOverview(url) && Object.entries(params).every(([k, v]) => url.searchParams.get(k) === v);
    })
    .then(async (r) => ((await r.json()) as { data: ActivityOverviewPage }).data);
}

async function openOverview(page: Page): Promise<ActivityOverviewPage> {
  const answer = nextAnswer(page, { page: '1', limit: '50', sort: 'utilization_30d', order: 'desc' });
  await page.goto('/device-activity');
  const first = await answer;
  await expect(page.getByRole('heading', { name: 'Device Utilization Overview' })).toBeVisible();
  return first;
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

/** The table shows exactly the answer's rows, in its order. */
async function expectTableOf(page: Page, answer: ActivityOverviewPage) {
  await expect(bodyRows(page)).toHaveCount(answer.data.length);
  expect(await names(page)).toEqual(answer.data.map(deviceLabel));
}

test('the overview sorts by 30-day utilisation on the server, toggles the active column and sorts a new one descending', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const first = await openOverview(page);
  expect(first.summary.total_devices, 'the demo fleet reports activity').toBeGreaterThan(5);
  await expectTableOf(page, first);
  await expect(columnHeader(page, '30 Days')).toHaveAttribute('aria-sort', 'descending');
  expect(isSorted(await columnValues(page, 6), (a, b) => b - a)).toBe(true);
  // one page of the demo fleet: the pager hides
  expect(first.pagination.totalPages).toBe(1);
  await expect(page.getByRole('navigation', { name: 'Device pages' })).toHaveCount(0);

  // [column, sort parameter, direction, the column's cell index (null: the device name)]
  const sorts: [string, string, 'asc' | 'desc', number | null][] = [
    ['30 Days', 'utilization_30d', 'asc', 6],
    ['Device', 'device', 'desc', null],
    ['Device', 'device', 'asc', null],
    ['7 Days', 'utilization_7d', 'desc', 4],
  ];
  for (const [column, sort, order, index] of sorts) {
    const answer = nextAnswer(page, { sort, order, page: '1' });
    await sortButton(page, column).click();
    await expectTableOf(page, await answer);
    await expect(columnHeader(page, column)).toHaveAttribute(
      'aria-sort',
      order === 'asc' ? 'ascending' : 'descending',
    );
    const sign = order === 'asc' ? 1 : -1;
    if (index === null) {
      expect(isSorted(await names(page), (a, b) => sign * compareText(a, b))).toBe(true);
    } else {
      expect(isSorted(await columnValues(page, index), (a, b) => sign * (a - b))).toBe(true);
    }
  }
  await expect(columnHeader(page, '30 Days')).toHaveAttribute('aria-sort', 'none');

  const bySessions = nextAnswer(page, { sort: 'sessions', order: 'desc' });
  await sortButton(page, 'Sessions Today').click();
  await expectTableOf(page, await bySessions);
  await expect(columnHeader(page, 'Sessions Today')).toHaveAttribute('aria-sort', 'descending');
  const sessions = (await bodyRows(page).locator('td:nth-child(3)').allTextContents()).map(Number);
  expect(isSorted(sessions, (a, b) => b - a)).toBe(true);

  // the device name links to its page
  const named = first.data.find((r) => r.device_name)!;
  await page.getByRole('link', { name: named.device_name!, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${named.device_guid}$`));
});

test('search, the utilisation filter and the sessions filter are applied by the server and combine; Clear Filters resets them', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const first = await openOverview(page);
  const showing = page.getByTestId('counter-Showing');
  const total = page.getByTestId('counter-Total Devices');
  await expect(total).toHaveText(String(first.summary.total_devices));
  await expect(showing).toHaveText(String(first.pagination.total));
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);

  // the site with the most devices, searched in another case
  const perSite = new Map<string, number>();
  for (const r of first.data) {
    if (r.site_name) {
      perSite.set(r.site_name, (perSite.get(r.site_name) ?? 0) + 1);
    }
  }
  const [site] = [...perSite].sort((a, b) => b[1] - a[1])[0]!;
  const matchesSite = (r: DeviceActivityRow) =>
    r.site_name === site || deviceLabel(r).toLowerCase().includes(site.toLowerCase());
  let answer = nextAnswer(page, { search: site.toUpperCase(), page: '1' });
  await page.getByPlaceholder('Search devices or sites...').fill(site.toUpperCase());
  let bySite = await answer;
  expect(bySite.data.length).toBeGreaterThan(0);
  expect(bySite.data.every(matchesSite)).toBe(true);
  await expect(showing).toHaveText(String(bySite.pagination.total));
  await expectTableOf(page, bySite);
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeVisible();
  // the counters and cards describe the whole fleet
  await expect(total).toHaveText(String(bySite.summary.total_devices));

  answer = nextAnswer(page, { utilization: 'low' });
  await page.getByRole('combobox', { name: 'Utilization' }).selectOption({ label: 'Low (<40%)' });
  bySite = await answer;
  expect(bySite.data.every((r) => matchesSite(r) && utilizationBand(r.utilization_30d) === 'low')).toBe(true);
  await expect(showing).toHaveText(String(bySite.pagination.total));

  answer = nextAnswer(page, { utilization: 'low', sessions: 'inactive' });
  await page.getByRole('combobox', { name: 'Sessions' }).selectOption({ label: 'Inactive Today' });
  const all3 = await answer;
  expect(
    all3.data.every(
      (r) => matchesSite(r) && utilizationBand(r.utilization_30d) === 'low' && r.login_sessions_today === 0,
    ),
  ).toBe(true);
  await expect(showing).toHaveText(String(all3.pagination.total));
  if (all3.data.length === 0) {
    await expect(page.getByText(activityMessages.noMatchingDevices)).toBeVisible();
    await expect(page.getByText(activityMessages.noMatchHint)).toBeVisible();
  } else {
    await expectTableOf(page, all3);
  }

  // a device name, then nothing at all
  const device = first.data.find((r) => r.device_name)!;
  answer = nextAnswer(page, { page: '1' });
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  const cleared = await answer;
  await expect(showing).toHaveText(String(cleared.summary.total_devices));
  await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
  await page.getByPlaceholder('Search devices or sites...').fill(device.device_name!.toLowerCase());
  await expect(table(page).getByRole('link', { name: device.device_name!, exact: true })).toBeVisible();
  answer = nextAnswer(page, { search: 'no-such-device-anywhere' });
  await page.getByPlaceholder('Search devices or sites...').fill('no-such-device-anywhere');
  expect((await answer).pagination.total).toBe(0);
  await expect(page.getByText(activityMessages.noMatchingDevices)).toBeVisible();
  await expect(page.getByText(activityMessages.noMatchHint)).toBeVisible();
  await expect(showing).toHaveText('0');
  answer = nextAnswer(page);
  await page.getByRole('button', { name: 'Clear All Filters' }).click();
  await expectTableOf(page, await answer);
  await expect(page.getByPlaceholder('Search devices or sites...')).toHaveValue('');
});

test('Refresh asks the server again for the same page', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await openOverview(page);
  const again = nextAnswer(page, { page: '1', sort: 'utilization_30d', order: 'desc' });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expectTableOf(page, await again);
});

test('a failed load shows the error panel with the server text, and Try Again loads the page', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  await page.route(isOverview, (route) =>
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
  await page.unroute(isOverview);
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
