import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { onlineDevices } from '../devices/api';

// docs/product/remote-access.md#terminal: the Terminal tab of a connected demo device (the
// simulator answers with its small fake shell; the real agent's pseudo-terminal is covered by the
// integration tests): connect, type a command and see its output, disconnect, then replay the
// recording from the Sessions list. Both pass axe. With SHOTS_DIR set it also saves screenshots at
// 1440 and 390 px, light and dark.

const SHOTS = process.env.SHOTS_DIR;
const word = `hello-${Date.now().toString(36)}`;

/** The demo's alerts raise toasts now and then; they sit over the page's actions. */
async function dismissToasts(page: Page) {
  for (const button of await page
    .locator('[data-toast-type]')
    .getByRole('button', { name: 'Dismiss' })
    .all()) {
    await button.click({ timeout: 2000 }).catch(() => undefined);
  }
}

async function shot(page: Page, name: string) {
  if (!SHOTS) {
    return;
  }
  for (const dark of [false, true]) {
    await page.evaluate(
      ([key, value]) => {
        localStorage.setItem(key, value);
        document.documentElement.classList.toggle('dark', value === 'true');
      },
      [STORAGE_KEYS.darkMode, String(dark)] as const,
    );
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForTimeout(300);
      await dismissToasts(page);
      await page.screenshot({
        path: `${SHOTS}/${name}-${width}-${dark ? 'dark' : 'light'}.png`,
        fullPage: false,
      });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate((key) => {
    localStorage.setItem(key, 'false');
    document.documentElement.classList.remove('dark');
  }, STORAGE_KEYS.darkMode);
}

test('opens a terminal on a device, runs a command, and replays the recording', async ({ page }) => {
  const { token } = await signInAs(page, DEMO_ADMIN);
  const [device] = (await onlineDevices(page.request, token)).filter((d) => d.os_type !== 'windows');
  expect(device, 'a connected demo device').toBeTruthy();
  await page.goto(`/devices/${device!.device_guid}?tab=terminal`);
  await expect(page.getByRole('tab', { name: 'Terminal' })).toHaveAttribute('aria-selected', 'true');
  await dismissToasts(page);
  await page.getByRole('button', { name: 'Connect' }).click();
  const status = page.getByTestId('terminal-status');
  await expect(status).toHaveText(/Connected/);

  const screen = page.getByTestId('terminal-screen');
  await screen.click();
  await page.keyboard.type(`echo ${word}`);
  await page.keyboard.press('Enter');
  const rows = screen.locator('.xterm-rows');
  await expect(rows).toContainText(`echo ${word}`);
  await expect.poll(async () => ((await rows.textContent()) ?? '').split(word).length - 1).toBe(2);
  await page.keyboard.type('stty size');
  await page.keyboard.press('Enter');
  await expect(rows).toContainText(/\d+ \d+/);

  const axe = await new AxeBuilder({ page }).exclude('.xterm-helper-textarea').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
  await shot(page, 'terminal-tab');

  await dismissToasts(page);
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(status).toHaveText(/Ended: Disconnected/);

  const sessions = page.getByRole('table', { name: 'Terminal sessions' });
  await expect(sessions.getByRole('row').nth(1)).toContainText('Disconnected');
  await dismissToasts(page);
  await sessions.getByRole('row').nth(1).getByRole('button', { name: 'Replay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay terminal session' });
  await expect(dialog.getByTestId('replay-screen')).toContainText(`echo ${word}`);
  await expect(dialog.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 15_000 });
  const dialogAxe = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .exclude('.xterm-helper-textarea')
    .analyze();
  expect(dialogAxe.violations.map((v) => v.id)).toEqual([]);
  await shot(page, 'terminal-replay');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download .cast' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.cast$/);
});
