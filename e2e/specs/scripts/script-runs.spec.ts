import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { uniqueName } from '../deployments/api';
import { runOnDevices } from './api';

// docs/product/scripts.md#results — a run on three simulated devices: the counters, the device
// table and the chosen device's output fill in live; the history lists the run.

test('a script run on three devices fills in live', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const name = uniqueName('Disk report');
  const body = [
    'Write-Output "Checking disks"',
    'Start-Sleep 3',
    'Write-Output "C: 42 GB free"',
    'Write-Output "All good"',
    'exit 0',
  ].join('\n');
  const run = await runOnDevices(page.request, session.token, name, body, 3, 10);
  expect(run.devices).toBe(3);

  await page.goto(`/scripts/runs/${run.job_id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${name} · v1` })).toBeVisible();
  const counters = page.getByTestId('run-counters');
  await expect(counters.locator('[data-counter="total"]')).toHaveText('3');
  await expect(page.getByTestId('run-device-row')).toHaveCount(3);
  // the first device's output streams in, in order
  const output = page.getByTestId('run-output');
  await expect(output).toContainText('Checking disks', { timeout: 20_000 });
  await expect(counters.locator('[data-counter="succeeded"]')).toHaveText('3', { timeout: 30_000 });
  await expect(output).toContainText('All good');
  const lines = await output.locator('[data-stream]').allTextContents();
  expect(lines).toEqual(['Checking disks', 'C: 42 GB free', 'All good']);
  await expect(page.getByTestId('run-device-row').locator('td:nth-child(3)')).toHaveText(['0', '0', '0']);

  // choosing another device shows its output
  await page.getByTestId('run-device-row').nth(2).getByRole('button').click();
  await expect(output).toContainText('All good');

  await page.getByRole('link', { name: 'Back to runs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scripts' })).toBeVisible();
  const row = page.locator(`[data-testid="script-run-row"][data-run-id="${run.job_id}"]`);
  await expect(row).toContainText(name);
  await expect(row).toContainText('3 succeeded');
});

test('a failing run shows its exit code and stderr, tinted', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const run = await runOnDevices(
    page.request,
    session.token,
    uniqueName('Failing script'),
    'Write-Output "trying"\nexit 4',
    1,
    13,
  );
  await page.goto(`/scripts/runs/${run.job_id}`);
  await expect(page.getByTestId('run-counters').locator('[data-counter="failed"]')).toHaveText('1', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('run-device-row').locator('td:nth-child(3)')).toHaveText('4');
  await expect(page.getByTestId('run-output').locator('[data-stream="stderr"]')).toHaveCount(1);
});
