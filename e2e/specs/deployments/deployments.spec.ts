import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { createCmdPackage, createJob, getJob, pickDevices, uniqueName } from './api';

// docs/product/deployments.md#deploy-dialog, docs/product/live-updates.md#notifications (dialog, notifications), #history, #details, docs/product/deployments.md, #limits — with the
// simulated fleet of the demo, against the real server and engine.

const toast = (page: Page, title: string) => page.locator('[data-toast-type]').filter({ hasText: title });

/**
 * Error toasts stay until dismissed; the demo's own jobs may raise some (its simulated devices fail
 * now and then), and the stack sits over the right of the page where row and bulk actions are.
 */
async function dismissToasts(page: Page) {
  for (const button of await page
    .locator('[data-toast-type]')
    .getByRole('button', { name: 'Dismiss' })
    .all()) {
    await button.click({ timeout: 2000 }).catch(() => undefined);
  }
}

/** Checks an item in one of the dialog's pick lists and adds it. */
async function pick(page: Page, list: 'Packages' | 'Devices', name: string) {
  const group = page.getByRole('dialog').getByRole('group', { name: list });
  await group.getByRole('searchbox').fill(name);
  await group
    .getByRole('list', { name: `Available ${list.toLowerCase()}` })
    .getByRole('checkbox', { name })
    .check();
  await group.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(group.getByRole('list', { name: `Selected ${list.toLowerCase()}` })).toContainText(name);
}

