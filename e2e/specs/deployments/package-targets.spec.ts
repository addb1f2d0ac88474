import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { packageMessages } from '@outpost/contract/messages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { onlineDevices } from '../devices/api';
import { createCmdPackage, uniqueName } from './api';

// Packages reach only devices they are built for (docs/architecture.md "Package targets"): the
// deploy dialog leaves devices of another OS out and says so, and the server refuses them (409).
// The demo fleet is simulated Windows PCs and Macs; it has no Linux device.

async function openDialogWith(page: Page, packageName: string) {
  await page.goto('/deployments');
  await page.getByRole('button', { name: 'New Deployment' }).click();
  const packages = page.getByRole('dialog').getByRole('group', { name: 'Packages' });
  await packages.getByRole('searchbox').fill(packageName);
  await packages
    .getByRole('list', { name: 'Available packages' })
    .getByRole('checkbox', { name: packageName })
    .check();
  await packages.getByRole('button', { name: 'Add', exact: true }).click();
  return page.getByRole('dialog').getByRole('group', { name: 'Devices' });
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) {
    await page.screenshot({ path: `${dir}/${name}.png` });
  }
}

test('a Windows package is never offered to a Mac, nor a Linux package to a Windows PC', async ({ page }) => {
  test.setTimeout(90_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const online = await onlineDevices(page.request, session.token);
  const mac = online.find((d) => d.os_type === 'macos');
  const pc = online.find((d) => d.os_type === 'windows');
  expect(mac && pc, 'the demo has a connected Mac and a connected Windows PC').toBeTruthy();

  const windowsName = uniqueName('E2E Windows only');
  const windowsId = await createCmdPackage(page.request, session.token, windowsName, [
    { name: 'Hello', command: 'echo hello' },
  ]);
  let devices = await openDialogWith(page, windowsName);
  await expect(devices.getByTestId('devices-left-out')).toContainText(
    /devices? left out: .*macOS.*, this package targets Windows/,
  );
  await devices.getByRole('searchbox').fill(mac!.hostname!);
  await expect(devices.getByRole('checkbox', { name: mac!.hostname! })).toHaveCount(0);
  await devices.getByRole('searchbox').fill(pc!.hostname!);
  await expect(devices.getByRole('checkbox', { name: pc!.hostname! })).toHaveCount(1);
  await devices.getByRole('searchbox').fill('');
  await shoot(page, 'deploy-dialog-windows-1440-light');
  await page.keyboard.press('Escape');

  const linuxName = uniqueName('E2E Linux only');
  await createCmdPackage(
    page.request,
    session.token,
    linuxName,
    [{ name: 'Hello', command: 'echo hello' }],
    'linux',
  );
  devices = await openDialogWith(page, linuxName);
  await expect(devices.getByTestId('devices-left-out')).toContainText('this package targets Linux');
  await devices.getByRole('searchbox').fill(pc!.hostname!);
  await expect(devices.getByRole('checkbox', { name: pc!.hostname! })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // the server refuses what the dialog does not offer, naming the device
  const refused = await page.request.post('/api/customer/deployments', {
    headers: { authorization: `Bearer ${session.token}` },
    data: { package_id: windowsId, device_ids: [mac!.id], job_name: 'Mac' },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({
    success: false,
    code: 'DEVICE_OS_MISMATCH',
    error: packageMessages.deployWrongOs('Windows', [mac!.hostname!]),
  });
});
