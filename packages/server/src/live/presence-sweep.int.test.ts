import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { activityEvents, devices } from '../db/schema/index';
import { recordConnected } from '../modules/activity/activity-recorder';
import { hashSecret } from '../modules/agents/agent-secrets';
import { sweepStale } from '../modules/devices/device-state.service';
import type { DeviceChange } from './device-state';

// Devices no instance hears from any more (every instance died with their sockets) are swept
// offline in batches, each published before the next; one heard from meanwhile is left alone.
describe('the presence sweep', () => {
  let server: TestServer;
  let acme: number;
  const db = () => server.database.db;

  beforeAll(async () => {
    server = await startTestServer();
    acme = (await server.seedDemo())!.acmeTenantId;
  });
  afterAll(async () => {
    await server.close();
  });

  it('marks stale devices offline a batch at a time, with their offline event, and leaves a live one', async () => {
    const insert = (status: 'online' | 'loggedin' | 'error', lastSeen: Date) =>
      db()
        .insert(devices)
        .values({
          tenantId: acme,
          deviceGuid: crypto.randomUUID(),
          secretHash: hashSecret(crypto.randomBytes(16).toString('hex')),
          hostname: `SWEEP-${crypto.randomBytes(3).toString('hex')}`,
          status,
          lastSeen,
        })
        .returning({ id: devices.id })
        .then(([row]) => row!.id);
    const hourAgo = new Date(Date.now() - 3_600_000);
    const stale: number[] = [];
    for (const status of ['online', 'loggedin', 'error', 'online', 'online', 'loggedin', 'online'] as const) {
      const id = await insert(status, hourAgo);
      // it came online an hour ago, on an instance that has since died
      await db().transaction((tx) =>
        recordConnected(tx, { id, tenantId: acme }, { ipAddress: null, sessions: [] }, hourAgo),
      );
      stale.push(id);
    }
    const live = await insert('online', new Date());

    const batches: DeviceChange[][] = [];
    const swept = await sweepStale(
      db(),
      60_000,
      async (changes) => {
        // each batch is committed when it is handed over
        const offline = await db()
          .select({ id: devices.id })
          .from(devices)
          .where(and(inArray(devices.id, stale), eq(devices.status, 'offline')));
        expect(offline.length).toBe(batches.flat().length + changes.length);
        batches.push(changes);
      },
      3,
    );

    expect(swept).toBe(7);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(batches.flat().every((c) => c.update.status === 'offline')).toBe(true);
    const rows = await db()
      .select({ id: devices.id, status: devices.status })
      .from(devices)
      .where(inArray(devices.id, [...stale, live]));
    expect(
      rows
        .filter((r) => r.status === 'offline')
        .map((r) => r.id)
        .sort(),
    ).toEqual([...stale].sort());
    expect(rows.find((r) => r.id === live)?.status).toBe('online');
    const offlineEvents = await db()
      .select({ deviceId: activityEvents.deviceId, n: sql<number>`count(*)::int` })
      .from(activityEvents)
      .where(and(inArray(activityEvents.deviceId, stale), eq(activityEvents.eventType, 'offline')))
      .groupBy(activityEvents.deviceId);
    expect(offlineEvents).toHaveLength(7);
    expect(offlineEvents.every((e) => e.n === 1)).toBe(true);

    // nothing left: a second sweep finds nothing and publishes nothing
    const again: DeviceChange[][] = [];
    expect(await sweepStale(db(), 60_000, (changes) => Promise.resolve(void again.push(changes)), 3)).toBe(0);
    expect(again).toEqual([]);
  });
});
