import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { onlineDevices } from '../devices/api';

// docs/product/scripts.md: write a script with parameters, change it, compare the two versions,
// export it and import the file back.

test('create a script with parameters, edit it, diff its versions, export and import it', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const name = `E2E script ${Date.now().toString(36)}`;
  await page.goto('/scripts');
  await expect(page.getByRole('heading', { name: 'Scripts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('script-row').filter({ hasText: 'Disk usage report' })).toBeVisible();
  await page.getByRole('link', { name: 'New script' }).click();

  await page.getByLabel('Name').first().fill(name);
  await page.getByLabel('Category').fill('E2E');
  await page.getByLabel('Target OS').selectOption('linux');
  await page.getByLabel('Language').selectOption('bash');
  await page.getByLabel('Script body').fill('echo "$OUTPOST_GREETING"\nuptime');

  await page.getByRole('button', { name: 'Add parameter' }).click();
  const first = page.getByTestId('param-row').nth(0);
  await first.getByLabel('Name').fill('greeting');
  await first.getByLabel('Default').fill('hello');
  await page.getByRole('button', { name: 'Add parameter' }).click();
  const second = page.getByTestId('param-row').nth(1);
  await second.getByLabel('Name').fill('token');
  await second.getByLabel('Type').selectOption('secret');
  await second.getByLabel(/Saved value/).fill('e2e-secret');
  await page.getByRole('button', { name: 'Create script' }).click();

  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/scripts\/\d+$/);
  await expect(page.getByText('Version 1 ·')).toBeVisible();

  // a bad default is refused before saving, naming the problem
  await page.getByTestId('param-row').nth(0).getByLabel('Pattern (regular expression)').fill('[a-z]+\\d');
  await page.getByRole('button', { name: 'Save version' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Default of greeting does not match the pattern' }),
  ).toBeVisible();
  await page.getByTestId('param-row').nth(0).getByLabel('Pattern (regular expression)').fill('');

  await page.getByLabel('Script body').fill('echo "$OUTPOST_GREETING, world"\nuptime\ndf -h');
  await page.getByLabel('Change note').fill('Greets the world');
  await page.getByRole('button', { name: 'Save version' }).click();
  await expect(page.getByText('Version 2 ·')).toBeVisible();

  const versions = page.getByRole('list', { name: 'Versions' });
  await expect(versions).toContainText('Greets the world');
  const diff = page.getByTestId('version-diff');
  await expect(diff).toContainText('v1 → v2');
  const changes = diff.getByLabel('Script changes');
  await expect(changes).toContainText('removed: echo "$OUTPOST_GREETING"');
  await expect(changes).toContainText('added: echo "$OUTPOST_GREETING, world"');
  await expect(changes).toContainText('added: df -h');

  // export from the library and import the file back under a free name
  await page.goto('/scripts');
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  await expect(page.getByTestId('script-row')).toHaveCount(1);
  await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export selected' }).click();
  const download = await downloading;
  const doc = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
    format: string;
    scripts: { name: string; params: { name: string; default: string | null }[] }[];
  };
  expect(doc.format).toBe('outpost-scripts/1');
  expect(doc.scripts.map((s) => s.name)).toEqual([name]);
  expect(JSON.stringify(doc)).not.toContain('e2e-secret');

  await page.getByLabel('Import scripts file').setInputFiles({
    name: 'scripts.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  });
  await expect(page.getByTestId('script-row').filter({ hasText: `${name} (imported)` })).toBeVisible();
});

test('the Run dialog asks for the parameters and checks them', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/scripts');
  const row = page.getByTestId('script-row').filter({ hasText: 'Disk usage report' });
  await row.getByRole('button', { name: 'Run Disk usage report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run Disk usage report' });
  await expect(dialog.getByLabel('Path to scan')).toHaveValue('/var');
  await dialog.getByLabel('Directories to list').fill('99');
  await dialog.getByRole('button', { name: 'Run script' }).click();
  await expect(dialog).toContainText('Directories to list must be at most 50');
  await dialog.getByLabel('Directories to list').fill('5');
  await dialog.getByRole('button', { name: 'Run script' }).click();
  await expect(dialog).toContainText('Choose at least one device');
  await expect(dialog.getByTestId('run-device-count')).toHaveText('Runs on 0 devices');
});

test('Run script from a device page runs on that device and opens the run', async ({ page }) => {
  // an online Windows device, read from the API: another spec may have switched the first one off,
  // and a run that skips offline devices has nothing to run on then
  const session = await signInAs(page, DEMO_ADMIN);
  const device = (await onlineDevices(page.request, session.token)).find((d) => d.os_type === 'windows');
  expect(device, 'an online Windows device in the demo fleet').toBeDefined();
  await page.goto(`/devices/${device!.device_guid}`);
  await expect(page.getByRole('heading', { name: device!.hostname! })).toBeVisible();
  await page.getByRole('button', { name: 'Run script' }).click();
  const dialog = page.getByRole('dialog', { name: /Run/ });
  await dialog.getByLabel('Search scripts').fill('Flush DNS');
  await dialog.getByRole('option', { name: /Flush DNS cache/ }).click();
  await expect(page.getByRole('dialog', { name: 'Run Flush DNS cache' })).toBeVisible();
  await expect(dialog.getByTestId('run-device-count')).toHaveText('Runs on 1 device');
  await dialog.getByText('Skip them').click();
  await dialog.getByRole('button', { name: 'Run script' }).click();
  await expect(page).toHaveURL(/\/scripts\/runs\/\d+$/);
});
