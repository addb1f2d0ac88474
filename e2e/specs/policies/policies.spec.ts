import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { createCmdPackage, uniqueName } from '../deployments/api';

// Automation policies (docs/product/device-sets.md#automation-policies): an administrator creates
// a weekly policy in the dialog and sees it listed with its schedule in words and its next run,
// then opens its details.

test('creates a weekly policy and shows its next run', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const pkgName = uniqueName('Policy pkg');
  await createCmdPackage(page.request, session.token, pkgName, [{ name: 'echo', command: 'echo policy' }]);
  const name = uniqueName('Weekly patch');

  await page.goto('/policies');
  await expect(page.getByRole('heading', { name: 'Policies', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create Policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Policy' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Target').selectOption('site');
  await dialog.getByRole('combobox', { name: /^Site/ }).selectOption({ index: 1 });
  await dialog.getByLabel('Package').selectOption({ label: `${pkgName} 1.0.0` });
  await dialog.getByLabel('Repeats').selectOption('weekly');
  await dialog.getByLabel('Local time').fill('02:30');
  await dialog.getByRole('button', { name: 'Thursday' }).click();
  await expect(dialog.getByRole('button', { name: 'Thursday' })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByRole('button', { name: 'Create Policy' }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator('tr', { hasText: name });
  await expect(row).toContainText('Every Monday and Thursday at 02:30');
  await expect(row.getByRole('switch', { name: `${name} enabled` })).toHaveAttribute('aria-checked', 'true');
  const next = row.locator('td').nth(5);
  await expect(next).not.toHaveText('—');
  await expect(next).toHaveText(/\d/);

  await row.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('No deployments yet')).toBeVisible();
  await expect(page.getByText('Next run')).toBeVisible();

  // disabling it leaves no next run
  await page.getByRole('switch', { name: `${name} enabled` }).click();
  await expect(page.getByRole('switch', { name: `${name} enabled` })).toHaveAttribute(
    'aria-checked',
    'false',
  );
});
