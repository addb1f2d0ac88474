import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { packageMessages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// docs/product/rollouts.md#reboot-message-and-wait-steps: the builder offers Reboot, Message and
// Wait from the catalogue, checks their numbers with the contract's words, and saves them.
// With SHOTS_DIR set, the step dialog is also photographed (light and dark, 1440 and 390 px).

const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const stepRows = (page: Page) => page.getByTestId('step-row');

async function openStep(page: Page, name: string, type: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Add Step', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Step Name').fill(name);
  await dialog.getByRole('radio', { name: type, exact: true }).click();
  return dialog;
}

async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) {
    return;
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    for (const dark of [false, true]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.evaluate(
        ([key, isDark]) => {
          localStorage.setItem(key, String(isDark));
          document.documentElement.classList.toggle('dark', isDark);
        },
        [STORAGE_KEYS.darkMode, dark] as const,
      );
      await page.screenshot({
        timeout: 60_000,
        path: path.join(dir, `${name}-${width}-${dark ? 'dark' : 'light'}.png`),
      });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate((key) => {
    localStorage.setItem(key, 'false');
    document.documentElement.classList.remove('dark');
  }, STORAGE_KEYS.darkMode);
}

test('build a package with Message, Wait and Reboot steps, with their ranges checked, and save it', async ({
  page,
}) => {
  test.setTimeout(process.env.SHOTS_DIR ? 300_000 : 120_000);
  await signInAs(page, DEMO_ADMIN);
  const name = unique('E2E restart');
  await page.goto('/packages/builder');
  await page.getByLabel('Package Name').fill(name);

  const message = await openStep(page, 'Tell the user', 'Message');
  await expect(message.getByLabel('Title')).toHaveValue('IT notice');
  await message.getByLabel(/^Message/).fill('New software was installed.');
  await message.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(message).toBeHidden();

  const wait = await openStep(page, 'Pause', 'Wait');
  await wait.getByRole('spinbutton', { name: 'Seconds', exact: true }).fill('0');
  await wait.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(wait.getByText(packageMessages.stepFieldRange('Seconds', 1, 86_400))).toBeVisible();
  await wait.getByRole('spinbutton', { name: 'Seconds', exact: true }).fill('120');
  await wait.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(wait).toBeHidden();

  const reboot = await openStep(page, 'Restart', 'Reboot');
  await expect(reboot.getByLabel('Delay (seconds)')).toHaveValue('60');
  await reboot.getByLabel('Maximum Deferrals').fill('3');
  await reboot.getByLabel(/^Message to the User/).fill('Your computer restarts in one minute.');
  await shots(page, 'reboot-step-dialog');
  await reboot.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(reboot).toBeHidden();

  await expect(stepRows(page).nth(0)).toContainText('IT notice: New software was installed.');
  await expect(stepRows(page).nth(1)).toContainText('Wait 120 s');
  await expect(stepRows(page).nth(2)).toContainText('Restart after 60 s · up to 3 deferrals');
  await shots(page, 'builder-with-device-steps');

  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  await expect(page.getByTestId('package-row').filter({ hasText: name })).toContainText('3 steps');
});
