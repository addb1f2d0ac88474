import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { packageMessages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { onlineDevices } from '../devices/api';
import { uniqueName } from './api';

// Packages reach only devices that run their architecture (docs/architecture.md "Package
// targets"). The demo's simulated Windows PCs report x64 and its Macs arm64, so an arm64 Windows
// package leaves the PCs out (and the Macs, for their OS) and the server refuses a PC with 409.

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) {
    return;
  }
  for (const [size, viewport] of [
    ['1440', { width: 1440, height: 900 }],
    ['390', { width: 390, height: 844 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${dir}/${name}-${size}-${scheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an arm64 Windows package is not offered to x64 PCs, and the device shows its architecture', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const pc = (await onlineDevices(page.request, session.token)).find((d) => d.os_type === 'windows');
  expect(pc, 'the demo has a connected Windows PC').toBeTruthy();
  expect(pc!.architecture).toBe('x64');

  const name = uniqueName('E2E arm64 only');
  const auth = { authorization: `Bearer ${session.token}` };
  const created = await page.request.post('/api/customer/deployment-packages', {
    headers: auth,
    data: { name, target_os: 'windows', architecture: 'arm64' },
  });
  expect(created.ok()).toBe(true);
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  const step = await page.request.post(`/api/customer/deployment-packages/${id}/steps`, {
    headers: auth,
    data: { step_name: 'Hello', step_type: 'CMD', step_details: { command: 'echo hi' } },
  });
  expect(step.ok()).toBe(true);

  await page.goto('/deployments');
  await page.getByRole('button', { name: 'New Deployment' }).click();
  const packages = page.getByRole('dialog').getByRole('group', { name: 'Packages' });
  await packages.getByRole('searchbox').fill(name);
  await packages.getByRole('list', { name: 'Available packages' }).getByRole('checkbox', { name }).check();
  await packages.getByRole('button', { name: 'Add', exact: true }).click();
  const devices = page.getByRole('dialog').getByRole('group', { name: 'Devices' });
  await expect(devices.getByTestId('devices-left-out')).toContainText(
    /devices? left out: x64, this package is built for arm64/,
  );
  await devices.getByRole('searchbox').fill(pc!.hostname!);
  await expect(devices.getByRole('checkbox', { name: pc!.hostname! })).toHaveCount(0);
  await devices.getByRole('searchbox').fill('');
  await shoot(page, 'deploy-dialog-arch');
  await page.keyboard.press('Escape');

  const refused = await page.request.post('/api/customer/deployments', {
    headers: { authorization: `Bearer ${session.token}` },
    data: { package_id: id, device_ids: [pc!.id], job_name: 'PC' },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({
    code: 'DEVICE_ARCH_MISMATCH',
    error: packageMessages.deployWrongArch('arm64', [`${pc!.hostname!} (x64)`]),
  });

  await page.goto(`/devices/${pc!.device_guid}`);
  await expect(page.getByText('Architecture', { exact: true })).toBeVisible();
  await shoot(page, 'device-overview-arch');
});
