import { expect, test } from '@playwright/test';
import type { DashboardStats } from '@outpost/contract/devices';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// spec: core §2 Dashboard (issue 4): real counts from the simulated fleet.
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
  await expect(page.getByText(stats.recentSoftware[0]!.name, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'View All Software' }).click();
  await expect(page).toHaveURL(/\/devices\/[0-9a-f-]+\?tab=software/);
  await expect(page.getByRole('tab', { name: 'Software', selected: true })).toBeVisible();
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'View All Devices' }).click();
  await expect(page).toHaveURL(/\/devices$/);
});
