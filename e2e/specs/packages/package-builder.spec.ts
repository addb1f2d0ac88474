import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { packageMessages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// docs/product/packages.md#package-list, #builder, #saving package save, #validation validation.

const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const stepDialog = (page: Page) => page.getByRole('dialog');
const stepRows = (page: Page) => page.getByTestId('step-row');

async function addStep(page: Page, fill: (dialog: Locator) => Promise<void>) {
  await page.getByRole('button', { name: 'Add Step', exact: true }).click();
  const dialog = stepDialog(page);
  await expect(dialog).toBeVisible();
  await fill(dialog);
  await dialog.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Drags a step's handle onto another row with the mouse (dnd-kit's pointer sensor). */
async function dragStep(page: Page, from: number, to: number) {
  const handle = stepRows(page)
    .nth(from)
    .getByRole('button', { name: /^Reorder step/ });
  const target = stepRows(page).nth(to);
  // Mouse events only reach what is on screen: bring the list into view first.
  await stepRows(page).last().scrollIntoViewIfNeeded();
  await target.scrollIntoViewIfNeeded();
  const a = (await handle.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 10, { steps: 4 });
  // dnd-kit measures on animation frames: let it see the drag start and the target.
  await expect(dragAnnouncements(page)).toContainText(`over position ${from + 1}`);
  await page.mouse.move(a.x + a.width / 2, b.y + 4, { steps: 15 });
  await expect(dragAnnouncements(page)).toContainText(`over position ${to + 1}`);
  await page.mouse.up();
  await expect(dragAnnouncements(page)).toContainText('dropped');
}

/** dnd-kit's screen-reader announcements (the builder words them). */
const dragAnnouncements = (page: Page) => page.locator('[id^="DndLiveRegion"]');

const rowNames = (page: Page) =>
  stepRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-step-name')));

test('build a package with CMD, FOLDER and an uploaded EXE, reorder by drag, save and reload', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  const name = unique('E2E tools');
  await page.goto('/packages/builder');
  await expect(page.getByRole('heading', { name: 'Package Builder' })).toBeVisible();
  await expect(page.getByText('C:\\Windows\\Temp\\Outpost')).toBeVisible();
  await page.getByLabel('Package Name').fill(name);
  await page.getByLabel('OS Version Requirement').fill('Windows 10 1903+');

  await addStep(page, async (dialog) => {
    await dialog.getByLabel('Step Name').fill('Flush DNS');
    await dialog.getByRole('radio', { name: 'Command' }).click();
    await dialog.getByRole('textbox', { name: /^Command/ }).fill('ipconfig /flushdns');
  });
  await addStep(page, async (dialog) => {
    await dialog.getByLabel('Step Name').fill('Create tools folder');
    await dialog.getByRole('radio', { name: 'Create Folder' }).click();
    await dialog.getByLabel('Folder Path').fill('C:\\Tools');
    await dialog.getByLabel('Permissions').fill('BUILTIN\\Users:ReadAndExecute');
  });
  await addStep(page, async (dialog) => {
    await dialog.getByLabel('Step Name').fill('Install tool');
    await dialog.getByRole('radio', { name: 'Install EXE' }).click();
    await dialog.getByLabel('Installer File').setInputFiles({
      name: 'tool-setup.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ e2e test installer (not a real program)'),
    });
    await expect(dialog.getByTestId('uploaded-file-name')).toHaveText('tool-setup.exe');
    await dialog.getByLabel('Arguments').fill('/S /norestart');
  });
  expect(await rowNames(page)).toEqual(['Flush DNS', 'Create tools folder', 'Install tool']);

  await dragStep(page, 2, 0);
  await expect.poll(() => rowNames(page)).toEqual(['Install tool', 'Flush DNS', 'Create tools folder']);

  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const row = page.getByTestId('package-row').filter({ hasText: name });
  await expect(row).toContainText('3 steps');
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Package' })).toBeVisible();
  await page.reload();

  await expect(page.getByLabel('Package Name')).toHaveValue(name);
  await expect(page.getByLabel('OS Version Requirement')).toHaveValue('Windows 10 1903+');
  await expect.poll(() => rowNames(page)).toEqual(['Install tool', 'Flush DNS', 'Create tools folder']);
  await expect(stepRows(page).nth(0)).toContainText('tool-setup.exe');
  await expect(stepRows(page).nth(0)).toContainText('/S /norestart');
  await expect(stepRows(page).nth(1)).toContainText('ipconfig /flushdns');
  await expect(stepRows(page).nth(2)).toContainText('C:\\Tools');

  await page.getByRole('button', { name: 'Edit step 1' }).click();
  const dialog = stepDialog(page);
  await expect(dialog.getByTestId('uploaded-file-name')).toHaveText('tool-setup.exe');
  await expect(dialog.getByLabel('Arguments')).toHaveValue('/S /norestart');
  await expect(dialog.getByLabel('Success Exit Codes')).toHaveValue('0,3010,1641');
});

