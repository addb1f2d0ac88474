import { expect, test } from '@playwright/test';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { ListData } from '@outpost/contract/envelope';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { apiGet } from '../devices/api';
import { createCmdPackage, getJob, uniqueName } from './api';

// docs/product/rollouts.md#waves, #gates, #rollout-actions: a 3-wave rollout made in the deploy dialog on the
// simulated demo fleet halts by itself when too many devices of a wave fail; after the package is
// fixed, resuming with the package's current steps starts the next wave.

/**
 * A command the simulated devices fail on about 20 % of the machines (the `sim-fail=N%` marker,
 * docs/product/rollouts.md#waves "Simulator").
 */
const FAIL_SHARE_COMMAND = 'echo Installing & rem sim-fail=20%';
/** What the fixed package runs instead: an unconditional `exit 0` always succeeds in the simulator. */
const FIXED_COMMAND = 'exit 0';

test('a rollout halts by itself, and resuming with the fixed package starts the next wave', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const { request } = page;
  const auth = { authorization: `Bearer ${session.token}` };

  // every connected Windows device of the demo, as one group
  const groupName = uniqueName('Rollout fleet');
  const group = await request.post('/api/customer/groups', {
    headers: auth,
    data: {
      name: groupName,
      kind: 'dynamic',
      filter: { match: 'all', conditions: [{ field: 'os_type', op: 'is', value: 'windows' }] },
    },
  });
  expect(group.ok(), await group.text()).toBe(true);
  const groupId = ((await group.json()) as { data: { id: number } }).data.id;
  const packageName = uniqueName('Rollout flaky');
  const packageId = await createCmdPackage(request, session.token, packageName, [
    { name: 'Install', command: FAIL_SHARE_COMMAND },
  ]);

  // the deploy dialog: the group, the package, and three waves 20 % → 50 % → 100 %
  await page.goto(`/groups/${groupId}`);
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const deploy = page.getByRole('dialog', { name: 'Deploy Package' });
  const packages = deploy.getByRole('group', { name: 'Packages' });
  await packages.getByRole('searchbox').fill(packageName);
  await packages
    .getByRole('list', { name: 'Available packages' })
    .getByRole('checkbox', { name: packageName })
    .check();
  await packages.getByRole('button', { name: 'Add', exact: true }).click();
  const section = deploy.getByRole('region', { name: 'Rollout' });
  await section.getByRole('button', { name: /Rollout/ }).click();
  await section.getByRole('switch', { name: 'Deploy in waves' }).click();
  await section.getByRole('spinbutton', { name: /^Wave 1:/ }).fill('20');
  await section.getByRole('spinbutton', { name: /^Wave 2:/ }).fill('50');
  await expect(section.getByTestId('rollout-wave')).toHaveCount(3);
  await expect(section.getByLabel('Minimum success (%)')).toHaveValue('95');
  await section.getByLabel('Soak time (minutes)').fill('0');
  await deploy.getByRole('button', { name: 'Deploy Now' }).click();
  await expect(page.locator('[data-toast-type]').filter({ hasText: 'Deployment created' })).toBeVisible();

  const jobs = await apiGet<ListData<DeploymentJob>>(
    request,
    session.token,
    '/api/customer/deployments?limit=5',
  );
  const job = jobs.data.find((j) => j.package_name === packageName);
  expect(job, 'the rollout job was created').toBeDefined();
  const created = await getJob(request, session.token, job!.id);
  expect(created.rollout?.waves.map((w) => w.percent)).toEqual([20, 50, 100]);

  // it halts by itself: the toast says why, the card says Halted
  await page.goto(`/deployments/${job!.id}`);
  const card = page.getByTestId('rollout-card');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('rollout-state')).toHaveText('Halted', { timeout: 150_000 });
  await expect(
    page
      .locator('[data-toast-type="error"]')
      .filter({ hasText: 'Rollout Halted' })
      .filter({ hasText: packageName }),
  ).toBeVisible();
  await expect(card.getByTestId('rollout-reason')).toBeVisible();
  const halted: DeploymentJobDetail = await getJob(request, session.token, job!.id);
  const haltedWave = halted.rollout!.current_wave;
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Rollout halted');
  // the list says so beside the status
  await page.goto('/deployments');
  await expect(page.getByText('Rollout halted').first()).toBeVisible();

  // fix the package, then resume with its current steps
  const { steps } = await apiGet<{ steps: { id: number }[] }>(
    request,
    session.token,
    `/api/customer/deployment-packages/${packageId}`,
  );
  const fixed = await request.put(`/api/customer/deployment-packages/${packageId}/steps/${steps[0]!.id}`, {
    headers: auth,
    data: {
      step_name: 'Install',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: FIXED_COMMAND }),
      fail_deployment_on_error: true,
      retry_count: 0,
      timeout_seconds: 300,
    },
  });
  expect(fixed.ok(), await fixed.text()).toBe(true);
  await page.goto(`/deployments/${job!.id}`);
  await card.getByRole('button', { name: 'Resume' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resume rollout?' });
  await confirm.getByRole('checkbox', { name: "Use the package's current steps" }).check();
  await confirm.getByRole('button', { name: 'Resume Rollout' }).click();
  await expect(card.getByTestId('rollout-state')).not.toHaveText('Halted');

  // the next wave starts (a halt in the last wave has none: the rollout then runs on to its end)
  const rows = card.getByTestId('rollout-wave-row');
  if (haltedWave < halted.rollout!.waves.length - 1) {
    await expect(rows.nth(haltedWave + 1)).not.toHaveAttribute('data-wave-state', 'waiting', {
      timeout: 120_000,
    });
    const next = halted.rollout!.waves[haltedWave + 1]!;
    await expect(page.getByRole('list', { name: 'Timeline' })).toContainText(`${next.name} started`);
  } else {
    await expect(card.getByTestId('rollout-state')).toHaveText(/Running|Completed/);
  }
});
