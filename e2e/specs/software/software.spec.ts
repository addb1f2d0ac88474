import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import type { DeviceListResponse } from '@outpost/contract/devices';
import { apiGet } from '../devices/api';

// docs/product/device-sets.md#fleet-software and #exports: the fleet's software with a title's
// devices, and the device list exported as CSV (the demo's simulated fleet reports software).

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) {
    return;
  }
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(([key, isDark]) => localStorage.setItem(key, String(isDark)), [
      STORAGE_KEYS.darkMode,
      theme === 'dark',
    ] as const);
    for (const [size, viewport] of [
      ['1440', { width: 1440, height: 900 }],
      ['390', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.reload();
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${dir}/${name}-${size}-${theme}.png`, fullPage: true });
    }
  }
  await page.evaluate((key) => localStorage.setItem(key, 'false'), STORAGE_KEYS.darkMode);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** RFC 4180 records of a CSV file (quotes undone, the byte order mark dropped). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  return records;
}

test('the Software page lists the fleet’s titles and opens a title’s devices', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/dashboard');
  await page.getByRole('navigation').getByRole('link', { name: 'Software' }).click();
  await expect(page).toHaveURL(/\/software$/);
  await expect(page.getByRole('heading', { name: 'Software', exact: true })).toBeVisible();
  // the simulated fleet reports its inventory shortly after the demo starts
  await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'software');

  // the list keeps the previous order on screen until the sorted one arrives: read the first
  // title from that answer, then wait for the table to show it
  const [sorted] = await Promise.all([
    page.waitForResponse(
      (r) => /\/api\/customer\/software\?/.test(r.url()) && r.url().includes('sort=devices'),
    ),
    page.getByLabel('Sort').selectOption('devices'),
  ]);
  const name = ((await sorted.json()) as { data: { data: { name: string }[] } }).data.data[0]!.name;
  const firstTitle = page.locator('tbody tr').first().getByRole('link').first();
  await expect(firstTitle).toHaveText(name);
  await firstTitle.click();
  await expect(page).toHaveURL(/\/software\/title\?name=/);
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  const device = page.locator('tbody tr').first().getByRole('link').first();
  await expect(device).toBeVisible();
  await shoot(page, 'software-title');
  await device.click();
  await expect(page).toHaveURL(/\/devices\/[0-9a-f-]{36}/);
});

test('the device list exports the devices as CSV', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const list = await apiGet<DeviceListResponse>(
    page.request,
    session.token,
    '/api/customer/devices?limit=20',
  );
  const known = list.data.find((d) => d.hostname)!;
  await page.goto('/devices');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^devices-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await fs.readFile(await download.path(), 'utf8');
  const [header, ...rows] = parseCsv(text);
  expect(header!.slice(0, 4)).toEqual(['Hostname', 'Device ID', 'Status', 'OS']);
  expect(rows).toHaveLength(list.pagination.total);
  const row = rows.find((r) => r[1] === known.device_guid);
  expect(row?.[0]).toBe(known.hostname);
});