test('steps reorder from the keyboard too, and the new order is saved', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const name = unique('E2E keyboard');
  await page.goto('/packages/builder');
  await page.getByLabel('Package Name').fill(name);
  for (const stepName of ['First', 'Second']) {
    await addStep(page, async (dialog) => {
      await dialog.getByLabel('Step Name').fill(stepName);
      await dialog.getByRole('textbox', { name: /^Command/ }).fill(`echo ${stepName}`);
    });
  }
  await stepRows(page)
    .nth(0)
    .getByRole('button', { name: /^Reorder step/ })
    .focus();
  await page.keyboard.press('Space');
  await expect(dragAnnouncements(page)).toContainText('Step First is over position 1.');
  // The sensor may still be measuring the list on the first key press: press until it moves
  // (with two steps, extra presses cannot move it further).
  await expect(async () => {
    await page.keyboard.press('ArrowDown');
    await expect(dragAnnouncements(page)).toContainText('is over position 2', { timeout: 1000 });
  }).toPass();
  await page.keyboard.press('Space');
  await expect(dragAnnouncements(page)).toContainText('dropped at position 2');
  await expect.poll(() => rowNames(page)).toEqual(['Second', 'First']);
  await expect(stepRows(page).nth(0).getByLabel('Step 1', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  const headers = { authorization: `Bearer ${session.token}` };
  const list = await page.request.get(
    `/api/customer/deployment-packages?search=${encodeURIComponent(name)}`,
    {
      headers,
    },
  );
  const [pkg] = ((await list.json()) as { data: { data: { id: number }[] } }).data.data;
  const detail = await page.request.get(`/api/customer/deployment-packages/${pkg!.id}`, { headers });
  const steps = ((await detail.json()) as { data: { steps: { step_order: number; step_name: string }[] } })
    .data.steps;
  expect(steps.map((s) => [s.step_order, s.step_name])).toEqual([
    [1, 'Second'],
    [2, 'First'],
  ]);
});

test('validation messages appear in the spec’s order', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/packages/builder');
  const save = page.getByRole('button', { name: 'Save Package' });
  await expect(save).toBeDisabled();
  await expect(page.getByTestId('package-blockers').locator('li')).toHaveText([
    packageMessages.packageNameRequired,
    packageMessages.packageStepsRequired,
  ]);

  await page.getByRole('button', { name: 'Add Step', exact: true }).click();
  const dialog = stepDialog(page);
  await dialog.getByRole('radio', { name: 'Create Folder' }).click();
  await dialog.getByLabel('Timeout (seconds)').fill('0');
  await dialog.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(dialog.getByTestId('step-errors').locator('li')).toHaveText([
    packageMessages.stepNameRequired,
    packageMessages.requiredStepFields(['Folder Path']),
    packageMessages.stepTimeoutRange,
  ]);

  // Only the fields of the chosen source count: a URL source asks for the URL, not a file.
  await dialog.getByLabel('Step Name').fill('Download installer');
  await dialog.getByLabel('Timeout (seconds)').fill('300');
  await dialog.getByRole('radio', { name: 'Install EXE' }).click();
  await dialog.getByLabel('Source Type').selectOption('url');
  await dialog.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(dialog.getByTestId('step-errors').locator('li')).toHaveText([
    packageMessages.requiredStepFields(['Download URL']),
  ]);
  await dialog.getByLabel('Download URL').fill('https://example.com/setup.exe');
  await dialog.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId('package-blockers').locator('li')).toHaveText([
    packageMessages.packageNameRequired,
  ]);
  await page.getByLabel('Package Name').fill('Named');
  await expect(page.getByTestId('package-blockers')).toHaveCount(0);
  await expect(save).toBeEnabled();
});

