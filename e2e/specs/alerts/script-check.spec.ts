import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, E2E_BASE_URL } from '../../fixtures/env';

// docs/product/monitoring.md#checks and #alerts: a monitoring policy's script check fails on a
// simulated device (the fleet simulator, a real agent protocol client, in its own process); its
// alert appears live on the Alerts page and in the dashboard's Open Alerts tile, and is
// acknowledged. The policy targets a site of its own, so no other test's device runs it.

const repoRoot = path.join(import.meta.dirname, '..', '..', '..');
type Envelope<T> = { success: true; data: T };

let sim: ChildProcess | null = null;
test.afterEach(() => {
  sim?.kill('SIGKILL');
  sim = null;
});

test('a failing script check on a simulated device opens a critical alert, live, and it is acknowledged', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const auth = { authorization: `Bearer ${session.token}` };
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const site = await page.request.post('/api/customer/sites', {
    headers: auth,
    data: { site_name: `Checks ${suffix}`, site_code: `C${suffix.slice(-5)}`.toUpperCase() },
  });
  expect(site.status(), await site.text()).toBe(200);
  const siteId = ((await site.json()) as Envelope<{ id: number }>).data.id;
  const checkName = `Nightly backup ${suffix}`;
  const policy = await page.request.post('/api/customer/monitoring-policies', {
    headers: auth,
    data: {
      name: `Backups ${suffix}`,
      target_type: 'site',
      site_id: siteId,
      checks: [
        {
          name: checkName,
          config: {
            type: 'script',
            shell: 'powershell',
            script: 'Write-Output "no backup since Monday"; exit 2',
          },
          severity: 'critical',
        },
      ],
    },
  });
  expect(policy.status(), await policy.text()).toBe(200);
  const enrolment = await page.request.post('/api/customer/agents/enrollment-tokens', {
    headers: auth,
    data: { site_id: siteId },
  });
  const { token } = ((await enrolment.json()) as Envelope<{ token: string }>).data;

  await page.goto('/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await expect(page.getByLabel(/^Loading/)).toHaveCount(0);

  // one simulated device in that site: it gets the check, runs it within seconds, reports failing
  sim = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'packages/agent/src/sim/main.ts'),
      '--server',
      E2E_BASE_URL,
      '--token',
      token,
      '--devices',
      '1',
      '--seed',
      String(Date.now() % 100_000),
      '--login-chance',
      '0',
      '--disconnect-chance',
      '0',
    ],
    { cwd: repoRoot, stdio: 'ignore' },
  );

  const row = page.getByTestId('alert-row').filter({ hasText: checkName });
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row).toHaveAttribute('data-state', 'open');

  await page.goto('/');
  const tile = page.getByTestId('open-alerts-tile');
  await expect(tile.locator('[data-severity="critical"] dd')).not.toHaveText('0');

  await page.goto('/alerts');
  await row.getByRole('button', { name: /^View / }).click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByTestId('alert-detail')).toContainText('exited with code 2');
  await detail.getByLabel('Note').fill('Backup server is being replaced');
  await detail.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(detail.locator('blockquote')).toHaveText('Backup server is being replaced');
  await detail.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(row).toHaveAttribute('data-state', 'acknowledged');
});
