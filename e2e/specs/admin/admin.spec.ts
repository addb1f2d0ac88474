import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, DEMO_TECH } from '../../fixtures/env';
import { listDevices } from '../devices/api';

// docs/product/administration.md#users Users, #sites Sites, docs/product/activity.md#audit-log Audit logs, against the shared
// demo server; every name is unique, so the tests can run again on the same data.

const unique = () => Date.now().toString(36).slice(-4).toUpperCase();

async function openCreateSite(page: Page) {
  await page.getByRole('button', { name: 'Create Site' }).click();
  return page.getByRole('dialog', { name: 'Create Site' });
}

test('Create Site shows each site code message, upper-cases the code as typed and creates the site', async ({
  page,
}) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/sites');
  const dialog = await openCreateSite(page);
  const name = dialog.getByLabel('Site Name');
  const code = dialog.getByLabel('Site Code');
  const create = dialog.getByRole('button', { name: 'Create Site' });
  const siteName = `E2E Depot ${unique()}`;

  await name.fill(siteName);
  await create.click();
  await expect(dialog.getByRole('alert')).toHaveText('Site name and code are required');
  await code.fill('abcdefg');
  await expect(code).toHaveValue('ABCDEFG');
  await create.click();
  await expect(dialog.getByRole('alert')).toHaveText('Site code must be 6 characters or less');
  await code.fill('ab-1');
  await expect(code).toHaveValue('AB-1');
  await create.click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Site code must contain only uppercase letters and numbers',
  );
  // the server's own message is shown for a code already taken
  await code.fill('hq');
  await create.click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'A site with the code HQ already exists in this organization',
  );

  const siteCode = `Z${unique()}`;
  await code.clear();
  await code.pressSequentially(siteCode.toLowerCase());
  await expect(code).toHaveValue(siteCode);
  await dialog.getByLabel('City').fill('Lisbon');
  await dialog.getByLabel('Timezone').selectOption('Europe/London');
  await create.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Site created' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(siteCode);
  const row = page.getByRole('row').filter({ hasText: siteName });
  await expect(row).toContainText(siteCode);
  await expect(row).toContainText('Lisbon');
  await expect(row).toContainText('London');
  await expect(row).toContainText('Today');

  // delete it: the confirmation says it has no devices, the result says it was deleted
  await row.getByRole('button', { name: `Delete ${siteName}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete site?' });
  await expect(confirm).toContainText(`Are you sure you want to delete the site "${siteName}"?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Site deleted' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Deleted 1 site');
  await expect(page.getByText('No sites found')).toBeVisible();
});

