import { expect, test } from '@playwright/test';
import type { DeviceFieldsResponse } from '@outpost/contract/custom-fields';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { apiGet, onlineDevices } from '../devices/api';

// docs/product/device-sets.md#custom-fields: an administrator defines a field, sets it on one
// device's detail page, then on two devices at once from the device list's selection.

test('define a custom field, set it on a device, then on two devices from the list', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const suffix = Date.now().toString(36);
  const name = `Asset owner ${suffix}`;
  const key = `asset_owner_${suffix}`;
  const valueOf = async (guid: string) =>
    (
      await apiGet<DeviceFieldsResponse>(page.request, session.token, `/api/customer/devices/${guid}/fields`)
    ).fields.find((f) => f.key === key)?.value ?? null;

  // define
  await page.goto('/custom-fields');
  await expect(page.getByRole('heading', { name: 'Custom Fields', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create Field' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Custom Field' });
  await dialog.getByLabel('Name').fill(name);
  await expect(dialog.getByLabel('Key')).toHaveValue(key);
  await dialog.getByLabel('Type').selectOption('text');
  await dialog.getByRole('button', { name: 'Create Field' }).click();
  await expect(page.getByText('Custom field created')).toBeVisible();
  await expect(page.locator(`tr[data-field-key="${key}"]`)).toContainText(name);

  // one device, on its detail page
  const [first, second, third] = await onlineDevices(page.request, session.token);
  expect(third, 'the demo has three devices online').toBeDefined();
  await page.goto(`/devices/${first!.device_guid}`);
  const card = page.getByTestId('custom-fields-card');
  await card.getByRole('button', { name: 'Edit' }).click();
  await card.getByLabel(name).fill('Dana Whitfield');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Custom fields saved')).toBeVisible();
  await expect(card.locator(`[data-field-key="${key}"]`)).toContainText('Dana Whitfield');
  expect(await valueOf(first!.device_guid)).toBe('Dana Whitfield');

  // two devices, from the list's selection
  await page.goto('/devices');
  await page.getByLabel('Status').selectOption('online');
  await page.getByLabel('Page size').selectOption('100');
  for (const device of [second!, third!]) {
    await page.locator(`tr[data-device-guid="${device.device_guid}"]`).getByRole('checkbox').check();
  }
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('2 devices selected');
  await bar.getByRole('button', { name: 'Set field' }).click();
  const setDialog = page.getByRole('dialog', { name: 'Set custom field' });
  await setDialog.getByLabel('Field').selectOption({ label: name });
  await setDialog.getByLabel('Value').fill('IT pool');
  await setDialog.getByRole('button', { name: 'Apply to 2 devices' }).click();
  await expect(page.getByText(`${name} set on 2 devices`)).toBeVisible();
  expect(await valueOf(second!.device_guid)).toBe('IT pool');
  expect(await valueOf(third!.device_guid)).toBe('IT pool');
  // the first device keeps its own value
  expect(await valueOf(first!.device_guid)).toBe('Dana Whitfield');
});
