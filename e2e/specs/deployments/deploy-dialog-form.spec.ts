import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// The deploy dialog's form: the fields are in sight at 1440×900 without
// scrolling inside the dialog, and a schedule in the past is refused before anything is sent.

async function openFromPackages(page: Page) {
  await page.goto('/packages');
  await page
    .getByTestId('package-row')
    .first()
    .getByRole('button', { name: /^Deploy/ })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Available devices' })).toBeVisible();
  return dialog;
}

/** The element lies wholly inside the window and inside the dialog's scrolling body as it is shown. */
async function expectInSight(field: Locator, body: Locator) {
  const box = await field.boundingBox();
  const area = await body.boundingBox();
  expect(box, 'field is rendered').not.toBeNull();
  expect(area, 'dialog body is rendered').not.toBeNull();
  const f = box!;
  const a = area!;
  expect(f.y).toBeGreaterThanOrEqual(0);
  expect(f.y + f.height).toBeLessThanOrEqual(900);
  expect(f.y).toBeGreaterThanOrEqual(a.y);
  expect(f.y + f.height).toBeLessThanOrEqual(a.y + a.height);
}

test('at 1440×900 Job Name, Schedule and Description are in sight without scrolling the dialog', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAs(page, DEMO_ADMIN);
  const dialog = await openFromPackages(page);
  const body = dialog.getByTestId('dialog-body');
  expect(await body.evaluate((el) => el.scrollTop)).toBe(0);
  await expectInSight(dialog.getByLabel(/Job Name/), body);
  await expectInSight(dialog.getByRole('group', { name: 'Schedule' }), body);
  await expectInSight(dialog.getByLabel('Description'), body);
  // with a schedule chosen, the date and time fields join them
  await dialog.getByRole('radio', { name: /Schedule for Later/ }).check();
  expect(await body.evaluate((el) => el.scrollTop)).toBe(0);
  await expectInSight(dialog.getByLabel('Date', { exact: true }), body);
  await expectInSight(dialog.getByLabel('Description'), body);
});

test('a date typed over the picker’s minimum is refused inline and on the button, and nothing is sent', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const dialog = await openFromPackages(page);
  const devices = dialog.getByRole('group', { name: 'Devices' });
  await devices.getByRole('list', { name: 'Available devices' }).getByRole('checkbox').first().check();
  await devices.getByRole('button', { name: 'Add', exact: true }).click();

  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/customer/deployments')) {
      posts++;
    }
  });
  await dialog.getByRole('radio', { name: /Schedule for Later/ }).check();
  await dialog.getByLabel('Date', { exact: true }).fill('2020-01-02');
  await dialog.getByLabel('Time', { exact: true }).fill('09:30');
  const button = dialog.getByRole('button', { name: 'Schedule Deployment' });
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  await expect(button).toHaveAccessibleDescription(messages.scheduledInPast);
  // inline, next to the field it concerns
  await expect(dialog.getByTestId('schedule-error')).toHaveText(messages.scheduledInPast);
  await button.click({ force: true });
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(posts).toBe(0);

  // a future time clears it
  await dialog.getByLabel('Date', { exact: true }).fill('2099-01-02');
  await expect(dialog.getByTestId('schedule-error')).toHaveCount(0);
  await expect(button).not.toHaveAttribute('aria-disabled');
});

test('the rules show next to the fields they concern once the user tries to send', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/deployments');
  await page.getByRole('button', { name: 'New Deployment' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Available devices' })).toBeVisible();
  const packages = dialog.getByRole('group', { name: 'Packages' });
  const devices = dialog.getByRole('group', { name: 'Devices' });
  // the button says why it is disabled; the fields wait until the user tries to send
  await expect(dialog.getByRole('button', { name: 'Deploy Now' })).toHaveAccessibleDescription(
    messages.selectPackage,
  );
  await expect(packages).not.toContainText(messages.selectPackage);
  await dialog.getByRole('button', { name: 'Deploy Now' }).click({ force: true });
  await expect(packages).toContainText(messages.selectPackage);
  await expect(devices).toContainText(messages.selectDevice);
  await expect(dialog.getByText(messages.jobNameRequired, { exact: true })).toBeVisible();
});