test('deploy a two-step package to three devices from the device list, follow it live to 100 %, read the step logs', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const name = uniqueName('E2E two steps');
  await createCmdPackage(page.request, session.token, name, [
    { name: 'Install', command: `echo Installing ${name} & sleep 2 & exit 0` },
    { name: 'Verify', command: 'echo Verified & exit 0' },
  ]);
  const devices = await pickDevices(page.request, session.token, 3);

  await page.goto('/devices');
  await page.getByLabel('Page size').selectOption('100');
  for (const d of devices) {
    await page.locator(`tr[data-device-guid="${d.device_guid}"]`).getByRole('checkbox').check();
  }
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('3 devices selected');
  await dismissToasts(page);
  await bar.getByRole('button', { name: 'Deploy Package' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Selected devices' }).getByRole('checkbox')).toHaveCount(3);
  await pick(page, 'Packages', name);
  await expect(dialog.getByLabel(/Job Name/)).toHaveValue(`Deploy ${name}`);
  await expect(dialog.getByTestId('deploy-summary')).toHaveText('Deploying to 3 device(s)');
  await dialog.getByRole('button', { name: 'Deploy Now' }).click();

  const created = toast(page, 'Deployment created');
  await expect(created).toBeVisible();
  await created.getByRole('button', { name: 'View deployment' }).click();
  await expect(page).toHaveURL(/\/deployments\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Deploy ${name}`);

  // live, without a reload: the job completes and the page follows
  await expect(toast(page, 'Deployment Completed')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('job-percent')).toHaveText('100%');
  await expect(page.getByTestId('count-completed')).toHaveText('3');
  await expect(page.getByTestId('count-pending')).toHaveText('0');
  const rows = page.getByTestId('device-deployment-row');
  await expect(rows).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await expect(rows.nth(i)).toContainText('Completed');
  }

  await page.getByRole('button', { name: `Step logs for ${devices[0]!.hostname}` }).click();
  const logs = page.getByRole('dialog');
  const steps = logs.getByTestId('step-log');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('Install');
  await expect(steps.nth(0).getByLabel('stdout')).toContainText(`Installing ${name}`);
  await expect(steps.nth(0)).toContainText('Exit code0');
  await expect(steps.nth(1).getByLabel('stdout')).toContainText('Verified');
  await expect(steps.nth(1).getByText('Completed').first()).toBeVisible();
  await expect(steps.nth(0).getByText(/^\d+\.\d s$/)).toBeVisible();

  // the history lists it as completed at 100 %
  await page.keyboard.press('Escape');
  await expect(logs).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to deployments' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const row = page.getByTestId('deployment-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Completed');
  await expect(row.getByTestId('progress-percent')).toHaveText('100%');
});

test('a failing step fails the device and the job, with the step and job toasts', async ({ page }) => {
  test.setTimeout(90_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const name = uniqueName('E2E failing');
  await createCmdPackage(page.request, session.token, name, [
    { name: 'Break', command: 'echo about to fail & exit 3' },
    { name: 'Never runs', command: 'echo unreachable & exit 0' },
  ]);
  const [device] = await pickDevices(page.request, session.token, 1, 3);

  await page.goto('/devices');
  await page.getByRole('searchbox', { name: 'Search' }).fill(device!.hostname!);
  const deviceRow = page.locator(`tr[data-device-guid="${device!.device_guid}"]`);
  await dismissToasts(page);
  await deviceRow.getByRole('button', { name: `Deploy Package ${device!.hostname}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Selected devices' })).toContainText(device!.hostname!);
  await pick(page, 'Packages', name);
  await dialog.getByRole('button', { name: 'Deploy Now' }).click();
  await expect(toast(page, 'Deployment created')).toBeVisible();

  // the notifications reach the page that created the job (the shell watches it)
  const stepFailed = toast(page, 'Deployment Step Failed');
  await expect(stepFailed).toBeVisible({ timeout: 60_000 });
  await expect(stepFailed).toContainText('Break failed');
  const failed = toast(page, 'Deployment Failed');
  await expect(failed).toBeVisible({ timeout: 30_000 });
  await expect(failed).toContainText(`Deploy ${name}`);
  await failed.getByRole('button', { name: 'View deployment' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Deploy ${name}`);
  await expect(page.getByTestId('count-failed')).toHaveText('1');
  const row = page.getByTestId('device-deployment-row');
  await expect(row).toContainText('Failed');
  await row.getByRole('button', { name: /Step logs for/ }).click();
  const logs = page.getByRole('dialog');
  await expect(logs.getByTestId('step-log').nth(0)).toContainText('Exit code3');
  await expect(logs.getByTestId('step-log').nth(1)).toContainText('Not run');
  await expect(page.getByRole('button', { name: 'Cancel Deployment' })).toHaveCount(0);
});

test('a job scheduled a minute ahead waits, then runs by itself', async ({ page }) => {
  test.setTimeout(180_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const name = uniqueName('E2E scheduled');
  await createCmdPackage(page.request, session.token, name, [
    { name: 'Echo', command: 'echo on time & exit 0' },
  ]);
  const [device] = await pickDevices(page.request, session.token, 1, 4);

  // the next whole minute at least 30 s away (the inputs have minute precision)
  const at = new Date(Math.floor((Date.now() + 60_000) / 60_000) * 60_000);
  if (at.getTime() - Date.now() < 30_000) {
    at.setMinutes(at.getMinutes() + 1);
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;

  await page.goto('/packages');
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  await page
    .getByTestId('package-row')
    .getByRole('button', { name: `Deploy ${name}` })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Selected packages' })).toContainText(name);
  await pick(page, 'Devices', device!.hostname!);
  await expect(dialog.getByLabel('Date', { exact: true })).toHaveCount(0);
  await dialog.getByRole('radio', { name: /Schedule for Later/ }).check();
  await dialog.getByLabel('Date', { exact: true }).fill(date);
  await dialog.getByLabel('Time', { exact: true }).fill(time);
  await expect(dialog.getByTestId('deploy-summary')).toHaveText(
    `Deploying to 1 device(s) at ${date} ${time}`,
  );
  await dialog.getByRole('button', { name: 'Schedule Deployment' }).click();

  const scheduled = toast(page, 'Deployment scheduled');
  await expect(scheduled).toBeVisible();
  await scheduled.getByRole('button', { name: 'View deployment' }).click();
  const header = page.locator('main');
  await expect(header.getByText('Pending').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Scheduled');

  // the shell watches the job it created, so its start is announced wherever the user is
  // (this job's: another test's job may start in the same minute and be announced beside it)
  await expect(toast(page, 'Deployment Started').filter({ hasText: name })).toBeVisible({
    timeout: 150_000,
  });
  await expect(page.getByTestId('job-percent')).toHaveText('100%', { timeout: 60_000 });
  const id = Number(/\/deployments\/(\d+)$/.exec(page.url())![1]);
  const job = await getJob(page.request, session.token, id);
  expect(job.status).toBe('completed');
  expect(Date.parse(job.started_at!)).toBeGreaterThanOrEqual(at.getTime() - 1000);
});

test('cancel a running job from its details, after confirming', async ({ page }) => {
  test.setTimeout(90_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const name = uniqueName('E2E cancel');
  const packageId = await createCmdPackage(page.request, session.token, name, [
    { name: 'Long install', command: 'echo working & sleep 120 & exit 0' },
  ]);
  const [device] = await pickDevices(page.request, session.token, 1, 5);
  const job = await createJob(page.request, session.token, {
    package_id: packageId,
    device_ids: [device!.id],
    job_name: name,
  });

  await page.goto(`/deployments/${job.id}`);
  await expect(page.getByTestId('connection-indicator')).toHaveText('Live');
  const row = page.getByTestId('device-deployment-row');
  await expect(row).toContainText('Running', { timeout: 30_000 });
  await expect(row).toContainText('Long install');

  // the step log follows the running step
  await row.getByRole('button', { name: /Step logs for/ }).click();
  const logs = page.getByRole('dialog');
  const attempt = logs.getByTestId('step-attempt').first();
  await expect(attempt).toContainText('Running');
  await expect(attempt.getByLabel('stdout')).toContainText('working');
  await page.keyboard.press('Escape');
  await expect(logs).toHaveCount(0);

  await page.getByRole('button', { name: 'Cancel Deployment' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Cancel Deployment' }).click();

  await expect(toast(page, 'Deployment Cancelled')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('main').getByText('Cancelled').first()).toBeVisible();
  await expect(row).toContainText('Cancelled', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Cancel Deployment' })).toHaveCount(0);
  await row.getByRole('button', { name: /Step logs for/ }).click();
  await expect(page.getByRole('dialog').getByTestId('step-attempt').first()).toContainText('Cancelled');
  // cancelling again is refused by the server; the page no longer offers it
  const again = await page.request.post(`/api/customer/deployments/${job.id}/cancel`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(again.status()).toBe(409);
});

test('the history filters by status and search, and a missing job says so', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/deployments');
  await expect(page.getByTestId('connection-indicator')).toHaveText('Live');
  await expect(page.getByTestId('deployment-row').first()).toBeVisible();
  await page.getByLabel('Status').selectOption('completed');
  await expect(page.getByTestId('deployment-row').first()).toContainText('Completed');
  await page.getByRole('searchbox', { name: 'Search' }).fill('no-such-job-anywhere');
  await expect(page.getByText('No deployments found')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('deployment-row').first()).toBeVisible();

  await page.goto('/deployments/999999');
  await expect(page.getByText(messages.notFound)).toBeVisible();
  await page.getByRole('link', { name: 'Back to deployments' }).first().click();
  await expect(page).toHaveURL(/\/deployments$/);
});
