import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { startTestServer, createEnrollmentToken, eventually } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import type { AgentMessage, InventoryMessage } from '@outpost/contract/agent-protocol';
import { devices, deviceSoftware, sites } from '@outpost/server/db/schema';
import { startFleet } from '@outpost/agent/sim/fleet';
import type { Fleet } from '@outpost/agent/sim/fleet';

describe('fleet simulator over the real protocol', () => {
  let server: TestServer;
  let fleet: Fleet | null = null;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
  });

  it('enrols and connects N virtual devices across sites, with inventory, and re-enrols into the same records with kept identities', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    const acmeSites = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.user.tenant_id));
    const tokens = await Promise.all(
      acmeSites.map((s) => createEnrollmentToken(server, admin.token, { site_id: s.id })),
    );
    const options = {
      server: server.url,
      tokens: tokens.map((t) => t.token),
      devices: 6,
      seed: 42,
      tickMs: 100,
      loginChance: 0.5,
      disconnectChance: 0,
    };
    fleet = await startFleet(options);
    const guids = fleet.agents.map((a) => a.deviceGuid);
    const rows = await eventually(async () => {
      const r = await server.database.db.select().from(devices).where(inArray(devices.deviceGuid, guids));
      return r.length === 6 && r.every((d) => d.status !== 'offline' && d.hardwareInfo && d.services)
        ? r
        : null;
    });
    expect(new Set(rows.map((r) => r.siteId)).size).toBe(acmeSites.length);
    // random logins happen
    await eventually(async () => {
      const r = await server.database.db.select().from(devices).where(inArray(devices.deviceGuid, guids));
      return r.some((d) => d.status === 'loggedin');
    });
    // service control through the gateway changes the simulated machine
    const target = fleet.agents[0]!;
    const row = rows.find((r) => r.deviceGuid === target.deviceGuid)!;
    const { commandId } = await server.app.commandQueue.sendCommand({
      tenantId: admin.user.tenant_id,
      deviceId: row.id,
      command: {
        kind: 'service_control',
        serviceName: target.device.services[0]!.serviceName,
        action: 'stop',
      },
    });
    expect(await server.app.commandQueue.waitForResult(commandId, 10_000)).toMatchObject({
      status: 'completed',
      result: { status: 'Stopped' },
    });
    expect(target.executor.calls).toHaveLength(1);
    const identities = fleet.agents.map((a) => ({ deviceGuid: a.deviceGuid, agentSecret: a.agentSecret }));
    await fleet.stop();
    // the same machines presenting the identities they kept: the same device records (a serial
    // number or machine id alone would prove nothing)
    fleet = await startFleet({ ...options, identities });
    expect(fleet.agents.map((a) => a.deviceGuid)).toEqual(guids);
  });

  it('a virtual agent that reconnects resends only the inventory parts that changed', async () => {
    await fleet?.stop();
    const admin = await server.devSignIn('admin@acme.example');
    const token = await createEnrollmentToken(server, admin.token);
    fleet = await startFleet({
      server: server.url,
      tokens: [token.token],
      devices: 1,
      seed: 7,
      tickMs: 3_600_000,
      disconnectChance: 0,
      backoff: { baseMs: 50, capMs: 200 },
    });
    const target = fleet.agents[0]!;
    const stored = () =>
      eventually(async () => {
        const [row] = await server.database.db
          .select()
          .from(devices)
          .where(eq(devices.deviceGuid, target.deviceGuid));
        return row && Object.keys(row.inventoryDigests ?? {}).length === 4 ? row : null;
      });
    const first = await stored();
    const softwareRows = await server.database.db
      .select({ name: deviceSoftware.name })
      .from(deviceSoftware)
      .where(eq(deviceSoftware.deviceId, first.id));
    expect(softwareRows).toHaveLength(target.device.software.length);
    // acknowledged: the agent knows what the server holds
    await eventually(() => Promise.resolve(target.outbox.list().length === 0 || null));

    const sent: AgentMessage[] = [];
    const connection = target.agent.connection;
    const send = connection.send.bind(connection);
    connection.send = (m) => {
      sent.push(m);
      send(m);
    };
    connection.drop();
    const resent = await eventually(() =>
      Promise.resolve(sent.find((m): m is InventoryMessage => m.type === 'inventory') ?? null),
    );
    // the simulated machine's network counters grew; hardware, software and services did not
    expect(resent.network).toBeDefined();
    expect(resent.hardware ?? resent.software ?? resent.services).toBeUndefined();
    expect(Object.keys(resent.digests ?? {})).toEqual(['network']);
    const after = await eventually(async () => {
      const [row] = await server.database.db.select().from(devices).where(eq(devices.id, first.id));
      return row && row.inventoryDigests?.network !== first.inventoryDigests?.network ? row : null;
    });
    expect(after.hardwareInfo).toEqual(first.hardwareInfo);
    expect(after.services).toEqual(first.services);
  });
});
