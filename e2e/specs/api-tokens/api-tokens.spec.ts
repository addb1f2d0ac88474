import { expect, test } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { API_TOKEN_PREFIX, apiTokenMessages } from '@outpost/contract/api-tokens';
import { expectNoBlockingDialogViolations } from '../../fixtures/axe';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// docs/product/administration.md#api-tokens: an administrator creates a token, sees its secret
// once, uses it, and revokes it; the revoked token stops working at once.

test('create an API token, see the secret once, use it, then revoke it', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  const name = `Inventory export ${Date.now().toString(36)}`;

  await page.goto('/api-tokens');
  await expect(page.getByRole('heading', { name: apiTokenMessages.title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByLabel('Sites: read').check();
  await dialog.getByLabel('Expires').selectOption('30');
  await dialog.getByRole('button', { name: 'Create token' }).click();

  // shown once, with a copy button
  const shown = page.getByRole('dialog', { name: apiTokenMessages.created });
  await expect(shown.getByText(apiTokenMessages.copyOnce)).toBeVisible();
  const secret = (
    await shown.locator('code, pre').filter({ hasText: API_TOKEN_PREFIX }).first().innerText()
  ).trim();
  expect(secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
  await expect(shown.getByRole('button', { name: /copy/i })).toBeVisible();
  await shown.getByRole('button', { name: 'Done' }).click();

  // listed without the secret
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('devices:read');
  await expect(row).toContainText('sites:read');
  await expect(page.getByText(secret)).toHaveCount(0);

  // it works for automation, and the list shows its last use
  const auth = { authorization: `Bearer ${secret}` };
  expect((await page.request.get('/api/customer/devices', { headers: auth })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('from ');

  // revoke, with confirmation
  await page.getByRole('button', { name: `Revoke API token ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
  await expect(confirm).toContainText(apiTokenMessages.revokeConfirm(name));
  await confirm.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByText(apiTokenMessages.revoked)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('revoked');
  expect((await page.request.get('/api/customer/devices', { headers: auth })).status()).toBe(401);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the new-token and shown-once dialogs (${theme}) have no serious or critical axe violations`, async ({
    page,
  }) => {
    await page.addInitScript(([key, isDark]) => localStorage.setItem(key, String(isDark)), [
      STORAGE_KEYS.darkMode,
      theme === 'dark',
    ] as const);
    await signInAs(page, DEMO_ADMIN);
    await page.goto('/api-tokens');
    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeVisible();
    await expectNoBlockingDialogViolations(page);
    await dialog
      .getByRole('textbox', { name: 'Name' })
      .fill(`Axe dialog ${theme} ${Date.now().toString(36)}`);
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('dialog', { name: apiTokenMessages.created })).toBeVisible();
    await expectNoBlockingDialogViolations(page);
  });
}
