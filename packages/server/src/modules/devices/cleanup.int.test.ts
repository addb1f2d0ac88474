import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { CleanupPlan, CleanupResult, DuplicateSet } from '@outpost/contract/device-cleanup';
import { CLEANUP_MAX_CONFIRMED } from '@outpost/contract/device-cleanup';
import { cleanupMessages, deviceMessages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, devices } from '../../db/schema/index';
import { addMember } from '../tenants/tenants.service';
import { DAY, iface, insertDevice } from '../../../test/support/devices';
import type { DeviceSeed } from '../../../test/support/devices';

// Agent cleanup over HTTP (docs/product/administration.md#agent-cleanup; the duplicate rules: SECURITY.md R2-4), with
// device rows written straight to the database so each rule meets the state it is about. The
// impostor enrolled through a real token and socket is in cleanup-impostor.int.test.ts.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

/** A set as [id, outcome, reason] per member, in id order. */
const outcomes = (set: DuplicateSet | undefined) => set?.members.map((m) => [m.id, m.outcome, m.reason]);

describe('agent cleanup', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let siteIds: number[];

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    siteIds = demo.siteIds;
    admin = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const cleanup = (body: unknown, token = admin) =>
    server.request<Envelope<CleanupResult>>('POST', '/api/customer/devices/cleanup', { token, body });
  const preview = (body: unknown, token = admin) =>
    server.request<Envelope<CleanupPlan>>('POST', '/api/customer/devices/cleanup/preview', { token, body });
  const d = (hostname: string, extra: Partial<DeviceSeed> = {}) =>
    insertDevice(server, { tenantId, hostname, ...extra });
  const remainingIds = async () =>
    new Set(
      (
        await server.database.db
          .select({ id: devices.id })
          .from(devices)
          .where(eq(devices.tenantId, tenantId))
      ).map((r) => r.id),
    );
  const ago = (days: number) => new Date(Date.now() - days * DAY);

  it('needs an option: No Options Selected; range 1–365; at most so many ids; administrators only', async () => {
    for (const call of [cleanup, preview]) {
      const none = await call({ remove_duplicates: false });
      expect(none.status).toBe(400);
      expect(none.body.error).toBe(deviceMessages.noOptionsSelected);
      expect((await call({ offline_days: 0 })).status).toBe(400);
      expect((await call({ offline_days: 366 })).status).toBe(400);
      const tooMany = await call({
        remove_duplicates: true,
        device_ids: Array.from({ length: CLEANUP_MAX_CONFIRMED + 1 }, (_, i) => i + 1),
      });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error).toContain(cleanupMessages.tooManyConfirmed(CLEANUP_MAX_CONFIRMED));
      const tech = (await server.devSignIn('tech@acme.example')).token;
      expect((await call({ offline_days: 30 }, tech)).status).toBe(403);
    }
  });

  it('keeps the older proven identity and removes only offline records that proved nothing since', async () => {
    const stale = await d('STALE-40D', { lastSeen: ago(40), createdAt: ago(400) });
    const neverSeen = await d('NEVER-SEEN', { createdAt: ago(45) });
    const recentOffline = await d('OFFLINE-10D', { lastSeen: ago(10) });
    // an online device not heard from for a long time is not "offline longer than the threshold"
    const onlineOld = await d('ONLINE-OLD', { status: 'online', lastSeen: ago(50) });
    // A: the first enrolled was heard from after the second last was: the second goes
    const a1 = await d('PC-A', { serialNumber: 'SER-A', createdAt: ago(10), lastSeen: ago(1) });
    const a2 = await d('PC-A', { serialNumber: 'SER-A', createdAt: ago(5), lastSeen: ago(3) });
    // B: the later record is online (an impostor heartbeating, or a reinstall): review
    const b1 = await d('PC-B', { serialNumber: 'SER-B', createdAt: ago(10), lastSeen: ago(5) });
    const b2 = await d('PC-B', {
      serialNumber: 'SER-B',
      createdAt: ago(2),
      status: 'online',
      lastSeen: ago(0),
    });
    // C: same hostname and MAC; the later record proved its secret after the first last did: review
    const net = (mac: string) => ({ externalIp: null, dnsServers: [], interfaces: [iface(mac)] });
    const c1 = await d('LAPTOP-C', {
      createdAt: ago(10),
      lastSeen: ago(3),
      networkInfo: net('3C:AA:BB:CC:DD:01'),
    });
    const c2 = await d('laptop-c', {
      createdAt: ago(5),
      lastSeen: ago(1),
      networkInfo: net('3c:aa:bb:cc:dd:01'),
    });
    // D: the first enrolled never connected; the older *proven* identity is the second
    const d1 = await d('PC-D', { serialNumber: 'SER-D', createdAt: ago(10) });
    const d2 = await d('PC-D', { serialNumber: 'SER-D', createdAt: ago(5), lastSeen: ago(2) });
    // E: neither ever connected: the first enrolled is kept
    const e1 = await d('PC-E', { serialNumber: 'SER-E', createdAt: ago(10) });
    const e2 = await d('PC-E', { serialNumber: 'SER-E', createdAt: ago(5) });
    // F: one online record puts the whole set in review, the idle third one included
    const f1 = await d('PC-F', { serialNumber: 'SER-F', createdAt: ago(10), lastSeen: ago(1) });
    const f2 = await d('PC-F', {
      serialNumber: 'SER-F',
      createdAt: ago(6),
      status: 'loggedin',
      lastSeen: ago(0),
    });
    const f3 = await d('PC-F', { serialNumber: 'SER-F', createdAt: ago(4) });
    // same hostname, other MAC; generic serials: not duplicates
    const otherMac = await d('LAPTOP-C', { lastSeen: ago(2), networkInfo: net('3c:aa:bb:cc:dd:99') });
    const generic1 = await d('VM-1', { serialNumber: 'To be filled by O.E.M.', lastSeen: ago(0) });
    const generic2 = await d('VM-2', { serialNumber: 'To be filled by O.E.M.', lastSeen: ago(0) });

    const staleOnly = await cleanup({ offline_days: 30 });
    expect(staleOnly.status).toBe(200);
    expect(staleOnly.body.data.devices.map((x) => [x.id, x.reason])).toEqual([
      [stale.id, 'stale'],
      [neverSeen.id, 'stale'],
    ]);
    expect(staleOnly.body.data.review_sets).toEqual([]);

    const dups = await cleanup({ remove_duplicates: true });
    expect(dups.status).toBe(200);
    expect(dups.body.data.devices.map((x) => [x.id, x.reason, x.kept_device_id])).toEqual([
      [a2.id, 'duplicate', a1.id],
      [d1.id, 'duplicate', d2.id],
      [e2.id, 'duplicate', e1.id],
    ]);
    const review = dups.body.data.review_sets;
    expect(review.map((s) => [s.kept_device_id, s.needs_review])).toEqual([
      [b1.id, true],
      [c1.id, true],
      [f1.id, true],
    ]);
    expect(outcomes(review[0])).toEqual([
      [b1.id, 'keep', 'first_proven'],
      [b2.id, 'review', 'online'],
    ]);
    expect(outcomes(review[1])).toEqual([
      [c1.id, 'keep', 'first_proven'],
      [c2.id, 'review', 'proved_later'],
    ]);
    expect(outcomes(review[2])).toEqual([
      [f1.id, 'keep', 'first_proven'],
      [f2.id, 'review', 'online'],
      [f3.id, 'review', 'set_in_review'],
    ]);

    const left = await remainingIds();
    for (const kept of [
      recentOffline,
      onlineOld,
      a1,
      b1,
      b2,
      c1,
      c2,
      d2,
      e1,
      f1,
      f2,
      f3,
      otherMac,
      generic1,
      generic2,
    ]) {
      expect(left.has(kept.id)).toBe(true);
    }
    for (const gone of [stale, neverSeen, a2, d1, e2]) {
      expect(left.has(gone.id)).toBe(false);
    }
    // again: nothing to remove, the sets in review are still reported
    const again = await cleanup({ offline_days: 30, remove_duplicates: true });
    expect(again.body.data.removed).toBe(0);
    expect(again.body.data.review_sets.map((s) => s.kept_device_id)).toEqual([b1.id, c1.id, f1.id]);
    const logs = await server.database.db
      .select({ details: auditLogs.details })
      .from(auditLogs)
      .where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.action, 'Agent Cleanup')));
    expect(logs.map((l) => l.details)).toEqual([
      'Removed 2 agents (offline_days: 30, remove_duplicates: false)',
      'Removed 3 agents (offline_days: off, remove_duplicates: true)',
      'Removed 0 agents (offline_days: 30, remove_duplicates: true)',
    ]);
  });

  it('the preview shows which record is kept and why, and changes nothing; the cleanup removes only what was confirmed', async () => {
    const kept = await d('PC-P', { serialNumber: 'SER-P', createdAt: ago(20), lastSeen: ago(1) });
    const dupA = await d('PC-P', { serialNumber: 'SER-P', createdAt: ago(10), lastSeen: ago(4) });
    const dupB = await d('PC-P', { serialNumber: 'SER-P', createdAt: ago(5) });

    const res = await preview({ remove_duplicates: true });
    expect(res.status).toBe(200);
    const plan = res.body.data;
    expect(plan.devices.map((x) => [x.id, x.reason, x.kept_device_id])).toEqual([
      [dupA.id, 'duplicate', kept.id],
      [dupB.id, 'duplicate', kept.id],
    ]);
    const set = plan.duplicate_sets.find((s) => s.kept_device_id === kept.id);
    expect(set?.needs_review).toBe(false);
    expect(outcomes(set)).toEqual([
      [kept.id, 'keep', 'first_proven'],
      [dupA.id, 'remove', 'duplicate'],
      [dupB.id, 'remove', 'duplicate'],
    ]);
    expect(set?.members[0]).toMatchObject({ hostname: 'PC-P', serial_number: 'SER-P', status: 'offline' });
    expect(cleanupMessages.reason[set!.members[0]!.reason]).toMatch(/^Kept: /);
    const left = await remainingIds();
    expect([kept, dupA, dupB].every((x) => left.has(x.id))).toBe(true);

    // the administrator confirmed dupA only (and a device the plan does not remove: ignored)
    const run = await cleanup({ remove_duplicates: true, device_ids: [dupA.id, kept.id] });
    expect(run.status).toBe(200);
    expect(run.body.data.devices.map((x) => x.id)).toEqual([dupA.id]);
    const after = await remainingIds();
    expect(after.has(kept.id) && after.has(dupB.id) && !after.has(dupA.id)).toBe(true);
    await server.database.db.delete(devices).where(inArray(devices.id, [kept.id, dupB.id]));
  });

  it('a site-limited administrator cleans up, bulk-deletes and acts only within their sites', async () => {
    const [hq, lon] = siteIds as [number, number];
    await addMember(server.database.db, {
      tenantId,
      email: 'lon-admin@acme.example',
      role: 'tenant_admin',
      siteIds: [lon],
    });
    const lonAdmin = (await server.devSignIn('lon-admin@acme.example')).token;
    const old = ago(60);
    const hqStale = await d('HQ-STALE', { siteId: hq, lastSeen: old });
    const noSiteStale = await d('NOSITE-STALE', { lastSeen: old });
    const lonStale = await d('LON-STALE', { siteId: lon, lastSeen: old });
    const hqKeep = await d('HQ-DUP', {
      serialNumber: 'SER-HQ',
      siteId: hq,
      createdAt: ago(9),
      lastSeen: ago(0),
    });
    const hqDup = await d('HQ-DUP', {
      serialNumber: 'SER-HQ',
      siteId: hq,
      createdAt: ago(3),
      lastSeen: ago(1),
    });
    const lonKeep = await d('LON-DUP', {
      serialNumber: 'SER-LON',
      siteId: lon,
      createdAt: ago(9),
      lastSeen: ago(0),
    });
    const lonDup = await d('LON-DUP', {
      serialNumber: 'SER-LON',
      siteId: lon,
      createdAt: ago(3),
      lastSeen: ago(1),
    });
    // a London device whose twin is at HQ: the twin is not theirs to weigh or to remove
    const crossLon = await d('CROSS', {
      serialNumber: 'SER-X',
      siteId: lon,
      createdAt: ago(3),
      lastSeen: ago(1),
    });
    const crossHq = await d('CROSS', {
      serialNumber: 'SER-X',
      siteId: hq,
      createdAt: ago(9),
      lastSeen: ago(0),
    });

    const seen = await preview({ offline_days: 30, remove_duplicates: true }, lonAdmin);
    expect(seen.body.data.devices.map((x) => x.id)).toEqual([lonStale.id, lonDup.id]);
    expect(seen.body.data.duplicate_sets.flatMap((s) => s.members.map((m) => m.id))).toEqual([
      lonKeep.id,
      lonDup.id,
    ]);
    const res = await cleanup({ offline_days: 30, remove_duplicates: true }, lonAdmin);
    expect(res.status).toBe(200);
    expect(res.body.data.devices.map((x) => [x.id, x.reason])).toEqual([
      [lonStale.id, 'stale'],
      [lonDup.id, 'duplicate'],
    ]);
    const left = await remainingIds();
    for (const kept of [hqStale, noSiteStale, hqKeep, hqDup, lonKeep, crossLon, crossHq]) {
      expect(left.has(kept.id)).toBe(true);
    }

    const bulk = await server.request<Envelope<unknown>>('DELETE', '/api/customer/devices', {
      token: lonAdmin,
      body: { device_ids: [lonKeep.id, hqKeep.id] },
    });
    expect(bulk.status).toBe(404);
    expect(bulk.body.error).toBe(deviceMessages.devicesNotFound([hqKeep.id]));
    const action = await server.request<Envelope<unknown>>(
      'POST',
      '/api/customer/deployments/device-actions',
      {
        token: lonAdmin,
        body: { device_ids: [hqKeep.id], action_type: 'restart' },
      },
    );
    expect(action.status).toBe(404);
    const still = await remainingIds();
    expect(still.has(hqKeep.id) && still.has(lonKeep.id)).toBe(true);
    // the tenant-wide administrator's cleanup still sees everything
    const all = await cleanup({ offline_days: 30, remove_duplicates: true });
    // (and weighs the cross-site set, whose HQ record was enrolled first)
    expect(all.body.data.devices.map((x) => x.id)).toEqual([
      hqStale.id,
      noSiteStale.id,
      hqDup.id,
      crossLon.id,
    ]);
  });
});
