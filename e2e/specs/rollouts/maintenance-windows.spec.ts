import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import type { MaintenanceWindow } from '@outpost/contract/maintenance-windows';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { useTheme } from '../a11y/routes';
import { apiGet } from '../devices/api';
import { createCmdPackage, getJob, pickDevices, uniqueName } from '../deployments/api';

// docs/product/rollouts.md#maintenance-windows: a site's window set in the Sites page; a
// deployment "only inside maintenance windows" (created through the API) holds that site's devices
// until the window opens; the site's and a group's window lists, light and dark, wide and phone.

/** A weekday three days from today (UTC): whatever the site's zone, the window is not open now. */
const farDay = () => (new Date().getUTCDay() + 3) % 7;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAYS = [1, 2, 3, 4, 5];

async function axe(page: Page) {
  // contrast is judged on a dialog at rest, not halfway through its fade-in (endless animations,
  // such as a spinner, are not waited for)
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  }
}

test('a window set on a site holds its devices of a window-only deployment until it opens', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const session = await signInAs(page, DEMO_ADMIN);
  // a device whose site and groups have no window yet: the demo's Headquarters window and the
  // pilot ring's would otherwise open first (or be open now)
  const windowed = await apiGet<MaintenanceWindow[]>(
    page.request,
    session.token,
    '/api/customer/maintenance-windows',
  );
  const windowSites = new Set(windowed.map((w) => w.site_id));
  const candidates = (await pickDevices(page.request, session.token, 8, 6)).filter(
    (d) => !windowSites.has(d.site_id) && !(d.tags ?? []).some((t) => t.name === 'Pilot ring'),
  );
  const device = candidates.at(-1);
  expect(device?.site_id).toBeTruthy();
  const siteName = device!.site_name!;

  await page.goto('/sites');
  await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `Maintenance windows of ${siteName}` }).click();
  const list = page.getByRole('dialog', { name: `Maintenance windows · ${siteName}` });
  await expect(list).toBeVisible();
  await list.getByRole('button', { name: 'Add window' }).click();
  const form = page.getByRole('dialog', { name: 'Add maintenance window' });
  await form.getByLabel('Name').fill('Far nights');
  // the default is Mon–Fri: leave only the far day on
  for (const day of WEEKDAYS) {
    await form.getByRole('button', { name: DAY_NAMES[day]!, exact: true }).click();
  }
  await form.getByRole('button', { name: DAY_NAMES[farDay()]!, exact: true }).click();
  await form.getByLabel('Start time').fill('12:00');
  await form.getByLabel('Hours').fill('1');
  await form.getByRole('button', { name: 'Add Window' }).click();
  await expect(form).toBeHidden();
  const row = list.getByTestId('maintenance-window').filter({ hasText: 'Far nights' });
  await expect(row).toContainText('12:00 for 1 h');
  await expect(row).toContainText(/Next: \w{3} 12:00 \(in \d+ [hd]\)/);
  await axe(page);
  await list.getByRole('button', { name: 'Close' }).last().click();

  const windows = await apiGet<MaintenanceWindow[]>(
    page.request,
    session.token,
    `/api/customer/maintenance-windows?site_id=${device!.site_id}`,
  );
  expect(windows.map((w) => w.name)).toContain('Far nights');

  const pkg = await createCmdPackage(page.request, session.token, uniqueName('E2E window'), [
    { name: 'Hello', command: 'echo hello' },
  ]);
  const res = await page.request.post('/api/customer/deployments', {
    headers: { authorization: `Bearer ${session.token}` },
    data: {
      package_id: pkg,
      device_ids: [device!.id],
      job_name: uniqueName('Window job'),
      only_in_windows: true,
    },
  });
  expect(res.ok()).toBe(true);
  const jobId = ((await res.json()) as { data: { id: number } }).data.id;
  await expect
    .poll(async () => (await getJob(page.request, session.token, jobId)).deployments[0]?.hold, {
      timeout: 20_000,
    })
    .toBe('window');
  const held = (await getJob(page.request, session.token, jobId)).deployments[0]!;
  expect(held.hold_note).toMatch(/^Waiting for its maintenance window \(opens \w{3} 12:00 /);
  expect(held.status).toBe('pending');
  await page.goto(`/deployments/${jobId}`);
  await expect(page.getByText(String(device!.hostname)).first()).toBeVisible();
  // the device row says why it waits
  await expect(page.getByText('Waiting for window').first()).toBeVisible();
  // the timeline says when the window opens, and so does the device's step log
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText(
    /Waiting for window: opens \w{3} 12:00 .+ \(1 device\)/,
  );
  await page
    .getByTestId('device-deployment-row')
    .getByRole('button', { name: /Step logs for/ })
    .click();
  await expect(page.getByRole('dialog').getByTestId('hold-banner')).toContainText(
    /Waiting for window · Waiting for its maintenance window \(opens \w{3} 12:00 /,
  );
});

for (const theme of ['light', 'dark'] as const) {
  for (const width of [1440, 390]) {
    test(`the site's and a group's window lists (${theme}, ${width} px)`, async ({ page }) => {
      test.setTimeout(150_000);
      await useTheme(page, theme);
      await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
      const session = await signInAs(page, DEMO_ADMIN);
      const groupRes = await page.request.post('/api/customer/groups', {
        headers: { authorization: `Bearer ${session.token}` },
        data: { name: uniqueName('Window group'), kind: 'static' },
      });
      const group = ((await groupRes.json()) as { data: { id: number } }).data.id;
      for (const body of [
        { name: 'Weeknights', days: WEEKDAYS, start_time: '22:00', duration_minutes: 180 },
        { name: 'Sunday mornings', days: [0], start_time: '06:30', duration_minutes: 90, enabled: false },
      ]) {
        await page.request.post('/api/customer/maintenance-windows', {
          headers: { authorization: `Bearer ${session.token}` },
          data: { ...body, group_id: group },
        });
      }
      await page.goto(`/groups/${group}`);
      const card = page.getByTestId('maintenance-windows-card');
      await expect(card.getByTestId('maintenance-window')).toHaveCount(2);
      await expect(card).toContainText('Mon–Fri · 22:00 for 3 h');
      await axe(page);
      await shoot(page, `group-windows-${theme}-${width}`);

      await page.goto('/sites');
      await page
        .getByRole('button', { name: /^Maintenance windows of / })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: /^Maintenance windows · / });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByText(/^Read in /)).toBeVisible();
      await shoot(page, `site-windows-${theme}-${width}`);
      await dialog.getByRole('button', { name: 'Add window' }).click();
      await expect(page.getByRole('dialog', { name: 'Add maintenance window' })).toBeVisible();
      await axe(page);
      await shoot(page, `site-window-dialog-${theme}-${width}`);
    });
  }
}
