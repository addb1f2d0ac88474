import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { ListData } from '@outpost/contract/envelope';
import type { GroupFilterInput, GroupPreviewResponse } from '@outpost/contract/groups';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { useTheme } from '../a11y/routes';
import { apiGet } from '../devices/api';
import { createCmdPackage, uniqueName } from '../deployments/api';

// docs/product/device-sets.md#groups: a dynamic group defined with a software-version condition
// shows its live preview count, keeps its matches as members, and is deployed to from the deploy
// dialog (the job records the group).

const CHROME: GroupFilterInput = {
  match: 'all',
  conditions: [
    {
      field: 'software',
      op: 'installed',
      name_match: 'contains',
      name: 'Google Chrome',
      version_op: 'ge',
      version: '100',
    },
  ],
};

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  }
}

async function previewCount(page: Page, token: string, filter: GroupFilterInput): Promise<number> {
  const res = await page.request.post('/api/customer/groups/preview', {
    headers: { authorization: `Bearer ${token}` },
    data: { filter },
  });
  return ((await res.json()) as { data: GroupPreviewResponse }).data.count;
}

test('a dynamic group with a software version condition previews live, and is deployed to', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const session = await signInAs(page, DEMO_ADMIN);
  // the simulated fleet reports its software shortly after it starts
  await expect.poll(() => previewCount(page, session.token, CHROME), { timeout: 60_000 }).toBeGreaterThan(0);
  const packageName = uniqueName('E2E Group rollout');
  await createCmdPackage(page.request, session.token, packageName, [
    { name: 'Hello', command: 'echo hello' },
  ]);

  await page.goto('/groups');
  await expect(page.getByRole('heading', { name: 'Groups', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create Group' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Group' });
  const groupName = uniqueName('Chrome 100+');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(groupName);
  await dialog.getByLabel('Software name (condition 1)', { exact: true }).fill('Google Chrome');
  await dialog.getByLabel('Version comparison (condition 1)', { exact: true }).selectOption('ge');
  await dialog.getByLabel('Version (condition 1)', { exact: true }).fill('100');
  const expected = await previewCount(page, session.token, CHROME);
  await expect(dialog.getByTestId('group-preview-count')).toHaveText(expected.toLocaleString('en-US'));
  // a higher bar than any Chrome the fleet has: the count follows the version, compared as numbers
  await dialog.getByLabel('Version (condition 1)', { exact: true }).fill('999.1');
  await expect(dialog.getByTestId('group-preview-count')).toHaveText('0');
  await dialog.getByLabel('Version comparison (condition 1)', { exact: true }).selectOption('lt');
  await expect(dialog.getByTestId('group-preview-count')).toHaveText(expected.toLocaleString('en-US'));
  await useShots(page, 'group-dialog');
  await dialog.getByRole('button', { name: 'Create Group' }).click();

  await expect(page).toHaveURL(/\/groups\/\d+$/);
  await expect(page.getByRole('heading', { name: groupName })).toBeVisible();
  await expect(page.getByTestId('group-member-count')).toHaveText(
    `${expected} device${expected === 1 ? '' : 's'}`,
  );
  await expect(page.locator('[data-member]').first()).toBeVisible();
  const groupId = Number(/\/groups\/(\d+)$/.exec(page.url())![1]);
  await useShots(page, 'group-page');

  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const deploy = page.getByRole('dialog', { name: 'Deploy Package' });
  await expect(deploy.getByRole('radio', { name: 'Group', exact: true })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(deploy.getByLabel('Group', { exact: true })).toHaveValue(String(groupId));
  await expect(deploy.getByTestId('deploy-group-note')).toContainText(
    'Devices in the group now are deployed to; devices that join later are not.',
  );
  const packages = deploy.getByRole('group', { name: 'Packages' });
  await packages.getByRole('searchbox').fill(packageName);
  await packages
    .getByRole('list', { name: 'Available packages' })
    .getByRole('checkbox', { name: packageName })
    .check();
  await packages.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(deploy.getByTestId('deploy-summary')).toContainText(`the online devices of ${groupName}`);
  await shoot(page, 'deploy-dialog-group-1440-light');
  await deploy.getByRole('button', { name: 'Deploy Now' }).click();
  await expect(page.locator('[data-toast-type]').filter({ hasText: 'Deployment created' })).toBeVisible();
  const jobs = await apiGet<ListData<DeploymentJob>>(
    page.request,
    session.token,
    '/api/customer/deployments?limit=5',
  );
  const job = jobs.data.find((j) => j.package_name === packageName);
  expect(job).toMatchObject({ group_id: groupId, group_name: groupName });
  expect(job!.total_devices).toBeGreaterThan(0);
  expect(job!.total_devices).toBeLessThanOrEqual(expected);
});

/** Screenshots of the page as it is, at 1440 px light, then dark and 390 px (SHOTS_DIR). */
async function useShots(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) {
    return;
  }
  await shoot(page, `${name}-1440-light`);
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await shoot(page, `${name}-1440-dark`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, `${name}-390-dark`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await shoot(page, `${name}-390-light`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

for (const theme of ['light', 'dark'] as const) {
  test(`the groups list (${theme}) has no serious or critical axe violations`, async ({ page }) => {
    await useTheme(page, theme);
    await signInAs(page, DEMO_ADMIN);
    await page.goto('/groups');
    await expect(page.getByRole('heading', { name: 'Groups', level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
    await useShots(page, `groups-list-${theme}`);
    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
