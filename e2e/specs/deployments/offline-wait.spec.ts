import { expect, test } from '@playwright/test';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, DEMO_TECH } from '../../fixtures/env';
import { listDevices } from '../devices/api';
import { createJob, getJob, uniqueName } from './api';
import { wireAgent } from '../../fixtures/wire-agent';

// docs/architecture.md, "Devices a job waits for": a device that went offline mid-job is shown
// with since when and until when the job waits, its step's passed timeout is marked, and an
// administrator fails it now from the details.

test('a device gone offline mid-job says what the job waits for, and the administrator fails it now', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await signInAs(page, DEMO_ADMIN);
  const { request } = page;
  const auth = { authorization: `Bearer ${admin.token}` };
  const hostname = uniqueName('away').replace(/\s/g, '-');
  const agent = await wireAgent(request, admin.token, hostname);
  const [device] = await listDevices(request, admin.token, `search=${hostname}`);

  const pkg = await request.post('/api/customer/deployment-packages', {
    headers: auth,
    data: { name: uniqueName('Offline wait') },
  });
  const pkgId = ((await pkg.json()) as { data: { id: number } }).data.id;
  await request.post(`/api/customer/deployment-packages/${pkgId}/steps`, {
    headers: auth,
    data: {
      step_name: 'Install',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'setup.exe /quiet' }),
      timeout_seconds: 1,
    },
  });
  const job = await createJob(request, admin.token, {
    package_id: pkgId,
    device_ids: [device!.id],
    job_name: uniqueName('Waits for an offline device'),
  });
  await agent.startStep(await agent.takeWork());
  agent.close();
  // the step's 1 s timeout passes while the agent is away
  await expect
    .poll(
      async () =>
        (await getJob(request, admin.token, job.id)).deployments[0]?.offline_wait?.step_timeout_passed_at,
    )
    .toBeTruthy();

  await page.goto(`/deployments/${job.id}`);
  await expect(page.getByTestId('waiting-summary')).toContainText('1 waiting for offline device');
  const note = page.getByTestId('offline-wait');
  await expect(note).toContainText('Offline since');
  await expect(note).toContainText(/will resume when it reconnects \(expires in (23 hours|1 day)\)/);
  await expect(note).toContainText('Timed out while offline');
  await expect(note).toContainText(/timeout passed (just now|\d+ minutes? ago), waiting for the agent/);

  // a regular user sees the wait, not the actions
  const techContext = await browser.newContext();
  const techPage = await techContext.newPage();
  await signInAs(techPage, DEMO_TECH);
  await techPage.goto(`/deployments/${job.id}`);
  // a fresh context loads the app first (slow on a busy machine)
  await expect(techPage.getByRole('heading', { name: job.name })).toBeVisible({ timeout: 30_000 });
  await expect(techPage.getByTestId('offline-wait')).toContainText('Offline since');
  await expect(techPage.getByRole('button', { name: `Fail ${hostname} now` })).toHaveCount(0);
  await expect(techPage.getByTestId('waiting-summary')).toContainText(
    'An administrator can fail or cancel them now.',
  );
  await techContext.close();

  await page.getByRole('button', { name: `Fail ${hostname} now` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Fail ${hostname} now?`);
  await dialog.getByRole('button', { name: 'Fail Device' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('device-deployment-row');
  await expect(row).toContainText(messages.failedWhileOffline('Alex Morgan'));
  await expect(row).toContainText('Failed');
  await expect(page.getByTestId('offline-wait')).toHaveCount(0);
  await expect(page.getByTestId('waiting-summary')).toHaveCount(0);
  const after: DeploymentJobDetail = await getJob(request, admin.token, job.id);
  expect(after.status).toBe('failed');
});
