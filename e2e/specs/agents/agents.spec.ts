import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, DEMO_TECH } from '../../fixtures/env';

// docs/product/administration.md#agents Agents, #agent-cleanup cleanup.

/** The demo's simulated deployments raise error toasts now and then; they sit over the page's actions. */
async function dismissToasts(page: Page) {
  for (const button of await page
    .locator('[data-toast-type]')
    .getByRole('button', { name: 'Dismiss' })
    .all()) {
    await button.click({ timeout: 2000 }).catch(() => undefined);
  }
}

test('agents list, No Selection, cleanup previewed with its real result', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/agents');
  // the serial number is shown under the hostname, so the table fits its card from 1280 px
  for (const column of ['Hostname', 'Agent Version', 'OS', 'Status', 'Site', 'Last Check-in', 'First Seen']) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await expect(page.locator('tbody tr').first()).toContainText(/S\/N \S+/);
  // bulk delete is offered only with a selection, in the selection bar
  await expect(page.getByRole('button', { name: /Delete Selected/ })).toHaveCount(0);
  await page.locator('tbody tr').first().getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar.getByRole('button', { name: 'Delete Selected (1)' })).toBeVisible();
  await bar.getByRole('button', { name: 'Clear selection' }).click();

  await dismissToasts(page);
  await page.getByRole('button', { name: 'Cleanup' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Days offline')).toHaveValue('30');
  await dialog.getByLabel('Remove agents offline for longer than').uncheck();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByText('No Options Selected')).toBeVisible();
  await dialog.getByLabel('Remove duplicate registrations').check();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  // the simulated fleet has no duplicates: the real answer is that nothing matched, and there is
  // nothing to confirm (SECURITY.md R2-4: the preview comes before any removal)
  await expect(dialog.getByText('Nothing to remove: no agent matched.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Remove 0 agents' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Back' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('Install Agent creates a token and shows the one-line install for Windows, macOS and Linux', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/agents');
  await page.getByRole('button', { name: 'Install Agent' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(`e2e token ${Date.now()}`);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog.getByText('Enrolment token', { exact: true })).toBeVisible();
  const token = (await dialog.locator('pre').first().textContent())!.trim();
  expect(token.length).toBeGreaterThan(20);
  const origin = new URL(page.url()).origin;
  // the token is an argument of the command, never part of the script's URL
  await expect(dialog.locator('pre').nth(1)).toHaveText(
    `& ([scriptblock]::Create((irm ${origin}/api/agent/install.ps1))) -Token ${token}`,
  );
  await dialog.getByRole('tab', { name: 'macOS' }).click();
  await expect(dialog.locator('pre').nth(1)).toHaveText(
    `curl -fsSL ${origin}/api/agent/install.sh | sudo sh -s -- --token ${token}`,
  );
  await dialog.getByRole('tab', { name: 'Linux' }).click();
  await expect(dialog.locator('pre').nth(1)).toHaveText(
    `curl -fsSL ${origin}/api/agent/install.sh | sudo sh -s -- --token ${token}`,
  );
  // the install script the command fetches is served, with this server written in
  const script = await page.request.get(`${origin}/api/agent/install.sh`);
  expect(script.status()).toBe(200);
  expect(await script.text()).toContain(`OUTPOST_SERVER='${origin}'`);
  // customers see no operator text: no build commands, no running from a source checkout
  await expect(dialog).not.toContainText('npm ');
  await expect(dialog).not.toContainText('from source');
});

test('Update Selected with nothing selected says No Selection', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/agents');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: /Update Selected/ }).click();
  await expect(page.getByText('Select the agents to update first.')).toBeVisible();
});

test('a regular user sees the agents but not the administrator actions', async ({ page }) => {
  await signInAs(page, DEMO_TECH);
  await page.goto('/agents');
  await expect(page.getByText(/Administrators only/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Install Agent' })).toHaveCount(0);
  await expect(page.locator('tbody tr').first()).toBeVisible();
});