test('delete asks the spec’s question and removes the package', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const name = unique('E2E delete me');
  const created = await page.request.post('/api/customer/deployment-packages', {
    headers: { authorization: `Bearer ${session.token}` },
    data: { name },
  });
  expect(created.ok()).toBe(true);

  await page.goto('/packages');
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const row = page.getByTestId('package-row').filter({ hasText: name });
  await row.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(packageMessages.packageDeleteConfirm(name));
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText(packageMessages.noPackagesFound)).toBeVisible();
});

test('Deploy on a row opens the deploy dialog with the package preselected', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/packages');
  const firstRow = page.getByTestId('package-row').first();
  const name = (await firstRow.getByRole('link').first().textContent())?.trim() ?? '';
  await firstRow.getByRole('button', { name: /^Deploy/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Selected packages' })).toContainText(name);
  await expect(dialog.getByLabel(/Job Name/)).toHaveValue(`Deploy ${name}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await firstRow.getByRole('checkbox').check();
  await expect(page.getByTestId('bulk-bar')).toContainText('1 package selected');
});

test('leaving the builder with unsaved changes asks first', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/packages/builder');
  await page.getByRole('link', { name: 'Back to packages' }).click();
  await expect(page).toHaveURL(/\/packages$/); // nothing typed: no question

  await page.goto('/packages/builder');
  await page.getByLabel('Package Name').fill('Half-built');
  await page.getByRole('link', { name: 'Back to packages' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/packages\/builder$/);
  await expect(page.getByLabel('Package Name')).toHaveValue('Half-built');
  await page.getByRole('link', { name: 'Back to packages' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/packages$/);
});

test('edit mode: a missing package shows the spec’s load error', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/packages/987654/edit');
  await expect(page.getByRole('heading', { name: packageMessages.packageLoad })).toBeVisible();
  await expect(page.getByText(packageMessages.packageNotFound)).toBeVisible();
});

async function packageWithSteps(page: Page, token: string, names: string[]) {
  const headers = { authorization: `Bearer ${token}` };
  const created = await page.request.post('/api/customer/deployment-packages', {
    headers,
    data: { name: unique('E2E step delete') },
  });
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  for (const name of names) {
    await page.request.post(`/api/customer/deployment-packages/${id}/steps`, {
      headers,
      data: { step_name: name, step_type: 'CMD', step_details: JSON.stringify({ command: `echo ${name}` }) },
    });
  }
  const savedSteps = async () => {
    const detail = await page.request.get(`/api/customer/deployment-packages/${id}`, { headers });
    const body = (await detail.json()) as { data: { steps: { step_order: number; step_name: string }[] } };
    return body.data.steps.map((s) => [s.step_order, s.step_name]);
  };
  return { id, savedSteps };
}

test('a deleted saved step is gone on the server only once the package is saved', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const { id, savedSteps } = await packageWithSteps(page, session.token, ['one', 'two', 'three']);
  await page.goto(`/packages/${id}/edit`);
  await expect.poll(() => rowNames(page)).toEqual(['one', 'two', 'three']);
  await page.getByRole('button', { name: 'Delete step 1' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete Step' }).click();
  await expect.poll(() => rowNames(page)).toEqual(['two', 'three']);
  await expect(stepRows(page).nth(0).getByLabel('Step 1', { exact: true })).toBeVisible();
  // not yet on the server
  expect(await savedSteps()).toEqual([
    [1, 'one'],
    [2, 'two'],
    [3, 'three'],
  ]);

  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  expect(await savedSteps()).toEqual([
    [1, 'two'],
    [2, 'three'],
  ]);
});

test('leaving without saving keeps a deleted saved step', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const { id, savedSteps } = await packageWithSteps(page, session.token, ['one', 'two']);
  await page.goto(`/packages/${id}/edit`);
  await expect.poll(() => rowNames(page)).toEqual(['one', 'two']);
  await page.getByRole('button', { name: 'Delete step 2' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete Step' }).click();
  await expect.poll(() => rowNames(page)).toEqual(['one']);

  await page.getByRole('link', { name: 'Back to packages' }).click();
  const confirm = page.getByRole('dialog', { name: 'Leave without saving?' });
  await confirm.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/packages$/);

  await page.goto(`/packages/${id}/edit`);
  await page.reload();
  await expect.poll(() => rowNames(page)).toEqual(['one', 'two']);
  expect(await savedSteps()).toEqual([
    [1, 'one'],
    [2, 'two'],
  ]);
});
