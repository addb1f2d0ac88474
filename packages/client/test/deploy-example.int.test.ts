import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnrollmentToken, eventually, startTestServer } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { startFleet } from '@outpost/agent/sim/fleet';
import type { Fleet } from '@outpost/agent/sim/fleet';
import { createOutpostClient, OutpostApiError, unwrap } from '../src/index';
import type { OutpostClient } from '../src/index';
import { deployToOnlineDevices } from '../examples/deploy';

// The API guide's example (docs/api.md, examples/deploy.ts) against a real server over HTTP, with
// simulated agents (the demo's fleet simulator) on the other side that run the deployment.

describe('the typed client and the API guide example', () => {
  let server: TestServer;
  let fleet: Fleet | null = null;
  let client: OutpostClient;

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    const session = await server.devSignIn('admin@acme.example');
    // The bearer token: an API token an administrator made for automation, with the scopes the
    // example needs (docs/api.md#authentication).
    const created = await server.request<{ data: { token: string } }>('POST', '/api/customer/api-tokens', {
      token: session.token,
      body: {
        name: 'Deploy example',
        scopes: ['devices:read', 'packages:read', 'packages:write', 'deployments:read', 'deployments:write'],
      },
    });
    expect(created.status).toBe(200);
    const token = created.body.data.token;
    expect(token.startsWith('opt_api_')).toBe(true);
    client = createOutpostClient({ baseUrl: server.url, token });
    const enrolment = await createEnrollmentToken(server, session.token);
    fleet = await startFleet({
      server: server.url,
      tokens: [enrolment.token],
      devices: 4,
      seed: 7,
      tickMs: 60_000,
      loginChance: 0,
      disconnectChance: 0,
      failureRate: 0,
      stepDurationMs: { min: 100, max: 200 },
    });
    const guids = new Set(fleet.agents.map((a) => a.deviceGuid));
    await eventually(async () => {
      const page = await unwrap(client.GET('/api/customer/devices', { params: { query: { limit: 100 } } }));
      const ours = page.data.filter((d) => d.device_guid !== null && guids.has(d.device_guid));
      return ours.length === guids.size && ours.every((d) => d.status === 'online') ? ours : null;
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
  });

  it('deploys a package to the online devices of its OS and polls the job until it has ended', async () => {
    const name = `API guide package ${Date.now()}`;
    const pkg = await unwrap(
      client.POST('/api/customer/deployment-packages', { body: { name, target_os: 'windows' } }),
    );
    await unwrap(
      client.POST('/api/customer/deployment-packages/{id}/steps', {
        params: { path: { id: pkg.id } },
        body: { step_name: 'Say hello', step_type: 'CMD', step_details: { command: 'echo hello' } },
      }),
    );
    const windows = fleet!.agents.filter((a) => a.device.facts.osType === 'windows');
    expect(windows.length).toBeGreaterThan(0);

    const seen: string[] = [];
    const job = await deployToOnlineDevices(client, {
      packageName: name,
      jobName: 'From the API guide',
      pollMs: 100,
      timeoutMs: 25_000,
      onProgress: (j) => seen.push(j.status),
    });

    expect(job).toMatchObject({
      name: 'From the API guide',
      package_name: name,
      status: 'completed',
      total_devices: windows.length,
      completed_devices: windows.length,
      failed_devices: 0,
    });
    expect(job.deployments.map((d) => d.device_guid).sort()).toEqual(windows.map((a) => a.deviceGuid).sort());
    expect(seen.at(-1)).toBe('completed');
  });

  it("turns the server's error envelope into an OutpostApiError with its message and code", async () => {
    const missing = unwrap(
      client.GET('/api/customer/deployments/{id}', { params: { path: { id: 2_000_000_000 } } }),
    );
    await expect(missing).rejects.toBeInstanceOf(OutpostApiError);
    await expect(missing).rejects.toMatchObject({ status: 404 });

    // the guide's example of an error (docs/api.md "The typed client")
    await expect(
      unwrap(client.POST('/api/customer/deployments', { body: { package_id: 7, device_ids: [] } })),
    ).rejects.toMatchObject({
      status: 400,
      code: 'DEVICES_REQUIRED',
      message: 'Please select at least one device',
    });

    const anonymous = createOutpostClient({ baseUrl: `${server.url}/`, token: 'not-a-token' });
    await expect(unwrap(anonymous.GET('/api/customer/devices'))).rejects.toMatchObject({
      status: 401,
      code: 'INVALID_SESSION',
    });
  });

  it('asks for a package the server does not have and says so', async () => {
    await expect(
      deployToOnlineDevices(client, { packageName: 'No such package', jobName: 'never' }),
    ).rejects.toThrow('No package is named "No such package"');
  });
});
