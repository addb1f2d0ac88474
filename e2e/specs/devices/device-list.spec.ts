import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { startPrivateServer } from '../../fixtures/server';
import { deviceActions, listDevices, onlineDevices } from './api';

// docs/product/devices.md#device-list, docs/product/live-updates.md#live-lists Selection and live updates (with the simulated fleet).

test('a row restart reaches the agent and the action is listed as completed', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const online = await onlineDevices(page.request, session.token);
  const target = online.find((d) => d.status === 'online') ?? online[0]!;
  await page.goto('/devices');
  await page.getByRole('searchbox', { name: 'Search' }).fill(target.hostname!);
  const row = page.locator(`tr[data-device-guid="${target.device_guid}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Restart Device ${target.hostname}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(target.hostname!);
  await dialog.getByRole('button', { name: 'Restart' }).click();
  await expect(page.getByText('Restart sent')).toBeVisible();
  await expect
    .poll(async () => (await deviceActions(page.request, session.token, target.id))[0]?.status, {
      timeout: 20_000,
    })
    .toBe('completed');
  const [action] = await deviceActions(page.request, session.token, target.id);
  expect(action).toMatchObject({
    action_type: 'restart',
    hostname: target.hostname,
    created_by_name: 'Alex Morgan',
  });
});

test('only online devices can be selected; select-all picks only them and shows the bulk bar', async ({
  page,
}) => {
  const session = await signInAs(page, DEMO_ADMIN);
  await page.goto('/devices');
  await page.getByLabel('Page size').selectOption('100');
  const all = await listDevices(page.request, session.token);
  await expect(page.locator('tbody tr')).toHaveCount(all.length);
  await page.getByRole('checkbox', { name: 'Select all online devices' }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toBeVisible();
  const rows = page.locator('tbody tr');
  const count = await rows.count();
  let actionable = 0;
  for (let i = 0; i < count; i++) {
    const box = rows.nth(i).getByRole('checkbox');
    if (await box.isEnabled()) {
      actionable += 1;
      await expect(box).toBeChecked();
    } else {
      await expect(box).not.toBeChecked();
      await expect(rows.nth(i)).toContainText(/Offline|Agent error/);
    }
  }
  await expect(bar).toContainText(`${actionable} device${actionable === 1 ? '' : 's'} selected`);
  // Deploy Package opens the deploy dialog with the selected devices
  await bar.getByRole('button', { name: 'Deploy Package' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Selected devices' }).getByRole('checkbox')).toHaveCount(
    actionable,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await bar.getByRole('button', { name: 'Clear selection' }).click();
  await expect(bar).toHaveCount(0);
});

test('filters combine and the empty state explains itself', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/devices');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByLabel('OS type').selectOption('macos');
  await expect(page.locator('tbody tr').first()).toContainText(/macOS/);
  await page.getByRole('searchbox', { name: 'Search' }).fill('no-such-device-anywhere');
  await expect(page.getByText('No devices found')).toBeVisible();
  await expect(page.getByText('Try adjusting your filters to see more devices.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.locator('tbody tr').first()).toBeVisible();
});

test('a device going offline changes its row and raises Device Disconnected without a reload', async ({
  page,
}) => {
  test.setTimeout(150_000); // a server of its own, with a short presence grace
  const server = await startPrivateServer({ OUTPOST_DEMO_DEVICES: '3', AGENT_PRESENCE_GRACE_MS: '1000' });
  try {
    const session = await signInAs(page, DEMO_ADMIN, server.url);
    let target = null as Awaited<ReturnType<typeof listDevices>>[number] | null;
    await expect
      .poll(
        async () => {
          const list = await listDevices(page.request, session.token, 'status=online', server.url);
          target = list[0] ?? null;
          return list.length;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    await page.goto(`${server.url}/devices`);
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'connected');
    const row = page.locator(`tr[data-device-guid="${target!.device_guid}"]`);
    await expect(row.getByText(/Online|Logged in/)).toBeVisible();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await row.getByRole('button', { name: `Shutdown Device ${target!.hostname}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Shutdown' }).click();
    await expect(row.getByText('Offline', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Device Disconnected')).toBeVisible();
    await expect(row.getByRole('checkbox')).toBeDisabled();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  } finally {
    server.kill();
  }
});
