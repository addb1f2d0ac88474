import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { useTheme } from '../a11y/routes';

// docs/product/device-sets.md#tags: tag three devices at once from the device list's selection
// bar, then list only the devices carrying the tag; the Tags page shows the count.

const shots = process.env.E2E_SHOTS_DIR;

for (const theme of ['light', 'dark'] as const) {
  test(`tags three devices in bulk and filters the list by the tag (${theme})`, async ({ page }) => {
    await useTheme(page, theme);
    await signInAs(page, DEMO_ADMIN);
    const name = `Kiosk ${theme} ${Date.now().toString(36)}`;
    await page.goto('/devices');
    await page.getByLabel('Page size').selectOption('100');
    const selectable = page
      .locator('tbody tr')
      .filter({ has: page.locator('input[type="checkbox"]:not([disabled])') });
    await expect(selectable.first()).toBeVisible();
    const picked: string[] = [];
    for (let i = 0; i < 3; i++) {
      picked.push((await selectable.nth(i).getAttribute('data-device-guid'))!);
      await selectable.nth(i).getByRole('checkbox').check();
    }
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await expect(bar).toContainText('3 devices selected');
    await bar.getByRole('button', { name: 'Tags' }).click();

    const dialog = page.getByRole('dialog', { name: 'Tags of 3 devices' });
    await dialog.getByRole('searchbox', { name: 'Search or create a tag' }).fill(name);
    await dialog.getByRole('radio', { name: 'teal' }).click();
    await dialog.getByRole('button', { name: `Create tag “${name}”` }).click();
    await expect(dialog.getByRole('checkbox', { name })).toHaveAttribute('aria-checked', 'true');
    if (shots) {
      fs.mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: `${shots}/tag-dialog-${theme}.png` });
    }
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('Tags updated')).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.getByRole('combobox', { name: 'Tag' }).selectOption({ label: name });
    await expect(page).toHaveURL(/tag_id=\d+/);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(3);
    for (const guid of picked) {
      await expect(
        page.locator(`tr[data-device-guid="${guid}"]`).locator(`[data-tag="${name}"]`),
      ).toBeVisible();
    }
    await expect(page.getByText('Showing 3 of 3')).toBeVisible();
    if (shots) {
      await page.screenshot({ path: `${shots}/devices-by-tag-${theme}.png` });
    }

    // the filter is in the address: a reload keeps it
    await page.reload();
    await expect(page.locator('tbody tr')).toHaveCount(3);

    await page.goto('/tags');
    const tagRow = page.locator('tbody tr').filter({ hasText: name });
    await expect(tagRow).toContainText('3 devices');
    await page.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    if (shots) {
      await page.screenshot({ path: `${shots}/tags-page-${theme}.png`, fullPage: true });
    }
  });
}
