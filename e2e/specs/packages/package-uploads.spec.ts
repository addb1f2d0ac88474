import { expect, test } from '@playwright/test';
import { packageMessages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { startPrivateServer } from '../../fixtures/server';

// docs/product/packages.md#step-types file fields and #saving — 'Failed to upload file: {reason}', the field cleared;
// 'Failed to add step "{name}": {error}' when the server refuses a step during the save.

test('a refused upload shows the reason and clears the field', async ({ page }) => {
  test.setTimeout(120_000); // it starts a server of its own, with a 1 KB upload limit
  const server = await startPrivateServer({ MAX_UPLOAD_BYTES: '1024' });
  try {
    await signInAs(page, DEMO_ADMIN, server.url);
    await page.goto(`${server.url}/packages/builder`);
    await page.getByRole('button', { name: 'Add Step', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Custom ZIP' }).click();
    const input = dialog.getByLabel('ZIP File');
    await input.setInputFiles({
      name: 'big.zip',
      mimeType: 'application/zip',
      buffer: Buffer.alloc(4096, 7),
    });
    await expect(dialog.getByRole('alert')).toHaveText(
      packageMessages.fileUploadFailed(packageMessages.fileTooLarge('1 KB')),
    );
    await expect(dialog.getByTestId('uploaded-file-name')).toHaveCount(0);
    await expect(input).toHaveValue('');

    await input.setInputFiles({
      name: 'small.zip',
      mimeType: 'application/zip',
      buffer: Buffer.alloc(512, 7),
    });
    await expect(dialog.getByTestId('uploaded-file-name')).toHaveText('small.zip');
  } finally {
    server.kill();
  }
});

test('a step the server refuses during the save is named, and a retry does not duplicate the package', async ({
  page,
}) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const headers = { authorization: `Bearer ${session.token}` };
  const name = `E2E refused ${Date.now().toString(36)}`;
  await page.goto('/packages/builder');
  await page.getByLabel('Package Name').fill(name);
  await page.getByLabel('Template: a starting point').check();

  await page.getByRole('button', { name: 'Add Step', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Step Name').fill('Install tool');
  await dialog.getByRole('radio', { name: 'Install EXE' }).click();
  const uploaded = page.waitForResponse(
    (r) => r.url().endsWith('/api/customer/files') && r.request().method() === 'POST',
  );
  const exe = { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ e2e tool') };
  await dialog.getByLabel('Installer File').setInputFiles(exe);
  const fileId = ((await (await uploaded).json()) as { data: { id: number } }).data.id;
  await expect(dialog.getByTestId('uploaded-file-name')).toHaveText('tool.exe');
  await dialog.getByRole('button', { name: 'Add Step', exact: true }).click();

  // The uploaded file is deleted before the package is saved: the server refuses the step.
  expect((await page.request.delete(`/api/customer/files/${fileId}`, { headers })).ok()).toBe(true);
  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page.getByTestId('save-error')).toHaveText(
    packageMessages.stepAddFailed('Install tool', packageMessages.stepFileUnknown('Installer File')),
  );

  // Upload it again and save: the package created by the first attempt is updated, not doubled.
  await page.getByRole('button', { name: 'Edit step 1' }).click();
  await dialog.getByLabel('Installer File').setInputFiles(exe);
  await expect(dialog.getByTestId('uploaded-file-name')).toHaveText('tool.exe');
  await dialog.getByRole('button', { name: 'Update Step' }).click();
  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const rows = page.getByTestId('package-row').filter({ hasText: name });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Template');
  await expect(rows).toContainText('1 step');
});
