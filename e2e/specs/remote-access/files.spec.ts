import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, DEMO_TECH } from '../../fixtures/env';
import { onlineDevices } from '../devices/api';

// docs/product/remote-access.md#file-transfer — the device detail's Files tab against the demo's
// simulated devices (their small fake file system), and the Remote Access settings page.

async function openFiles(page: Page) {
  const session = await signInAs(page, DEMO_ADMIN);
  const device = (await onlineDevices(page.request, session.token)).find((d) => d.os_type === 'windows');
  expect(device, 'the demo has an online Windows device').toBeTruthy();
  await page.goto(`/devices/${device!.device_guid}?tab=files`);
  await expect(page.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
  return device!;
}

async function openFolder(page: Page, name: string) {
  await page.getByRole('table', { name: 'Files' }).getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Folder path' }).locator('[aria-current]')).toHaveText(
    name.replace(/\\$/, ''),
  );
}

test('browses a device’s folders, downloads a file and uploads one', async ({ page }) => {
  await openFiles(page);
  const table = page.getByRole('table', { name: 'Files' });
  await expect(table.getByText('C:\\')).toBeVisible();
  await openFolder(page, 'C:\\');
  await openFolder(page, 'Users');
  // the user's folder (one per device), by double-click
  await table.locator('tbody tr').first().dblclick();
  await openFolder(page, 'Documents');
  await expect(table.getByText('budget.xlsx')).toBeVisible();

  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download budget.xlsx' }).click();
  const download = await saved;
  expect(download.suggestedFilename()).toBe('budget.xlsx');
  await expect(page.getByRole('list', { name: 'Transfers' }).getByText('Downloaded')).toBeVisible();

  await page.getByTestId('files-upload-input').setInputFiles({
    name: 'e2e-upload.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('uploaded by the end-to-end test\n'),
  });
  await expect(page.getByRole('list', { name: 'Transfers' }).getByText('Uploaded')).toBeVisible();
  await expect(table.getByText('e2e-upload.txt')).toBeVisible();

  // the same name again: the portal asks before replacing it
  await page.getByTestId('files-upload-input').setInputFiles({
    name: 'e2e-upload.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('second version\n'),
  });
  const dialog = page.getByRole('dialog', { name: 'Replace the file?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await expect(page.getByRole('list', { name: 'Transfers' }).getByText('Uploaded')).toHaveCount(2);
});

test('a path that does not exist says so', async ({ page }) => {
  await openFiles(page);
  await page.getByRole('textbox', { name: 'Path' }).fill('C:\\Nowhere');
  await page.getByRole('button', { name: 'Go' }).click();
  await expect(page.getByRole('alert')).toContainText('No such file or folder');
});

test('the Remote Access settings: administrators change them, users read them', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/remote-access');
  await expect(page.getByRole('heading', { name: 'Remote Access', level: 1 })).toBeVisible();
  const consent = page.getByRole('switch', { name: 'Ask for consent' });
  await expect(consent).toHaveAttribute('aria-checked', 'false');
  await consent.click();
  await page.getByLabel('Largest file').fill('100');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Ask for consent' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByLabel('Largest file')).toHaveValue('100');
  await page.getByLabel('Idle timeout').fill('0');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Between 1 and 240 minutes')).toBeVisible();
  // put back what the other tests expect
  await page.getByLabel('Idle timeout').fill('15');
  await page.getByRole('switch', { name: 'Ask for consent' }).click();
  await page.getByLabel('Largest file').fill('2048');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
});

test('a user reads the Remote Access settings without changing them', async ({ page }) => {
  await signInAs(page, DEMO_TECH);
  await page.goto('/remote-access');
  await expect(page.getByText('Only administrators of all sites can change these settings.')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'File transfer' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
});
