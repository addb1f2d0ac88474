import { eq } from 'drizzle-orm';
import type { EnrollmentToken } from '@outpost/contract/agents';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { ListData } from '@outpost/contract/envelope';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { tenants } from '../../db/schema/index';
import { createDemo } from './demo';
import type { Demo } from './demo';
import { DEMO } from './demo.seed';

describe('the embedded demo', () => {
  let server: TestServer;
  let demo: Demo;
  beforeEach(async () => {
    server = await startTestServer({ env: { OUTPOST_DEMO_DEVICES: '3' } });
    demo = createDemo(server.config, server.database, server.app.log);
  });
  afterEach(async () => {
    await demo.stop();
    await server.close();
  });

  it('seeds its tenants once however often it starts', async () => {
    await demo.seed();
    await demo.seed();

    const acme = await server.database.db
      .select()
      .from(tenants)
      .where(eq(tenants.tenantName, DEMO.tenantName));
    expect(acme).toHaveLength(1);
  });

  it('enrols as many devices as asked even past the demo tenant agent limit, raising it', async () => {
    await demo.seed();
    // as with OUTPOST_DEMO_DEVICES above the demo tenant's 100 (the server exited on start)
    await server.database.db
      .update(tenants)
      .set({ maxAgents: 2 })
      .where(eq(tenants.tenantName, DEMO.tenantName));
    await demo.startFleet(server.url);
    const { token } = await server.devSignIn(DEMO.adminEmail);
    const res = await server.request<{ data: ListData<DeviceListItem> }>('GET', '/api/customer/devices', {
      token,
    });
    expect(res.body.data.pagination.total).toBe(3);
    const [acme] = await server.database.db
      .select({ maxAgents: tenants.maxAgents })
      .from(tenants)
      .where(eq(tenants.tenantName, DEMO.tenantName));
    expect(acme?.maxAgents).toBe(3);
  });

  it('runs its fleet, which re-enrols into the same devices with fresh tokens on every start', async () => {
    await demo.seed();
    const { token } = await server.devSignIn(DEMO.adminEmail);
    const deviceGuids = async () => {
      const res = await server.request<{ data: ListData<DeviceListItem> }>('GET', '/api/customer/devices', {
        token,
      });
      return res.body.data.data.map((d) => d.device_guid).sort();
    };
    const demoTokenIds = async () => {
      const res = await server.request<{ data: EnrollmentToken[] }>(
        'GET',
        '/api/customer/agents/enrollment-tokens',
        { token },
      );
      return res.body.data.filter((t) => t.name?.startsWith('Demo fleet')).map((t) => t.id);
    };

    await demo.startFleet(server.url);
    const firstDevices = await deviceGuids();
    const firstTokens = await demoTokenIds();
    await demo.stop();
    await demo.startFleet(server.url);

    expect(firstDevices).toHaveLength(3);
    expect(await deviceGuids()).toEqual(firstDevices);
    const secondTokens = await demoTokenIds();
    expect(secondTokens).toHaveLength(3);
    expect(secondTokens.filter((id) => firstTokens.includes(id))).toEqual([]);

    // a deployment history to look at, made once: finished jobs of the past days, a halted
    // rollout, one due now (the simulated devices run it), one scheduled for later and one run
    // only inside maintenance windows
    const res = await server.request<{ data: ListData<DeploymentJob> }>(
      'GET',
      '/api/customer/deployments?limit=100',
      {
        token,
      },
    );
    const jobs = res.body.data.data;
    expect(jobs).toHaveLength(8);
    expect(jobs.filter((j) => j.rollout_state === 'halted')).toHaveLength(1);
    expect(jobs.filter((j) => j.only_in_windows)).toHaveLength(1);
    const statuses = new Set(jobs.map((j) => j.status));
    expect(statuses.has('completed') && statuses.has('failed')).toBe(true);
    const scheduled = jobs.filter((j) => j.scheduled_at !== null);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({ status: 'pending' });
    expect(new Date(scheduled[0]!.scheduled_at!).getTime()).toBeGreaterThan(Date.now());
  });
});
