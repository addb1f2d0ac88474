import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  Alert,
  AlertCounts,
  AlertListResponse,
  AlertRoute,
  Maintenance,
} from '@outpost/contract/alerts';
import { alertMessages, routeMessages } from '@outpost/contract/alerts';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import type { ChannelCreated } from '@outpost/contract/notification-channels';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
} from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import { devices, monitoringPolicies, notificationDeliveries } from '../../db/schema/index';

// Alerts end to end (docs/product/monitoring.md#alerts): sources open them (an agent restarted
// after a crash, a device offline past its policy's threshold), the channels hear them through a
// real webhook receiver, members acknowledge and resolve them, maintenance mode silences them,
// routing rules choose the channels, and the tenant's and sites' boundaries hold.

type Envelope<T> = { success: true; data: T };
const API = '/api/customer/alerts';

describe('alerts', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let siteIds: number[];
  let receiver: http.Server;
  let hookUrl: string;
  const hooks: { path: string; body: Record<string, unknown> }[] = [];
  const agents: AgentSocket[] = [];

  const call = <T>(method: string, url: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, url, { token, ...(body !== undefined && { body }) });

  /** A device enrolled into `siteId`, connected, and said hello with `crash` when given. */
  async function device(hostname: string, siteId: number | null, crash?: { at: string; reason: string }) {
    const token = (await createEnrollmentToken(server, admin, siteId !== null ? { site_id: siteId } : {}))
      .token;
    const creds = (await enroll(server, token, facts({ hostname }))).body.data;
    agents.push(
      await onlineAgent(server.url, creds, { hostname, ...(crash && { restartedAfterCrash: crash }) }),
    );
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return { id: row!.id, guid: creds.device_guid, creds };
  }

  const alertsOf = async (query = '', token = admin) =>
    (await call<AlertListResponse>('GET', `${API}?${query}`, token)).body.data;

  beforeAll(async () => {
    server = await startTestServer({
      env: { NOTIFY_OUTBOX_INTERVAL_MS: '100', ALERT_SWEEP_INTERVAL_MS: '200', AGENT_PRESENCE_GRACE_MS: '0' },
    });
    const seeded = (await server.seedDemo())!;
    siteIds = seeded.siteIds;
    const signedIn = await server.devSignIn('admin@acme.example');
    admin = signedIn.token;
    tenantId = signedIn.user.tenant_id;
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hooks.push({
          path: req.url ?? '',
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const channel = await call<ChannelCreated>('POST', '/api/customer/notification-channels', admin, {
      name: 'Ops hook',
      kind: 'webhook',
      config: { url: `${hookUrl}/ops` },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
  });
  afterAll(async () => {
    for (const a of agents) {
      await a.close();
    }
    await new Promise((r) => receiver.close(r));
    await server?.close();
  });

  it('an agent restarted after a crash opens one alert, heard live and by the channel; a member acknowledges and resolves it', async () => {
    const portal = connectPortalSocket(server.url, portalAuth(await server.devSignIn('admin@acme.example')));
    await portal.waitFor('connection_status');
    portal.send({ type: 'subscribe', payload: { subscriptionKey: 'alerts' } });
    await portal.waitFor('subscribed');
    const d = await device('crashy-01', siteIds[0]!, {
      at: '2026-11-27T08:00:00.000Z',
      reason: 'out of memory',
    });
    const live = await portal.waitFor('alert_update', (m) => m.payload.alert.device?.guid === d.guid);
    expect(live.payload.change).toBe('opened');
    expect(live.payload.alert).toMatchObject({
      condition: 'agent_crash',
      state: 'open',
      severity: 'warning',
    });
    await portal.close();

    const [alert] = (await alertsOf(`device=${d.guid}`)).data;
    expect(alert).toMatchObject({
      condition: 'agent_crash',
      title: 'The agent restarted after a crash',
      detail: 'Crashed before 2026-11-27T08:00:00.000Z: out of memory',
      occurrences: 1,
      device: { guid: d.guid, hostname: 'crashy-01' },
      silenced: false,
    });
    const told = await eventually(() =>
      Promise.resolve(
        hooks.find((h) => (h.body.data as { alert_id?: number }).alert_id === alert!.id) ?? null,
      ),
    );
    expect(told.body).toMatchObject({
      event: 'alert',
      severity: 'warning',
      subject: '[Warning] crashy-01: The agent restarted after a crash',
    });

    // the same crash again: the same alert, seen twice
    await agents.pop()!.close();
    agents.push(
      await onlineAgent(server.url, d.creds, {
        hostname: 'crashy-01',
        restartedAfterCrash: { at: '2026-11-27T08:05:00.000Z' },
      }),
    );
    const again = await eventually(async () => {
      const [a] = (await alertsOf(`device=${d.guid}`)).data;
      return a && a.occurrences === 2 ? a : null;
    });
    expect(again.id).toBe(alert!.id);

    const acked = await call<Alert>('POST', `${API}/${alert!.id}/acknowledge`, admin, {
      note: 'Looking into it',
    });
    expect(acked.body.data).toMatchObject({ state: 'acknowledged', acknowledge_note: 'Looking into it' });
    expect(acked.body.data.acknowledged_by).toBeTruthy();
    const counts = (await call<AlertCounts>('GET', `${API}/counts`, admin)).body.data;
    expect(counts.acknowledged).toBeGreaterThanOrEqual(1);
    const resolved = await call<Alert>('POST', `${API}/${alert!.id}/resolve`, admin, {
      note: 'Memory raised',
    });
    expect(resolved.body.data).toMatchObject({ state: 'resolved', resolve_note: 'Memory raised' });
    const twice = await call<ApiErrorBody>('POST', `${API}/${alert!.id}/resolve`, admin, {});
    expect(twice.status).toBe(400);
    expect((twice.body as unknown as ApiErrorBody).error).toBe(alertMessages.alreadyResolved);
    expect((await alertsOf(`device=${d.guid}&state=resolved`)).data.map((a) => a.id)).toEqual([alert!.id]);
  });

  it('a device in maintenance opens its alert silenced and no channel hears it', async () => {
    const d = await device('quiet-01', siteIds[0]!);
    const set = await call<{ maintenance: Maintenance | null }>(
      'PUT',
      `/api/customer/devices/${d.guid}/maintenance`,
      admin,
      {
        minutes: 60,
        reason: 'Disk swap',
      },
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.maintenance).toMatchObject({ scope: 'device', reason: 'Disk swap' });
    await agents.pop()!.close();
    agents.push(
      await onlineAgent(server.url, d.creds, {
        hostname: 'quiet-01',
        restartedAfterCrash: { at: '2026-11-27T08:00:00Z' },
      }),
    );
    const alert = await eventually(async () => (await alertsOf(`device=${d.guid}`)).data[0] ?? null);
    expect(alert.silenced).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(hooks.some((h) => (h.body.data as { alert_id?: number }).alert_id === alert.id)).toBe(false);
    const bad = await call<ApiErrorBody>('PUT', `/api/customer/devices/${d.guid}/maintenance`, admin, {
      minutes: 1,
    });
    expect(bad.status).toBe(400);
    const ended = await call<{ maintenance: Maintenance | null }>(
      'DELETE',
      `/api/customer/devices/${d.guid}/maintenance`,
      admin,
    );
    expect(ended.body.data.maintenance).toBeNull();
  });

  it('a device offline past its policy threshold opens an alert that resolves by itself when it is back', async () => {
    await server.database.db.insert(monitoringPolicies).values({
      tenantId,
      name: 'Offline watch',
      targetType: 'site',
      siteId: siteIds[1]!,
      offlineAlertMinutes: 5,
      offlineSeverity: 'critical',
    });
    const d = await device('gone-01', siteIds[1]!);
    await agents.pop()!.close();
    await eventually(async () => {
      const [row] = await server.database.db.select().from(devices).where(eq(devices.id, d.id));
      return row?.status === 'offline' ? row : null;
    });
    await server.database.db
      .update(devices)
      .set({ lastSeen: new Date(Date.now() - 3600_000) })
      .where(eq(devices.id, d.id));
    const alert = await eventually(
      async () => (await alertsOf(`device=${d.guid}&condition=offline`)).data[0] ?? null,
    );
    expect(alert).toMatchObject({
      severity: 'critical',
      title: 'Offline for more than 5 minutes',
      state: 'open',
    });
    agents.push(await onlineAgent(server.url, d.creds, { hostname: 'gone-01' }));
    const cleared = await eventually(async () => {
      const [a] = (await alertsOf(`device=${d.guid}&condition=offline&state=all`)).data;
      return a?.state === 'resolved' ? a : null;
    });
    expect(cleared).toMatchObject({
      id: alert.id,
      resolved_by: null,
      resolve_note: alertMessages.autoResolved,
    });
  });

  it('routing rules choose the channels; bad rules get the contract messages', async () => {
    const pager = await call<ChannelCreated>('POST', '/api/customer/notification-channels', admin, {
      name: 'Pager',
      kind: 'webhook',
      config: { url: `${hookUrl}/pager` },
    });
    const noChannels = await call<ApiErrorBody>('POST', '/api/customer/alert-routes', admin, {
      name: 'Nothing',
      severities: ['critical'],
      channel_ids: [],
    });
    expect(noChannels.status).toBe(400);
    expect(JSON.stringify(noChannels.body)).toContain(routeMessages.channelsRequired);
    const missing = await call<ApiErrorBody>('POST', '/api/customer/alert-routes', admin, {
      name: 'Ghost',
      severities: ['critical'],
      channel_ids: [999_999],
    });
    expect(missing.status).toBe(404);
    const rule = await call<AlertRoute>('POST', '/api/customer/alert-routes', admin, {
      name: 'Crashes to the pager',
      severities: ['warning', 'critical'],
      conditions: ['agent_crash'],
      target_type: 'site',
      site_id: siteIds[2],
      channel_ids: [pager.body.data.id],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    expect(rule.body.data).toMatchObject({
      target: { type: 'site', site_id: siteIds[2] },
      channels: [{ id: pager.body.data.id, name: 'Pager' }],
    });

    const inSite = await device('routed-01', siteIds[2]!, { at: '2026-11-27T08:00:00Z', reason: 'x' });
    const elsewhere = await device('unrouted-01', siteIds[0]!, { at: '2026-11-27T08:00:00Z', reason: 'y' });
    const routed = await eventually(async () => (await alertsOf(`device=${inSite.guid}`)).data[0] ?? null);
    const unrouted = await eventually(
      async () => (await alertsOf(`device=${elsewhere.guid}`)).data[0] ?? null,
    );
    const heard = await eventually(() =>
      Promise.resolve(
        hooks.find((h) => (h.body.data as { alert_id?: number }).alert_id === routed.id) ?? null,
      ),
    );
    expect(heard.path).toBe('/pager');
    await new Promise((r) => setTimeout(r, 500));
    // a rule exists: only the rules decide, and none names the other site
    expect(hooks.filter((h) => (h.body.data as { alert_id?: number }).alert_id === routed.id)).toHaveLength(
      1,
    );
    expect(hooks.some((h) => (h.body.data as { alert_id?: number }).alert_id === unrouted.id)).toBe(false);
    const removed = await call('DELETE', `/api/customer/alert-routes/${rule.body.data.id}`, admin);
    expect(removed.status).toBe(200);
  });

  it('a channel in quiet hours folds alert messages into one digest, sent when it is due', async () => {
    const hour = new Date().getUTCHours();
    const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const night = await call<ChannelCreated>('POST', '/api/customer/notification-channels', admin, {
      name: 'Night desk',
      kind: 'webhook',
      config: { url: `${hookUrl}/night` },
      quiet_hours: { start: hh(hour), end: hh(hour + 2), time_zone: 'UTC' },
    });
    expect(night.status, JSON.stringify(night.body)).toBe(200);
    expect(night.body.data.quiet_hours).toEqual({ start: hh(hour), end: hh(hour + 2), time_zone: 'UTC' });
    const crashed = [];
    for (const name of ['night-01', 'night-02', 'night-03']) {
      crashed.push(await device(name, siteIds[0]!, { at: '2026-11-27T08:00:00Z', reason: 'night' }));
    }
    for (const d of crashed) {
      await eventually(async () => (await alertsOf(`device=${d.guid}`)).data[0] ?? null);
    }
    const log = async () =>
      (
        await call<{ data: { id: number; event: string; status: string; subject: string }[] }>(
          'GET',
          `/api/customer/notification-channels/${night.body.data.id}/deliveries`,
          admin,
        )
      ).body.data.data;
    const held = await eventually(async () => {
      const rows = await log();
      return rows.filter((r) => r.status === 'digested').length === 3 ? rows : null;
    });
    const digest = held.find((r) => r.event === 'digest')!;
    expect(digest.status).toBe('pending');
    await new Promise((r) => setTimeout(r, 400));
    expect(hooks.some((h) => h.path === '/night')).toBe(false);
    // the quiet hours end (moved to now): one message holds the three
    await server.database.db
      .update(notificationDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(notificationDeliveries.id, digest.id));
    const told = await eventually(() => Promise.resolve(hooks.find((h) => h.path === '/night') ?? null));
    expect(told.body).toMatchObject({ event: 'digest', subject: 'Outpost digest: 3 alert messages' });
    for (const name of ['night-01', 'night-02', 'night-03']) {
      expect(told.body.text).toContain(`${name}: The agent restarted after a crash`);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.filter((h) => h.path === '/night')).toHaveLength(1);
  });

  it('another tenant and a member of other sites see none of them', async () => {
    const d = await device('private-01', siteIds[0]!, { at: '2026-11-27T08:00:00Z', reason: 'z' });
    const alert = await eventually(async () => (await alertsOf(`device=${d.guid}`)).data[0] ?? null);
    const other = (await server.devSignIn('admin@globex.example')).token;
    expect((await call('GET', `${API}/${alert.id}`, other)).status).toBe(404);
    expect((await call('POST', `${API}/${alert.id}/acknowledge`, other, {})).status).toBe(404);
    expect((await alertsOf('state=all', other)).data.some((a) => a.id === alert.id)).toBe(false);
    expect((await call('GET', `/api/customer/devices/${d.guid}/maintenance`, other)).status).toBe(404);

    const made = await call('POST', '/api/customer/users', admin, {
      email: 'site2-tech@acme.example',
      name: 'Site two tech',
      role: 'user',
      site_access_type: 'specific',
      site_ids: [siteIds[1]],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const limited = (await server.devSignIn('site2-tech@acme.example')).token;
    expect((await call('GET', `${API}/${alert.id}`, limited)).status).toBe(404);
    expect((await alertsOf('state=all', limited)).data.every((a) => a.site_id === siteIds[1])).toBe(true);
    const bulk = await call<{ updated: number }>('POST', `${API}/acknowledge`, limited, { ids: [alert.id] });
    expect(bulk.body.data.updated).toBe(0);
    expect((await call('GET', '/api/customer/alert-routes', limited)).status).toBe(403);
  });
});
