import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Device, ActivityLogEntry } from '@outpost/contract/devices';
import { AGENT_CLOSE } from '@outpost/contract/agent-protocol';
import type { ActivityMessage, EnrollResult, InventoryMessage } from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { activityEvents, devices, deviceSoftware } from '../db/schema/index';
import {
  connectAgentSocket,
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  hello,
  onlineAgent,
  portalAuth,
} from '../../test/support/live';

const GRACE_MS = 400;

describe('agent gateway: presence, activity, inventory, commands', () => {
  let server: TestServer;
  let adminToken: string;
  let tenantId: number;
  let enrollToken: string;
  let portal: ReturnType<typeof connectPortalSocket>;

  /** The device as the portal's API shows it. */
  const device = async (guid: string): Promise<Device | null> => {
    const [row] = await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.tenantId, tenantId), eq(devices.deviceGuid, guid)));
    if (!row) {
      return null;
    }
    const res = await server.request<{ data: Device }>('GET', `/api/customer/devices/${row.id}`, {
      token: adminToken,
    });
    return res.status === 200 ? res.body.data : null;
  };
  const events = async (
    guid: string,
  ): Promise<Pick<ActivityLogEntry, 'event_type' | 'user_name' | 'session_id'>[]> => {
    const d = await device(guid);
    const rows = await server.database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.deviceId, d!.id))
      .orderBy(activityEvents.id);
    return rows.map((r) => ({ event_type: r.eventType, user_name: r.userName, session_id: r.sessionId }));
  };

  beforeAll(async () => {
    server = await startTestServer({
      env: { AGENT_HEARTBEAT_INTERVAL_MS: '200', AGENT_PRESENCE_GRACE_MS: String(GRACE_MS) },
    });
    await server.seedDemo();
    const admin = await server.devSignIn('admin@acme.example');
    adminToken = admin.token;
    tenantId = admin.user.tenant_id;
    enrollToken = (await createEnrollmentToken(server, adminToken)).token;
    portal = connectPortalSocket(server.url, portalAuth(admin));
    await portal.waitFor('connection_status');
  });
  afterAll(async () => {
    await portal?.close();
    await server?.close();
  });

  async function enrolled(hostname: string): Promise<EnrollResult> {
    const res = await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` }));
    expect(res.status).toBe(200);
    return res.body.data;
  }

  async function subscribe(guid: string) {
    const from = portal.received.length;
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `device:${guid}` } });
    await portal.waitFor('subscribed', undefined, 5000, from);
  }

  it('enrol → connect → online in the database and a device_update on a subscribed portal socket', async () => {
    const creds = await enrolled('pc-online');
    expect((await device(creds.device_guid))?.status).toBe('offline');
    await subscribe(creds.device_guid);
    const from = portal.received.length;
    const agent = await onlineAgent(server.url, creds, { hostname: 'pc-online' });
    const update = await portal.waitFor('device_update', (m) => m.payload.status === 'online', 5000, from);
    expect(update.payload).toMatchObject({ deviceId: creds.device_guid, status: 'online' });
    expect(update.payload.lastSeen).toBeTruthy();
    const row = await device(creds.device_guid);
    expect(row).toMatchObject({ status: 'online', hostname: 'pc-online' });
    expect(row?.last_seen).toBeTruthy();
    expect((await events(creds.device_guid)).map((e) => e.event_type)).toEqual(['online']);

    // close → offline only after the grace period
    const closedAt = Date.now();
    await agent.close();
    const offline = await portal.waitFor('device_update', (m) => m.payload.status === 'offline', 5000, from);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(offline.payload).toMatchObject({ deviceId: creds.device_guid });
    expect((await device(creds.device_guid))?.status).toBe('offline');
    expect((await events(creds.device_guid)).map((e) => e.event_type)).toEqual(['online', 'offline']);
  });

  it('an agent that says goodbye (stopping for a restart or shutdown) is offline at once', async () => {
    const creds = await enrolled('pc-goodbye');
    const control = await enrolled('pc-dropped');
    await subscribe(creds.device_guid);
    await subscribe(control.device_guid);
    const agent = await onlineAgent(server.url, creds);
    const dropped = await onlineAgent(server.url, control);
    const from = portal.received.length;
    // the dropped one closes first and waits out its grace; the one saying goodbye, closed after
    // it, does not wait, so its offline update comes first (an order, not a measured time)
    await dropped.close();
    await agent.close(1000);
    const offlineOf = (guid: string) => (m: { payload: { deviceId?: string; status?: string } }) =>
      m.payload.deviceId === guid && m.payload.status === 'offline';
    const droppedOffline = await portal.waitFor('device_update', offlineOf(control.device_guid), 5000, from);
    const goodbyeOffline = await portal.waitFor('device_update', offlineOf(creds.device_guid), 5000, from);
    expect(portal.received.indexOf(goodbyeOffline)).toBeLessThan(portal.received.indexOf(droppedOffline));
    expect((await device(creds.device_guid))?.status).toBe('offline');
    expect((await events(creds.device_guid)).map((e) => e.event_type)).toEqual(['online', 'offline']);
  });

  it('a reconnect within the grace period does not flap to offline', async () => {
    const creds = await enrolled('pc-flap');
    const control = await enrolled('pc-flap-control');
    await subscribe(creds.device_guid);
    await subscribe(control.device_guid);
    const marker = await onlineAgent(server.url, control);
    const first = await onlineAgent(server.url, creds);
    const from = portal.received.length;
    await first.close();
    await marker.close();
    const second = await onlineAgent(server.url, creds);
    // the control closed after the first socket with the same grace: once it is offline, the first
    // socket's grace has run out too, and the device must have stayed online
    await portal.waitFor(
      'device_update',
      (m) => m.payload.deviceId === control.device_guid && m.payload.status === 'offline',
      5000,
      from,
    );
    await eventually(async () => (await device(control.device_guid))?.status === 'offline');
    expect(
      portal
        .ofType('device_update', from)
        .filter((m) => m.payload.deviceId === creds.device_guid && m.payload.status === 'offline'),
    ).toEqual([]);
    expect((await device(creds.device_guid))?.status).toBe('online');
    expect((await events(creds.device_guid)).map((e) => e.event_type)).toEqual(['online']);
    await second.close();
  });

  it('login / logout → loggedin / online with activity events, idempotent on resend', async () => {
    const creds = await enrolled('pc-login');
    await subscribe(creds.device_guid);
    const agent = await onlineAgent(server.url, creds);
    const from = portal.received.length;
    const login: ActivityMessage = {
      type: 'activity',
      messageId: 'm-login-1',
      events: [
        {
          eventType: 'login',
          userName: 'ACME\\jsmith',
          sessionId: 'sess-0001-abcdef',
          ipAddress: '10.0.0.5',
          timestamp: new Date().toISOString(),
        },
      ],
    };
    agent.send(login);
    await agent.waitFor('ack', (m) => m.messageId === 'm-login-1');
    const loggedIn = await portal.waitFor(
      'device_update',
      (m) => m.payload.status === 'loggedin',
      5000,
      from,
    );
    expect(loggedIn.payload).toMatchObject({ deviceId: creds.device_guid });
    expect((await device(creds.device_guid))?.status).toBe('loggedin');
    // the same message again (the agent resends what was not acknowledged) changes nothing
    agent.send(login);
    await agent.waitFor(
      'ack',
      () => agent.ofType('ack').filter((m) => m.messageId === 'm-login-1').length === 2,
    );

    const fromLogout = portal.received.length;
    agent.send({
      type: 'activity',
      messageId: 'm-logout-1',
      events: [
        {
          eventType: 'logout',
          userName: 'ACME\\jsmith',
          sessionId: 'sess-0001-abcdef',
          timestamp: new Date(Date.now() + 1000).toISOString(),
        },
      ],
    });
    await portal.waitFor('device_update', (m) => m.payload.status === 'online', 5000, fromLogout);
    expect((await device(creds.device_guid))?.status).toBe('online');
    expect(await events(creds.device_guid)).toEqual([
      { event_type: 'online', user_name: null, session_id: null },
      { event_type: 'login', user_name: 'ACME\\jsmith', session_id: 'sess-0001-abcdef' },
      { event_type: 'logout', user_name: 'ACME\\jsmith', session_id: 'sess-0001-abcdef' },
    ]);
    await agent.close();
  });

  it('a hello with open sessions makes the device loggedin; a fault makes it error', async () => {
    const creds = await enrolled('pc-fault');
    const agent = await onlineAgent(server.url, creds, {
      sessions: [{ sessionId: 's-1', userName: 'kiosk' }],
    });
    expect((await device(creds.device_guid))?.status).toBe('loggedin');
    await subscribe(creds.device_guid);
    const from = portal.received.length;
    agent.send({ type: 'fault', active: true, message: 'disk full' });
    await eventually(async () => (await device(creds.device_guid))?.status === 'error');
    agent.send({ type: 'fault', active: true, message: 'disk still full' });
    agent.send({ type: 'fault', active: false });
    await eventually(async () => (await device(creds.device_guid))?.status === 'loggedin');
    // each status change is published once; the second report changed no status
    await portal.waitFor('device_update', (m) => m.payload.status === 'loggedin', 5000, from);
    const statuses = portal
      .ofType('device_update', from)
      .filter((m) => m.payload.deviceId === creds.device_guid)
      .map((m) => m.payload.status);
    expect(statuses).toEqual(['error', 'loggedin']);
    await agent.close();
  });

  it('persists inventory: hardware and network on the device, software as rows with first-seen, services', async () => {
    const creds = await enrolled('pc-inventory');
    const agent = await onlineAgent(server.url, creds);
    const software = [
      {
        name: 'Google Chrome',
        displayName: 'Google Chrome',
        publisher: 'Google LLC',
        version: '126.0',
        installDate: '2024-06-01',
      },
      {
        name: '7-Zip',
        displayName: '7-Zip 23.01 (x64)',
        publisher: 'Igor Pavlov',
        version: '23.01',
        installDate: null,
      },
    ];
    agent.send({
      type: 'inventory',
      messageId: 'inv-1',
      collectedAt: new Date().toISOString(),
      facts: { serialNumber: 'SN-INV-1', manufacturer: 'Dell Inc.', model: 'Latitude 5440' },
      hardware: {
        systemInfo: { manufacturer: 'Dell Inc.', model: 'Latitude 5440' },
        cpu: { name: 'Intel Core i5-1345U' },
        memoryModules: [{ capacity: 8 }, { capacity: 8 }],
        storageDevices: [{ deviceId: 'C:', mediaType: 'SSD', totalSize: 512e9, freeSpace: 100e9 }],
      },
      network: {
        externalIp: null,
        dnsServers: ['10.0.0.1'],
        interfaces: [
          {
            name: 'Ethernet',
            description: 'Intel(R) Ethernet Connection',
            type: 'wired',
            speed: 1000,
            status: 'Up',
            macAddress: '00:11:22:33:44:55',
            gateway: '10.0.0.1',
            dhcpEnabled: true,
            ipv4Addresses: [{ address: '10.0.0.23', subnetMask: '255.255.255.0' }],
            ipv6Addresses: [],
            bytesReceived: 123456,
            bytesSent: 654321,
          },
        ],
      },
      software,
      services: [
        { serviceName: 'Spooler', displayName: 'Print Spooler', status: 'Running', startType: 'Automatic' },
      ],
    });
    await agent.waitFor('ack', (m) => m.messageId === 'inv-1');
    const row = await device(creds.device_guid);
    expect(row).toMatchObject({
      serial_number: 'SN-INV-1',
      manufacturer: 'Dell Inc.',
      model: 'Latitude 5440',
    });
    expect(row?.hardware_info?.memoryModules).toHaveLength(2);
    expect(row?.network_info?.interfaces[0]?.ipv4Addresses[0]?.address).toBe('10.0.0.23');
    expect(row?.last_inventory_update).toBeTruthy();
    const sw = await server.database.db
      .select()
      .from(deviceSoftware)
      .where(eq(deviceSoftware.deviceId, row!.id))
      .orderBy(deviceSoftware.name);
    expect(sw.map((s) => s.name)).toEqual(['7-Zip', 'Google Chrome']);
    const chromeFirstSeen = sw.find((s) => s.name === 'Google Chrome')!.firstSeenAt;

    // a second inventory: 7-Zip removed, Chrome kept (first seen unchanged), VLC added
    agent.send({
      type: 'inventory',
      messageId: 'inv-2',
      collectedAt: new Date().toISOString(),
      software: [
        software[0]!,
        {
          name: 'VLC media player',
          displayName: null,
          publisher: 'VideoLAN',
          version: '3.0.20',
          installDate: null,
        },
      ],
    });
    await agent.waitFor('ack', (m) => m.messageId === 'inv-2');
    const after = await server.database.db
      .select()
      .from(deviceSoftware)
      .where(eq(deviceSoftware.deviceId, row!.id));
    expect(after.map((s) => s.name).sort()).toEqual(['Google Chrome', 'VLC media player']);
    expect(after.find((s) => s.name === 'Google Chrome')!.firstSeenAt.getTime()).toBe(
      chromeFirstSeen.getTime(),
    );
    const [svc] = await server.database.db
      .select({ services: devices.services })
      .from(devices)
      .where(eq(devices.id, row!.id));
    expect(svc?.services?.[0]?.serviceName).toBe('Spooler');
    await agent.close();
  });

  describe('inventory digests (a returning agent resends only what changed)', () => {
    const firefox = {
      name: 'Firefox',
      displayName: 'Mozilla Firefox',
      publisher: 'Mozilla',
      version: '128.0',
      installDate: null,
    };
    const vlc = { ...firefox, name: 'VLC media player', publisher: 'VideoLAN', version: '3.0.20' };
    const spooler = (status: string) => [
      { serviceName: 'Spooler', displayName: 'Print Spooler', status, startType: 'Automatic' },
    ];
    const stored = async (guid: string) => {
      const [row] = await server.database.db
        .select({ id: devices.id, services: devices.services, digests: devices.inventoryDigests })
        .from(devices)
        .where(eq(devices.deviceGuid, guid));
      const software = await server.database.db
        .select({ name: deviceSoftware.name, lastSeenAt: deviceSoftware.lastSeenAt })
        .from(deviceSoftware)
        .where(eq(deviceSoftware.deviceId, row!.id))
        .orderBy(deviceSoftware.name);
      return { ...row!, software };
    };
    const inventory = (messageId: string, parts: Partial<InventoryMessage>): InventoryMessage => ({
      type: 'inventory',
      messageId,
      collectedAt: new Date().toISOString(),
      ...parts,
    });

    it('welcomes a returning agent with the parts the server holds as its digests say, and stores a part again only when its digest changes', async () => {
      const creds = await enrolled('pc-digests');
      let agent = await onlineAgent(server.url, creds);
      expect((await agent.waitFor('welcome')).inventoryCurrent).toEqual([]);
      agent.send(
        inventory('d-1', {
          software: [firefox],
          services: spooler('Running'),
          digests: { software: 'sw-1', services: 'svc-1' },
        }),
      );
      await agent.waitFor('ack', (m) => m.messageId === 'd-1');
      expect((await stored(creds.device_guid)).digests).toEqual({ software: 'sw-1', services: 'svc-1' });
      await agent.close();

      // back with the digests it was acknowledged: software is held, services changed since
      agent = await onlineAgent(server.url, creds, {
        inventoryDigests: { software: 'sw-1', services: 'svc-0', hardware: 'hw-1' },
      });
      expect((await agent.waitFor('welcome')).inventoryCurrent).toEqual(['software']);

      // a part sent again with the digest the server holds is not written again
      const before = await stored(creds.device_guid);
      agent.send(inventory('d-2', { software: [vlc], digests: { software: 'sw-1' } }));
      await agent.waitFor('ack', (m) => m.messageId === 'd-2');
      expect((await stored(creds.device_guid)).software).toEqual(before.software);

      // a changed part is stored, with its digest; the others are kept
      agent.send(
        inventory('d-3', {
          software: [vlc],
          services: spooler('Stopped'),
          digests: { software: 'sw-2', services: 'svc-2' },
        }),
      );
      await agent.waitFor('ack', (m) => m.messageId === 'd-3');
      const after = await stored(creds.device_guid);
      expect(after.software.map((r) => r.name)).toEqual(['VLC media player']);
      expect(after.services?.[0]?.status).toBe('Stopped');
      expect(after.digests).toEqual({ software: 'sw-2', services: 'svc-2' });
      await agent.close();
    });

    it('stores the inventory of an agent without digests (older versions), and skips writing it again unchanged', async () => {
      const creds = await enrolled('pc-no-digests');
      const agent = await onlineAgent(server.url, creds);
      agent.send(inventory('o-1', { software: [firefox], services: spooler('Running') }));
      await agent.waitFor('ack', (m) => m.messageId === 'o-1');
      const first = await stored(creds.device_guid);
      expect(first.software.map((r) => r.name)).toEqual(['Firefox']);
      expect(first.services?.[0]?.status).toBe('Running');
      expect(Object.keys(first.digests ?? {}).sort()).toEqual(['services', 'software']);

      // the same list again: its rows are not touched (last seen unchanged)
      agent.send(inventory('o-2', { software: [firefox], services: spooler('Running') }));
      await agent.waitFor('ack', (m) => m.messageId === 'o-2');
      expect((await stored(creds.device_guid)).software).toEqual(first.software);

      // a changed list replaces the rows
      agent.send(inventory('o-3', { software: [firefox, vlc] }));
      await agent.waitFor('ack', (m) => m.messageId === 'o-3');
      const changed = await stored(creds.device_guid);
      expect(changed.software.map((r) => r.name)).toEqual(['Firefox', 'VLC media player']);
      expect(changed.digests?.software).not.toBe(first.digests?.software);
      expect(changed.digests?.services).toBe(first.digests?.services);
      await agent.close();
    });
  });

  it('requires hello first and refuses unsupported protocol versions', async () => {
    const creds = await enrolled('pc-proto');
    const noHello = connectAgentSocket(server.url, creds.device_guid, creds.agent_secret);
    await noHello.opened;
    noHello.send({ type: 'heartbeat' });
    expect(await noHello.waitForClose()).toMatchObject({
      code: AGENT_CLOSE.protocolError,
      reason: messages.agentHelloRequired,
    });
    const future = connectAgentSocket(server.url, creds.device_guid, creds.agent_secret);
    await future.opened;
    future.send(hello({ protocolVersion: 99 }));
    expect((await future.waitForClose()).code).toBe(AGENT_CLOSE.unsupportedVersion);
  });

  it('refuses a wrong secret or an unknown device before the upgrade, with a clear reason', async () => {
    const creds = await enrolled('pc-secret');
    for (const [guid, secret] of [
      [creds.device_guid, 'wrong-secret'],
      ['00000000-0000-4000-8000-000000000000', creds.agent_secret],
      ['not-a-guid', creds.agent_secret],
    ] as const) {
      const res = await fetch(`${server.url}/api/agent/ws`, {
        headers: {
          'x-outpost-device': guid,
          authorization: `Bearer ${secret}`,
          connection: 'upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      }).catch((err: unknown) => err);
      if (res instanceof Response) {
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ error: messages.agentAuthFailed });
      }
      const socket = connectAgentSocket(server.url, guid, secret);
      await expect(socket.opened).rejects.toThrow('401');
    }
    const none = await server.request('GET', '/api/agent/ws');
    expect([401, 404]).toContain(none.status);
  });

  it('marks a silent agent offline once heartbeats stop past the grace period', async () => {
    const creds = await enrolled('pc-silent');
    await onlineAgent(server.url, creds);
    // no heartbeats from here on
    await eventually(async () => (await device(creds.device_guid))?.status === 'offline', 10_000);
    const [row] = await server.database.db
      .select({ connectionId: devices.connectionId })
      .from(devices)
      .where(and(eq(devices.deviceGuid, creds.device_guid)));
    expect(row?.connectionId).toBeNull();
  });
});
