import { expect, test } from '@playwright/test';
import type { DashboardStats } from '@outpost/contract/devices';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// docs/product/devices.md#dashboard: real counts from the simulated fleet.
test('tiles, recent device activity, licence and recently discovered software', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const res = await page.request.get('/api/customer/devices/stats/dashboard', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const stats = ((await res.json()) as { data: DashboardStats }).data;
  await page.goto('/dashboard');
  await expect(page.getByText('Total Devices')).toBeVisible();
  await expect(page.getByText(`of ${stats.tenant.max_agents} max`)).toBeVisible();
  await expect(page.getByText('Currently installing')).toBeVisible();
  await expect(page.getByText('Available for install')).toBeVisible();
  await expect(page.getByText(/% of all devices/)).toBeVisible();
  await expect(page.getByText('License Status')).toBeVisible();
  await expect(page.getByText(`/ ${stats.tenant.max_agents}`)).toBeVisible();
  await expect(page.getByText('Professional')).toBeVisible();
  // the five most recently seen devices, each a link to its page (the order changes live)
  await expect(page.locator('main a[href^="/devices/"]')).toHaveCount(Math.min(5, stats.deviceCounts.total));
  await expect(page.getByText('Recently Discovered Software')).toBeVisible();
  await page.getByRole('button', { name: 'View All Devices' }).click();
  await expect(page).toHaveURL(/\/devices$/);
});

// "View All Software" opens the fleet's Software page (docs/product/device-sets.md#fleet-software).
// The panel is given a title (the simulated fleet's software all came with its first
// inventories, which are not discoveries).
test('View All Software opens the fleet software page', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.route('**/api/customer/devices/stats/dashboard', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: DashboardStats };
    const [device] = body.data.recentDevices;
    body.data.recentSoftware = [
      {
        name: 'Installed Later',
        publisher: 'Vendor',
        version: '1.0',
        device_count: 1,
        first_seen_at: new Date().toISOString(),
        latest_device_guid: device!.device_guid,
        latest_device_hostname: device!.hostname,
      },
    ];
    await route.fulfill({ response: res, json: body });
  });
  await page.goto('/dashboard');
  await expect(page.getByText('Installed Later', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'View All Software' }).click();
  await expect(page).toHaveURL(/\/software$/);
  await expect(page.getByRole('heading', { name: 'Software', exact: true })).toBeVisible();
});
