import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import type { PackageDetail, PackageSummary } from '@outpost/contract/packages';
import type { ListData } from '@outpost/contract/envelope';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { apiGet } from '../devices/api';

// docs/product/rollouts.md#step-conditions: conditions added to a step in the builder are saved
// with it; the Conditions section in light and dark, at 1440 and 390 px, with no serious or
// critical axe violation.

const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const shots = process.env.SHOTS_DIR;

// a dialog with a dozen fields, filled and analysed by axe: more than the default on a busy machine
test.describe.configure({ timeout: 150_000 });

async function openConditions(page: Page) {
  await page.getByRole('button', { name: 'Add Step', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Step Name').fill('Install when missing');
  await dialog.getByRole('textbox', { name: /^Command/ }).fill('echo install');
  const toggle = dialog.getByRole('button', { name: /Conditions/ });
  await expect(dialog.getByTestId('conditions-summary')).toHaveText('Runs always');
  await toggle.click();
  await dialog.getByRole('button', { name: 'Add condition' }).click();
  await dialog.getByLabel('Check', { exact: true }).selectOption('not_exists');
  await dialog.getByLabel('File or folder path').fill('%ProgramFiles%\\App\\app.exe');
  await dialog.getByRole('button', { name: 'Add condition' }).click();
  await dialog.getByLabel('Condition 2', { exact: true }).selectOption('architecture');
  await expect(dialog.getByTestId('conditions-summary')).toHaveText('Runs when 2 conditions hold');
  return dialog;
}

test('conditions added to a step in the builder are saved with it', async ({ page }) => {
  const session = await signInAs(page, DEMO_ADMIN);
  const name = unique('E2E conditions');
  await page.goto('/packages/builder');
  await page.getByLabel('Package Name').fill(name);
  const dialog = await openConditions(page);
  await dialog.getByRole('button', { name: 'Add Step', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Save Package' }).click();
  await expect(page).toHaveURL(/\/packages$/);

  const list = await apiGet<ListData<PackageSummary>>(
    page.request,
    session.token,
    `/api/customer/deployment-packages?search=${encodeURIComponent(name)}`,
  );
  const id = list.data[0]!.id;
  const pkg = await apiGet<PackageDetail>(
    page.request,
    session.token,
    `/api/customer/deployment-packages/${id}`,
  );
  expect(pkg.steps[0]?.conditions).toEqual([
    { kind: 'path', path: '%ProgramFiles%\\App\\app.exe', operator: 'not_exists' },
    { kind: 'architecture', architectures: ['x64'] },
  ]);

  await page.goto(`/packages/${id}/edit`);
  await page.getByRole('button', { name: 'Edit step 1' }).click();
  await expect(page.getByRole('dialog').getByTestId('conditions-summary')).toHaveText(
    'Runs when 2 conditions hold',
  );
});

for (const theme of ['light', 'dark'] as const) {
  for (const width of [1440, 390]) {
    test(`the Conditions section (${theme}, ${width} px) has no serious or critical axe violations`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.addInitScript(([key, isDark]) => localStorage.setItem(key, String(isDark)), [
        STORAGE_KEYS.darkMode,
        theme === 'dark',
      ] as const);
      await signInAs(page, DEMO_ADMIN);
      await page.goto('/packages/builder');
      const dialog = await openConditions(page);
      await dialog.getByTestId('step-conditions').scrollIntoViewIfNeeded();
      await page.waitForFunction(() =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      );
      if (shots) {
        await dialog
          .getByTestId('step-conditions')
          .screenshot({ path: `${shots}/conditions-${width}-${theme}.png` });
        await page.screenshot({ path: `${shots}/editor-${width}-${theme}.png` });
      }
      const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
      const blocking = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          rule: v.id,
          help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
        }));
      expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
    });
  }
}
