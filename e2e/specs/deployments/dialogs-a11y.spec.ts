import { expect, test } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { expectNoBlockingDialogViolations } from '../../fixtures/axe';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// Accessibility of the deployments' dialogs (the route table in a11y/axe.spec.ts covers the
// screens): the deploy dialog with a schedule and the step-log dialog, light and dark, with no
// serious or critical axe violation.

for (const theme of ['light', 'dark'] as const) {
  test(`the deploy and step-log dialogs (${theme}) have no serious or critical axe violations`, async ({
    page,
  }) => {
    await page.addInitScript(([key, isDark]) => localStorage.setItem(key, String(isDark)), [
      STORAGE_KEYS.darkMode,
      theme === 'dark',
    ] as const);
    await signInAs(page, DEMO_ADMIN);

    await page.goto('/packages');
    await page
      .getByTestId('package-row')
      .first()
      .getByRole('button', { name: /^Deploy/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('list', { name: 'Available devices' })).toBeVisible();
    await dialog.getByRole('radio', { name: /Schedule for Later/ }).check();
    await expectNoBlockingDialogViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/deployments');
    await page.getByLabel('Status').selectOption('failed');
    await page.getByTestId('deployment-row').first().getByRole('link').click();
    await page
      .getByRole('button', { name: /Step logs for/ })
      .first()
      .click();
    await expect(page.getByRole('dialog').getByTestId('step-log').first()).toBeVisible();
    await expectNoBlockingDialogViolations(page);
  });
}
