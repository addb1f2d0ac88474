import { describe, expect, it } from 'vitest';
import type { Executor } from '../../lib/db';
import { CACHE_TTL_MS, createWebhookEvents } from './webhook-events';

// docs/product/webhooks.md#events: a fleet reconnecting emits an event per device; a tenant no
// subscription of which wants them must cost no rows and (nearly) no reads.

/** An executor that answers the subscription read with `subs` and records every insert. */
function recordingTx(subs: { id: number; events: string[] }[]) {
  const seen = { selects: 0, inserts: [] as unknown[] };
  const chain = (result: unknown) => {
    const c: Record<string, unknown> = {};
    for (const m of ['from', 'where', 'values', 'onConflictDoNothing']) {
      c[m] = (v: unknown) => {
        if (m === 'values') {
          seen.inserts.push(v);
        }
        return c;
      };
    }
    c.returning = () => Promise.resolve([]);
    c.then = (ok: (v: unknown) => unknown) => Promise.resolve(result).then(ok);
    return c;
  };
  const tx = {
    select: () => {
      seen.selects++;
      return chain(subs);
    },
    insert: () => chain([]),
  } as unknown as Executor;
  return { tx, seen };
}

describe('the webhooks event sink', () => {
  it('writes nothing for 10,000 presence events no subscription wants, and reads the subscriptions once', async () => {
    let now = 1_000_000;
    const events = createWebhookEvents({ now: () => now });
    const { tx, seen } = recordingTx([{ id: 1, events: ['user.added'] }]);
    for (let device = 1; device <= 10_000; device++) {
      await events.sink(tx, {
        tenantId: 7,
        event: 'device.online',
        data: { device_id: device },
        key: `${device}`,
      });
    }
    expect(seen.inserts).toEqual([]);
    expect(events.lookups()).toBe(1);
    // read again once the cache is old, or at once after a change
    now += CACHE_TTL_MS;
    await events.sink(tx, { tenantId: 7, event: 'device.online', data: {}, key: 'a' });
    expect(events.lookups()).toBe(2);
    events.invalidate(7);
    await events.sink(tx, { tenantId: 7, event: 'device.online', data: {}, key: 'b' });
    expect(events.lookups()).toBe(3);
  });

  it('queues one delivery per subscription that wants the event, named by the occurrence', async () => {
    const events = createWebhookEvents({ now: () => Date.parse('2026-11-27T10:00:00Z') });
    const { tx, seen } = recordingTx([
      { id: 1, events: ['device.online', 'device.offline'] },
      { id: 2, events: ['user.added'] },
      { id: 3, events: ['device.online'] },
    ]);
    await events.sink(tx, { tenantId: 7, event: 'device.online', data: { device_id: 5 }, key: 'k1' });
    expect(seen.inserts).toHaveLength(1);
    const rows = seen.inserts[0] as { subscriptionId: number; dedupeKey: string; message: unknown }[];
    expect(rows.map((r) => r.subscriptionId)).toEqual([1, 3]);
    expect(rows[0]).toMatchObject({
      dedupeKey: 'device.online:k1',
      message: { data: { device_id: 5 }, occurred_at: '2026-11-27T10:00:00.000Z' },
    });
  });
});
