import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';

// Packages reach only devices they are built for (docs/architecture.md "Package targets"): every
// way of creating a job (now or scheduled) refuses a device of another OS with a 409 naming it,
// and a package holds only steps its target runs.

type Envelope<T> = { success: true; data: T };
const PACKAGES = '/api/customer/deployment-packages';
const DEPLOYMENTS = '/api/customer/deployments';

const registryStep = {
  step_name: 'Ring',
  step_type: 'REGISTRY',
  step_details: {
    hive: 'HKEY_LOCAL_MACHINE',
    key_path: 'SOFTWARE\\Acme',
    value_name: 'Ring',
    value_type: 'REG_SZ',
    value_data: 'fast',
  },
};
type StepBody = { step_name: string; step_type: string; step_details: Record<string, unknown> };
const cmdStep: StepBody = { step_name: 'Hello', step_type: 'CMD', step_details: { command: 'echo hello' } };

describe('package targets', () => {
  let server: TestServer;
  let token: string;
  let tenantId: number;
  const ids: Record<string, number> = {};
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer();
    tenantId = (await server.seedDemo())!.acmeTenantId;
    token = (await server.devSignIn('admin@acme.example')).token;
    for (const [hostname, osType] of [
      ['TGT-WIN', 'windows'],
      ['TGT-MAC', 'macos'],
      ['TGT-LINUX', 'linux'],
      ['TGT-UNKNOWN', null],
    ] as const) {
      ids[hostname] = (await insertDevice(server, { tenantId, hostname, osType, status: 'online' })).id;
    }
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<T>(method, path, { token, body });

  async function newPackage(target: 'windows' | 'linux' | undefined, steps: StepBody[] = [cmdStep]) {
    const res = await call<Envelope<PackageDetail>>('POST', PACKAGES, {
      name: `Target test ${++seq}`,
      ...(target && { target_os: target }),
    });
    expect(res.status).toBe(200);
    for (const s of steps) {
      expect((await call('POST', `${PACKAGES}/${res.body.data.id}/steps`, s)).status).toBe(200);
    }
    return (await call<Envelope<PackageDetail>>('GET', `${PACKAGES}/${res.body.data.id}`)).body.data;
  }

  const deploy = (packageId: number, hostnames: string[], scheduledAt?: string) =>
    call<Envelope<DeploymentJob> | ApiErrorBody>('POST', DEPLOYMENTS, {
      package_id: packageId,
      device_ids: hostnames.map((h) => ids[h]),
      job_name: 'Targets',
      ...(scheduledAt && { scheduled_at: scheduledAt }),
    });

  it('a package is Windows by default and may be Linux; macOS is refused as future', async () => {
    expect((await newPackage(undefined)).target_os).toBe('windows');
    expect((await newPackage('linux')).target_os).toBe('linux');
    const mac = await call<ApiErrorBody>('POST', PACKAGES, { name: 'Mac', target_os: 'macos' });
    expect(mac.status).toBe(400);
    expect(mac.body.error).toBe(packageMessages.targetOsWindowsOnly);
  });

  it('refuses a Windows package for a Mac with 409 naming the device, now and scheduled', async () => {
    const pkg = await newPackage('windows');
    const now = await deploy(pkg.id, ['TGT-WIN', 'TGT-MAC', 'TGT-UNKNOWN']);
    expect(now.status).toBe(409);
    expect(now.body).toMatchObject({
      success: false,
      code: 'DEVICE_OS_MISMATCH',
      error: packageMessages.deployWrongOs('Windows', ['TGT-MAC', 'TGT-UNKNOWN']),
    });
    const later = await deploy(pkg.id, ['TGT-MAC'], new Date(Date.now() + 3_600_000).toISOString());
    expect(later.status).toBe(409);
    expect((later.body as ApiErrorBody).code).toBe('DEVICE_OS_MISMATCH');
    expect((await deploy(pkg.id, ['TGT-WIN'])).status).toBe(200);
  });

  it('deploys a Linux package to Linux devices only', async () => {
    const pkg = await newPackage('linux');
    const wrong = await deploy(pkg.id, ['TGT-LINUX', 'TGT-WIN']);
    expect(wrong.status).toBe(409);
    expect((wrong.body as ApiErrorBody).error).toBe(packageMessages.deployWrongOs('Linux', ['TGT-WIN']));
    expect((await deploy(pkg.id, ['TGT-LINUX'])).status).toBe(200);
  });

  it('keeps Windows-only steps out of a Linux package', async () => {
    const pkg = await newPackage('linux');
    const added = await call<ApiErrorBody>('POST', `${PACKAGES}/${pkg.id}/steps`, registryStep);
    expect(added.status).toBe(409);
    expect(added.body).toMatchObject({
      code: 'STEP_TARGET_MISMATCH',
      error: packageMessages.stepNotForTarget('Registry', 'Linux'),
    });
    const stepId = pkg.steps[0]!.id;
    const changed = await call<ApiErrorBody>('PUT', `${PACKAGES}/${pkg.id}/steps/${stepId}`, registryStep);
    expect(changed.status).toBe(409);

    const win = await newPackage('windows', [cmdStep, registryStep]);
    const moved = await call<ApiErrorBody>('PUT', `${PACKAGES}/${win.id}`, {
      name: win.name,
      target_os: 'linux',
    });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({
      code: 'PACKAGE_TARGET_MISMATCH',
      error: packageMessages.targetHasWindowsOnlySteps('Linux', ['2. Ring']),
    });
    const plain = await newPackage('windows');
    const ok = await call<Envelope<PackageDetail>>('PUT', `${PACKAGES}/${plain.id}`, {
      name: plain.name,
      target_os: 'linux',
    });
    expect(ok.body.data.target_os).toBe('linux');
  });

  it('refuses to import a Linux package with a Windows-only step', async () => {
    const res = await call<ApiErrorBody>('POST', `${PACKAGES}/import`, {
      format: 'outpost.package',
      version: 1,
      package: { name: 'Imported', target_os: 'linux' },
      steps: [cmdStep, registryStep],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(packageMessages.targetHasWindowsOnlySteps('Linux', ['Ring']));
  });
});
