import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// Beyond the original product description: duplicate, save as template, export and import as JSON.

async function createViaApi(page: Page, token: string, name: string) {
  const headers = { authorization: `Bearer ${token}` };
  const pkg = await page.request.post('/api/customer/deployment-packages', { headers, data: { name } });
  const id = ((await pkg.json()) as { data: { id: number } }).data.id;
  await page.request.post(`/api/customer/deployment-packages/${id}/steps`, {
    headers,
    data: {
      step_name: 'Flush DNS',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'ipconfig /flushdns' }),
    },
  });
  return id;
}

test('duplicate, save as template, export and import a package', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const name = `E2E copies ${Date.now().toString(36)}`;
  await createViaApi(page, session.token, name);
  await page.goto('/packages');
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(name);
  const rows = page.getByTestId('package-row');
  await expect(rows).toHaveCount(1);

  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(rows.filter({ hasText: `${name} (copy)` })).toContainText('1 step');

  await page.getByRole('button', { name: `More actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Save as template' }).click();
  await expect(rows.filter({ hasText: `${name} (template)` })).toContainText('Template');

  await page.getByRole('button', { name: `More actions for ${name}`, exact: true }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export JSON' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.outpost-package\.json$/);
  const doc = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
    format: string;
    package: { name: string };
    steps: { step_name: string }[];
  };
  expect(doc.format).toBe('outpost.package');
  expect(doc.steps.map((s) => s.step_name)).toEqual(['Flush DNS']);

  const importedName = `${name} imported`;
  await page.getByLabel('Import package file').setInputFiles({
    name: 'package.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...doc, package: { ...doc.package, name: importedName } })),
  });
  await expect(page.getByText('Package imported')).toBeVisible();
  await expect(rows.filter({ hasText: importedName })).toContainText('1 step');

  await page.getByLabel('Import package file').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello":"world"}'),
  });
  await expect(page.getByText('This is not an Outpost package export.')).toBeVisible();
});
