import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import type { SoftwareListResponse } from '@outpost/contract/devices';
import { apiGet, getDevice, listDevices, onlineDevices, softwareTotal } from './api';

// docs/product/devices.md#device-detail, #services.

test('software search paginates, 50 per page', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const devices = await listDevices(page.request, session.token);
  let target = null as (typeof devices)[number] | null;
  for (const d of devices) {
    if ((await softwareTotal(page.request, session.token, d.device_guid)) > 100) {
      target = d;
      break;
    }
  }
  expect(target, 'the demo has a developer workstation with a long software list').not.toBeNull();
  await page.goto(`/devices/${target!.device_guid}?tab=software`);
  await expect(page.getByText(/Page 1 of 3/)).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(50);
  await page.getByRole('navigation', { name: 'Software pages' }).getByRole('button', { name: '3' }).click();
  await expect(page.getByText(/Page 3 of 3/)).toBeVisible();
  const vc = (
    await apiGet<SoftwareListResponse>(
      page.request,
      session.token,
      `/api/customer/devices/${target!.device_guid}/software?search=${encodeURIComponent('Visual C++')}`,
    )
  ).total;
  await page.getByRole('searchbox', { name: 'Search software' }).fill('Visual C++');
  await expect(page.getByText(`${vc} titles`)).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(vc);
  for (const text of await page.locator('tbody tr td:first-child').allTextContents()) {
    expect(text).toContain('Visual C++');
  }
  await expect(page.getByText(/Page \d of/)).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search software' }).fill('Microsoft');
  await expect(page.getByText(/Page 1 of 2/)).toBeVisible();
});

test('stopping a service shows the new state', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const online = await onlineDevices(page.request, session.token);
  const target = online[online.length - 1]!;
  await page.goto(`/devices/${target.device_guid}?tab=services`);
  const running = page.locator('tbody tr', { has: page.getByText('Running', { exact: true }) }).filter({
    hasNot: page.getByText('OutpostAgent'),
  });
  const row = running.first();
  const name = (await row.getAttribute('data-service'))!;
  await row.getByRole('button', { name: `Stop ${name}` }).click();
  await expect(page.getByText('Service stop completed successfully')).toBeVisible({ timeout: 20_000 });
  const after = page.locator(`tr[data-service="${name}"]`);
  await expect(after.getByText('Stopped', { exact: true })).toBeVisible();
  await expect(after.getByRole('button', { name: `Start ${name}` })).toBeVisible();
  await expect(after.getByRole('button', { name: `Stop ${name}` })).toHaveCount(0);
  // and back, so the demo stays as it was
  await after.getByRole('button', { name: `Start ${name}` }).click();
  await expect(page.getByText('Service start completed successfully')).toBeVisible({ timeout: 20_000 });
  await expect(after.getByText('Running', { exact: true })).toBeVisible();
});

test('storage bars are red for a nearly full disk, yellow above 75 %, green below', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const devices = await listDevices(page.request, session.token);
  const used = (s: { totalSize: number; freeSpace: number }) => (1 - s.freeSpace / s.totalSize) * 100;
  let full = null as { guid: string; disk: string } | null;
  let comfortable = null as { guid: string; disk: string } | null;
  for (const d of devices) {
    const detail = await getDevice(page.request, session.token, d.id);
    for (const s of detail.hardware_info?.storageDevices ?? []) {
      if (!full && used(s) > 90) {
        full = { guid: d.device_guid, disk: s.deviceId };
      }
      if (!comfortable && used(s) <= 75) {
        comfortable = { guid: d.device_guid, disk: s.deviceId };
      }
    }
  }
  expect(full, 'the demo has a nearly full disk').not.toBeNull();
  await page.goto(`/devices/${full!.guid}`);
  const bar = page.getByTestId('storage-bar').filter({ hasText: full!.disk }).first();
  await expect(bar).toHaveAttribute('data-level', 'critical');
  await expect(bar.locator('[role=meter] > div')).toHaveClass(/bg-red-500/);
  await page.goto(`/devices/${comfortable!.guid}`);
  const ok = page.getByTestId('storage-bar').filter({ hasText: comfortable!.disk }).first();
  await expect(ok).toHaveAttribute('data-level', 'ok');
  await expect(ok.locator('[role=meter] > div')).toHaveClass(/bg-emerald-500/);
});

test('tabs, hardware refresh and Device not found', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const [target] = await onlineDevices(page.request, session.token);
  await page.goto(`/devices/${target!.device_guid}`);
  await expect(page.getByRole('heading', { name: target!.hostname! })).toBeVisible();
  await expect(page.getByText('Device Information')).toBeVisible();
  // The server waits up to 15 s for the agent: hold its answer, and the button stays busy (and
  // sends nothing more) until it comes, however long that takes.
  await page.clock.install();
  let requests = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/refresh/hardware', async (route) => {
    requests += 1;
    await released;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Refresh hardware' }).click();
  const busy = page.getByRole('button', { name: 'Refreshing...' });
  await expect(busy).toBeVisible();
  await page.clock.runFor(10_000);
  await expect(busy).toBeVisible();
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  await busy.click();
  expect(requests).toBe(1);
  release();
  await expect(page.getByRole('button', { name: 'Refresh hardware' })).toBeVisible();
  expect(requests).toBe(1);
  await page.unroute('**/refresh/hardware');
  await page.getByRole('tab', { name: 'Networking' }).click();
  await expect(page.getByText('Connection Summary')).toBeVisible();
  await expect(page.getByText(/\d+\.\d{2} MB \/ \d+\.\d{2} MB/).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Device Activity' }).click();
  await expect(page.getByRole('list', { name: 'Hourly activity, last 12 hours' })).toBeVisible();
  await page.goto('/devices/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Device not found')).toBeVisible();
});
