import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import type { FleetSoftwareResponse } from '@outpost/contract/software';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { rowsOf } from '../../lib/db';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// The fleet software counts (software_versions) stay those of the stored software through every
// change: inventories adding, removing and upgrading titles, device deletion, a re-enrolment into
// another site and a site's deletion (docs/product/device-sets.md#fleet-software).

type Title = { name: string; version: string; publisher?: string };
type Agent = { socket: AgentSocket; guid: string; secret: string; id: number; sent: number };

describe('fleet software counts', () => {
  let server: TestServer;
  let admin: string;
  let acme: number;
  let hq: number;
  let lon: number;

  const counts = async () =>
    rowsOf<{ site_key: number; name: string; version: string; n: number }>(
      await server.database.db.execute(sql`
        select site_key, name, version, device_count as n from software_versions
        where tenant_id = ${acme} order by 1, 2, 3`),
    );
  /** What the counts must be: device_software grouped by site, title and version. */
  const expected = async () =>
    rowsOf<{ site_key: number; name: string; version: string; n: number }>(
      await server.database.db.execute(sql`
        select coalesce(d.site_id, 0) as site_key, s.name, s.version, count(*)::int as n
        from device_software s join devices d on d.id = s.device_id
        where s.tenant_id = ${acme} group by 1, 2, 3 order by 1, 2, 3`),
    );
  const expectExact = async () => {
    expect(await counts()).toEqual(await expected());
  };
  const titles = async () => {
    const r = await server.request<{ data: FleetSoftwareResponse }>(
      'GET',
      '/api/customer/software?limit=100',
      {
        token: admin,
      },
    );
    expect(r.status).toBe(200);
    return r.body.data.data;
  };

  const startAgent = async (hostname: string, siteId: number | null): Promise<Agent> => {
    const token = (await createEnrollmentToken(server, admin, siteId ? { site_id: siteId } : {})).token;
    const res = await enroll(server, token, facts({ hostname, machineId: `mid-${hostname}` }));
    expect(res.status).toBe(200);
    const socket = await onlineAgent(server.url, res.body.data);
    const [row] = rowsOf<{ id: number }>(
      await server.database.db.execute(
        sql`select id from devices where device_guid = ${res.body.data.device_guid}`,
      ),
    );
    return {
      socket,
      guid: res.body.data.device_guid,
      secret: res.body.data.agent_secret,
      id: row!.id,
      sent: 0,
    };
  };
  const report = async (agent: Agent, software: Title[]) => {
    agent.sent += 1;
    const messageId = `inv-${agent.guid}-${agent.sent}`;
    const message: InventoryMessage = {
      type: 'inventory',
      messageId,
      collectedAt: new Date().toISOString(),
      software: software.map((s) => ({
        name: s.name,
        displayName: null,
        publisher: s.publisher ?? 'Vendor',
        version: s.version,
        installDate: null,
      })),
    };
    agent.socket.send(message);
    await agent.socket.waitFor('ack', (m) => m.messageId === messageId);
  };

  let a: Agent;
  let b: Agent;
  let c: Agent;

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    a = await startAgent('sw-a', hq);
    b = await startAgent('sw-b', hq);
    c = await startAgent('sw-c', null);
  });
  afterAll(async () => {
    for (const agent of [a, b, c]) {
      await agent?.socket.close();
    }
    await server?.close();
  });

  it('counts what inventories add, remove and upgrade, per site', async () => {
    await report(a, [
      { name: 'Browser', version: '1.0' },
      { name: 'Editor', version: '2.0' },
    ]);
    await report(b, [
      { name: 'Browser', version: '1.0' },
      { name: 'Zip', version: '' },
    ]);
    await report(c, [{ name: 'Browser', version: '1.0' }]);
    await expectExact();
    expect(await counts()).toContainEqual({ site_key: hq, name: 'Browser', version: '1.0', n: 2 });
    expect(await counts()).toContainEqual({ site_key: 0, name: 'Browser', version: '1.0', n: 1 });

    // b upgrades Browser and drops Zip; a adds a title
    await report(b, [{ name: 'Browser', version: '1.1' }]);
    await report(a, [
      { name: 'Browser', version: '1.0' },
      { name: 'Editor', version: '2.0' },
      { name: 'Viewer', version: '3.0', publisher: 'Other' },
    ]);
    await expectExact();
    const list = await titles();
    const browser = list.find((t) => t.name === 'Browser');
    expect(browser).toMatchObject({
      device_count: 3,
      versions: [
        { version: '1.0', device_count: 2 },
        { version: '1.1', device_count: 1 },
      ],
    });
    expect(list.map((t) => t.name)).not.toContain('Zip');
  });

  it('forgets a deleted device and moves a re-enrolled device to its new site', async () => {
    const del = await server.request('DELETE', `/api/customer/devices/${c.id}`, { token: admin });
    expect(del.status).toBe(200);
    await expectExact();
    expect((await counts()).filter((r) => r.site_key === 0)).toEqual([]);

    // b's agent reinstalls with a token for London: its software moves with it
    const token = (await createEnrollmentToken(server, admin, { site_id: lon })).token;
    const again = await server.request('POST', '/api/agent/enroll', {
      body: {
        token,
        facts: facts({ hostname: 'sw-b', machineId: 'mid-sw-b' }),
        device_guid: b.guid,
        agent_secret: b.secret,
      },
    });
    expect(again.status).toBe(200);
    await expectExact();
    expect(await counts()).toContainEqual({ site_key: lon, name: 'Browser', version: '1.1', n: 1 });
  });

  it('moves a deleted site counts to no site', async () => {
    const del = await server.request('DELETE', `/api/customer/sites/${lon}`, { token: admin });
    expect(del.status).toBe(200);
    await expectExact();
    expect((await counts()).some((r) => r.site_key === lon)).toBe(false);
    expect(await counts()).toContainEqual({ site_key: 0, name: 'Browser', version: '1.1', n: 1 });
    // the tenant's total is unchanged
    const browser = (await titles()).find((t) => t.name === 'Browser');
    expect(browser?.device_count).toBe(2);
  });
});
