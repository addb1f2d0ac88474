import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { useTheme } from '../a11y/routes';
import { uniqueName } from '../deployments/api';

// Monitoring policies (docs/product/monitoring.md#monitoring-policies): an administrator creates
// a policy with a script check and a disk check in the dialog and sees it listed under Policies →
// Monitoring; the list and the dialog have no serious or critical axe violations.

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  }
}

/** Screenshots at 1440 px light and dark, then 390 px (SHOTS_DIR). */
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

async function axeBlocking(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Two policies (a list to look at), through the API. */
async function seedPolicies(page: Page, token: string) {
  const bodies = [
    {
      name: uniqueName('Fleet basics'),
      description: 'CPU, memory and disks on every device',
      target_type: 'tenant',
      offline_alert_minutes: 60,
      offline_severity: 'critical',
      checks: [
        { name: 'CPU', config: { type: 'cpu', percent: 95, minutes: 10 } },
        { name: 'Memory', config: { type: 'memory', percent: 90 } },
        { name: 'Disks', config: { type: 'disk', volume: '*', min_free_percent: 10 } },
      ],
    },
    {
      name: uniqueName('Print servers'),
      target_type: 'tenant',
      enabled: false,
      checks: [{ name: 'Spooler', config: { type: 'service', service: 'Spooler' }, severity: 'critical' }],
    },
  ];
  for (const data of bodies) {
    const res = await page.request.post('/api/customer/monitoring-policies', {
      headers: { authorization: `Bearer ${token}` },
      data,
    });
    expect(res.status()).toBe(200);
  }
}

test('creates a monitoring policy with a script check and a disk check', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  const name = uniqueName('Server health');

  await page.goto('/policies');
  await page.getByRole('tab', { name: 'Monitoring' }).click();
  await expect(page).toHaveURL(/tab=monitoring/);
  await page.getByRole('button', { name: 'Create Monitoring Policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Monitoring Policy' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByLabel('Target').selectOption('site');
  await dialog.getByRole('combobox', { name: /^Site/ }).selectOption({ index: 1 });

  // the first check becomes a script
  const first = dialog.locator('[data-check-index="0"]');
  await first.getByLabel('Type').selectOption('script');
  await expect(first.getByLabel('Check name')).toHaveValue('Script');
  await first.getByLabel('Check name').fill('Backup freshness');
  await first.getByLabel('Shell').selectOption('bash');
  await first
    .getByRole('textbox', { name: 'Script', exact: true })
    .fill('test -n "$(find /backup -mmin -1440)" || exit 2');
  await first.getByLabel('Interval (seconds)').fill('300');

  // an empty script is refused with the contract's words, then a disk check is added
  await dialog.getByRole('button', { name: 'Add check' }).click();
  const second = dialog.locator('[data-check-index="1"]');
  await second.getByLabel('Type').selectOption('disk');
  await second.getByLabel('Volume').fill('/');
  await second.getByLabel('Free below (%)').fill('');
  await dialog.getByRole('button', { name: 'Create Policy' }).click();
  await expect(dialog.getByText('Set a free-space threshold in % or in GB')).toBeVisible();
  await second.getByLabel('or free below (GB)').fill('5');
  await expect(dialog.getByText('Set a free-space threshold in % or in GB')).toBeHidden();
  await second.getByLabel('Severity').selectOption('critical');

  await dialog.getByRole('switch', { name: 'Alert when a device goes offline' }).click();
  await dialog.getByLabel('Offline for (minutes)').fill('15');
  await useShots(page, 'monitoring-dialog');
  expect(await axeBlocking(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Create Policy' }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator('tr', { hasText: name });
  await expect(row).toContainText('2 checks');
  await expect(row).toContainText('Script, Disk free space');
  await expect(row).toContainText('After 15 min');
  await expect(row.getByRole('switch', { name: `${name} enabled` })).toHaveAttribute('aria-checked', 'true');

  // editing keeps the checks in order
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Monitoring Policy' });
  await expect(edit.locator('[data-check-index="0"]').getByLabel('Check name')).toHaveValue(
    'Backup freshness',
  );
  await expect(edit.locator('[data-check-index="1"]').getByLabel('Volume')).toHaveValue('/');
  await edit.getByRole('button', { name: 'Cancel' }).click();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the monitoring policies list (${theme}) has no serious or critical axe violations`, async ({
    page,
  }) => {
    await useTheme(page, theme);
    const session = await signInAs(page, DEMO_ADMIN);
    await seedPolicies(page, session.token);
    await page.goto('/policies?tab=monitoring');
    await expect(page.getByRole('tab', { name: 'Monitoring', selected: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
    await useShots(page, `monitoring-list-${theme}`);
    expect(await axeBlocking(page)).toEqual([]);
  });
}
