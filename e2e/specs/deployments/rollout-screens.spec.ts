import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import type { Rollout, RolloutWave } from '@outpost/contract/rollouts';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// The rollout screens as they look (docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog, #waves):
// the deploy dialog's rollout section, and a deployment's page with a halted rollout whose
// details come from a stubbed answer, so every state is on screen at once. SHOTS_DIR keeps
// screenshots at 1440 and 390 px, light and dark.

const JOB_ID = 987_654;
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

const wave = (index: number, over: Partial<RolloutWave>): RolloutWave => ({
  index,
  name: `Wave ${index + 1}`,
  group_id: null,
  percent: [5, 25, 100][index] ?? 100,
  gate: { min_finished_percent: 90, min_success_percent: 95, soak_minutes: 15 },
  state: 'waiting',
  total_devices: 0,
  completed_devices: 0,
  failed_devices: 0,
  finished_devices: 0,
  started_at: null,
  gate_met_at: null,
  soak_until: null,
  passed_at: null,
  gate_skipped_reason: null,
  gate_skipped_by_name: null,
  ...over,
});

const rollout: Rollout = {
  mode: 'percent',
  state: 'halted',
  current_wave: 1,
  state_reason: 'Wave 2: 2 of 15 devices failed (more than 5 %): the rollout halted by itself',
  state_changed_at: at(3),
  waves: [
    wave(0, {
      state: 'passed',
      total_devices: 3,
      completed_devices: 3,
      finished_devices: 3,
      started_at: at(42),
      gate_met_at: at(38),
      passed_at: at(23),
    }),
    wave(1, {
      state: 'halted',
      total_devices: 15,
      completed_devices: 9,
      failed_devices: 2,
      finished_devices: 11,
      started_at: at(23),
    }),
    wave(2, { total_devices: 42 }),
  ],
};

const device = (id: number, over: Record<string, unknown>) => ({
  id,
  device_guid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  agent_id: null,
  hostname: `WS-${String(id).padStart(3, '0')}`,
  ip_address: `10.20.0.${id}`,
  status: 'pending',
  current_step_order: null,
  current_step_name: null,
  started_at: null,
  completed_at: null,
  error_message: null,
  reboot_required: false,
  ...over,
});

const detail = {
  id: JOB_ID,
  name: 'Chrome 131 — staged rollout',
  description: 'Browser security update, change CHG-2291',
  status: 'running',
  package_id: 1,
  package_name: 'Google Chrome 131',
  created_by_name: 'Alex Morgan',
  created_at: at(45),
  scheduled_at: null,
  started_at: at(42),
  completed_at: null,
  total_devices: 60,
  completed_devices: 12,
  failed_devices: 2,
  rollout_state: 'halted',
  rollout,
  steps: [
    {
      step_order: 1,
      step_name: 'Install',
      step_type: 'CMD',
      timeout_seconds: 300,
      retry_count: 0,
      fail_deployment_on_error: true,
    },
  ],
  deployments: [
    device(1, { status: 'completed', wave_index: 0, started_at: at(42), completed_at: at(40) }),
    device(2, {
      status: 'failed',
      wave_index: 1,
      started_at: at(22),
      completed_at: at(21),
      error_message: 'Install exited with code 1603',
    }),
    device(3, {
      wave_index: 1,
      hold: 'halted',
      hold_note: 'Held: the rollout halted at wave 2',
    }),
    device(4, {
      wave_index: 1,
      hold: 'window',
      hold_until: new Date(Date.now() + 2 * 3600_000).toISOString(),
      hold_note: 'Waits for its maintenance window (Nightly, 22:00–04:00)',
    }),
    device(5, { wave_index: 2, hold: 'wave' }),
  ],
} as unknown as DeploymentJobDetail;

// screenshots at two widths in two themes take a while on a busy machine
test.beforeEach(() => test.setTimeout(process.env.SHOTS_DIR ? 240_000 : 90_000));

async function stubJob(page: Page) {
  await page.route(`**/api/customer/deployments/${JOB_ID}`, (route) =>
    route.fulfill({ json: { success: true, data: detail } }),
  );
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) {
    return;
  }
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate(
        (dark) => document.documentElement.classList.toggle('dark', dark),
        theme === 'dark',
      );
      await page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the deploy dialog has a Rollout section, collapsed and off until opened', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/packages');
  await page
    .getByTestId('package-row')
    .first()
    .getByRole('button', { name: /^Deploy/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Deploy Package' });
  const section = dialog.getByRole('region', { name: 'Rollout' });
  const toggle = section.getByRole('button', { name: /Rollout/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toContainText('Off: all devices at once');
  await toggle.click();
  await section.getByRole('switch', { name: 'Deploy in waves' }).click();
  await expect(section.getByTestId('rollout-wave')).toHaveCount(3);
  await expect(section.getByTestId('gate-sentence')).toContainText('at least 95 % succeeded');
  await section.getByLabel('Soak time (minutes)').fill('15');
  await section.getByRole('checkbox', { name: 'Run only inside maintenance windows' }).check();
  await expect(toggle).toContainText('5 % → 25 % → 100 % · inside maintenance windows');
  await section.scrollIntoViewIfNeeded();
  await shoot(page, 'deploy-dialog-rollout');
  await section.getByRole('radio', { name: /By groups/ }).check();
  await expect(section.getByText(/devices that are in none of these groups/)).toBeVisible();
  await shoot(page, 'deploy-dialog-rollout-groups');
});

test("a deployment's page shows its rollout: state, waves, actions, holds and timeline", async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await stubJob(page);
  await page.goto(`/deployments/${JOB_ID}`);
  // the built app loads first (slow on a busy machine)
  await expect(page.getByRole('heading', { name: detail.name })).toBeVisible({ timeout: 30_000 });
  const card = page.getByTestId('rollout-card');
  await expect(card.getByTestId('rollout-state')).toHaveText('Halted');
  await expect(card.getByTestId('rollout-reason')).toContainText('the rollout halted by itself');
  await expect(card.getByTestId('rollout-wave-row')).toHaveCount(3);
  await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Abort Rollout' })).toBeVisible();
  await expect(page.getByTestId('device-hold')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Rollout halted');
  await shoot(page, 'deployment-rollout');
  await card.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('dialog', { name: 'Resume rollout?' })).toBeVisible();
  await shoot(page, 'deployment-rollout-resume');
});