test('a user given one site sees only that site’s devices, and no administrator screens', async ({
  page,
  browser,
}) => {
  const admin = await signInAs(page, DEMO_ADMIN);
  const london = (await listDevices(page.request, admin.token)).filter(
    (d) => d.site_name === 'London Office',
  );
  expect(london.length).toBeGreaterThan(0);

  await page.goto('/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  const email = `e2e-london-${unique().toLowerCase()}-${Date.now()}@acme.example`;
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Name').fill('Robin London');
  await dialog.getByRole('radio', { name: /Specific Sites/ }).check();
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select at least one site or choose "All Sites"');
  await dialog
    .getByRole('group', { name: 'Sites' })
    .getByLabel(/London Office/)
    .check();
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Robin London');
  await expect(row).toContainText('User');
  await expect(row).toContainText('London Office');

  // the new user signs in at once (dev sign-in) and sees the London devices only
  const context = await browser.newContext();
  const userPage = await context.newPage();
  await signInAs(userPage, email);
  await userPage.goto('/devices');
  await userPage.getByLabel('Page size').selectOption('100');
  const rows = userPage.locator('tbody tr[data-device-guid]');
  await expect(rows).toHaveCount(london.length);
  for (const device of london) {
    await expect(userPage.locator(`tr[data-device-guid="${device.device_guid}"]`)).toContainText(
      'London Office',
    );
  }
  for (const path of ['/users', '/audit-logs']) {
    await userPage.goto(path);
    await expect(userPage.getByTestId('admin-only')).toContainText('Administrators only');
  }
  await userPage.goto('/sites');
  await expect(userPage.getByText(/Administrators only: you can see your sites/)).toBeVisible();
  await expect(userPage.getByRole('button', { name: 'Create Site' })).toHaveCount(0);
  await context.close();
});

test('the audit log finds the actions by filter and shows their details', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  // an action to find: a site created, then renamed
  const code = `A${unique()}`;
  const firstName = `E2E Audit ${code}`;
  await page.goto('/sites');
  const dialog = await openCreateSite(page);
  await dialog.getByLabel('Site Name').fill(firstName);
  await dialog.getByLabel('Site Code').fill(code);
  await dialog.getByRole('button', { name: 'Create Site' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(code);
  await page.getByRole('button', { name: `Edit ${firstName}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Site' });
  await edit.getByLabel('Site Name').fill(`${firstName} Renamed`);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();

  await page.goto('/audit-logs');
  await expect(page.getByRole('heading', { name: 'Audit Logs' })).toBeVisible();
  for (const card of ['Total Actions', 'Create Actions', 'Update Actions', 'Active Users']) {
    await expect(page.getByText(card, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Activity by Day (Last 30 Days)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Most Active Users (Last 30 Days)' })).toBeVisible();

  // filters apply on Apply Filters only
  await page.getByLabel('Action').selectOption('Update Site');
  await page.getByLabel('Resource Type').selectOption('site');
  await page.getByRole('button', { name: 'User: All Users' }).click();
  await page.getByRole('option', { name: /Alex Morgan\s*admin@acme\.example/ }).click();
  await expect(page.getByRole('button', { name: 'User: Alex Morgan' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search logs' }).fill(code);
  // not applied yet: the list still shows other actions than the chosen one
  await expect(page.locator('tbody tr').filter({ hasNotText: 'Update Site' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  const entry = rows.first();
  await expect(entry).toContainText('Update Site');
  await expect(entry).toContainText('Alex Morgan');
  await expect(entry).toContainText('admin@acme.example');
  await expect(entry).toContainText('site');
  await expect(page.getByText('Showing 1 to 1 of 1 results')).toBeVisible();

  await entry.getByRole('button', { name: 'Show Details' }).click();
  const details = rows.nth(1);
  await expect(details).toContainText('Old Values');
  await expect(details).toContainText('New Values');
  await expect(details).toContainText(firstName);
  await expect(details).toContainText(`${firstName} Renamed`);
  await expect(details).toContainText('User Agent');
  await page.getByRole('button', { name: 'Hide Details' }).click();
  await expect(page.getByText('Old Values')).toHaveCount(0);

  // the creation is found by its action
  await page.getByLabel('Action').selectOption('Create Site');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Create Site');

  // nothing matches: the hint says to adjust the filters; Clear Filters lists everything again
  await page.getByRole('searchbox', { name: 'Search logs' }).fill(`no such entry ${code}`);
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page.getByText('No audit logs found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(page.getByLabel('Action')).toHaveValue('');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(1);
});

test('a regular user sees the administrators-only state on the audit log and users', async ({ page }) => {
  await signInAs(page, DEMO_TECH);
  await page.goto('/audit-logs');
  await expect(page.getByRole('heading', { name: 'Administrators only' })).toBeVisible();
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Administrators only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
});

test('bulk delete is offered only with a selection, then the selected sites and users are deleted', async ({
  page,
}) => {
  const admin = await signInAs(page, DEMO_ADMIN);
  const tag = unique();
  const headers = { authorization: `Bearer ${admin.token}` };
  for (const n of [1, 2]) {
    const site = await page.request.post('/api/customer/sites', {
      headers,
      data: { site_name: `E2E Bulk ${tag} ${n}`, site_code: `B${tag}${n}`.slice(0, 6) },
    });
    expect(site.ok(), await site.text()).toBe(true);
    const user = await page.request.post('/api/customer/users', {
      headers,
      data: {
        email: `e2e-bulk-${tag.toLowerCase()}-${n}@acme.example`,
        name: `Bulk ${tag} ${n}`,
        role: 'user',
      },
    });
    expect(user.ok(), await user.text()).toBe(true);
  }

  await page.goto('/sites');
  // bulk delete is offered only with a selection, in the selection bar
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Delete Selected/ })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search' }).fill(`E2E Bulk ${tag}`);
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await page.getByLabel('Select all sites').check();
  await page.getByRole('button', { name: 'Delete Selected (2)' }).click();
  const confirmSites = page.getByRole('dialog', { name: 'Delete 2 sites?' });
  await expect(confirmSites).toContainText('Are you sure you want to delete 2 sites?');
  await confirmSites.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sites deleted' })).toContainText(
    'Deleted 2 sites',
  );
  await expect(page.getByText('No sites found')).toBeVisible();

  await page.goto('/users');
  await page.getByRole('searchbox', { name: 'Search' }).fill(`e2e-bulk-${tag.toLowerCase()}`);
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await page.getByLabel('Select all users').check();
  await page.getByRole('button', { name: 'Delete Selected (2)' }).click();
  await page.getByRole('dialog', { name: 'Delete 2 users?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Users deleted' })).toContainText(
    'Deleted 2 users',
  );
  await expect(page.getByText('No users found')).toBeVisible();
});
