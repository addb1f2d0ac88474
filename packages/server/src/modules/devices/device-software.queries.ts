import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import type { SoftwareItem } from '@outpost/contract/devices';
import { deviceSoftware } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { adjustSoftwareCounts, siteKeyOf } from './software-counts.queries';
import type { SoftwareCountChange } from './software-counts.queries';

// A device's software rows, replaced from its inventory (device-state.service.ts). A row keeps
// the time it was first seen; the rows of the device's first software inventory share the time
// stored as the device's software_baseline_at (docs/architecture.md#database). The fleet's
// software counts follow the diff in the same transaction (software-counts.queries.ts); the
// caller has locked the device row.

const CHUNK = 500;

function dedupeSoftware(items: NonNullable<InventoryMessage['software']>) {
  const byKey = new Map<string, (typeof items)[number] & { version: string }>();
  for (const s of items) {
    const version = s.version ?? '';
    byKey.set(`${s.name}\u0000${version}`, { ...s, version });
  }
  return [...byKey.values()];
}

export async function replaceSoftware(
  tx: Executor,
  tenantId: number,
  deviceId: number,
  items: NonNullable<InventoryMessage['software']>,
  siteId: number | null,
) {
  const list = dedupeSoftware(items);
  const existing = await tx
    .select({
      id: deviceSoftware.id,
      name: deviceSoftware.name,
      version: deviceSoftware.version,
      publisher: deviceSoftware.publisher,
    })
    .from(deviceSoftware)
    .where(eq(deviceSoftware.deviceId, deviceId));
  const keyOf = (s: { name: string; version: string }) => `${s.name}\u0000${s.version}`;
  const keep = new Set(list.map(keyOf));
  const had = new Set(existing.map(keyOf));
  const goneRows = existing.filter((e) => !keep.has(keyOf(e)));
  const gone = goneRows.map((e) => e.id);
  const changes: SoftwareCountChange[] = [
    ...list
      .filter((s) => !had.has(keyOf(s)))
      .map((s) => ({ name: s.name, version: s.version, publisher: s.publisher ?? null, delta: 1 })),
    ...goneRows.map((e) => ({ name: e.name, version: e.version, publisher: e.publisher, delta: -1 })),
  ];
  await adjustSoftwareCounts(tx, tenantId, siteKeyOf(siteId), changes);
  for (let i = 0; i < gone.length; i += CHUNK) {
    await tx.delete(deviceSoftware).where(inArray(deviceSoftware.id, gone.slice(i, i + CHUNK)));
  }
  for (let i = 0; i < list.length; i += CHUNK) {
    await tx
      .insert(deviceSoftware)
      .values(
        list.slice(i, i + CHUNK).map((s) => ({
          tenantId,
          deviceId,
          name: s.name,
          displayName: s.displayName,
          publisher: s.publisher,
          version: s.version,
          installDate: s.installDate,
        })),
      )
      .onConflictDoUpdate({
        target: [deviceSoftware.deviceId, deviceSoftware.name, deviceSoftware.version],
        set: {
          displayName: sql`excluded.display_name`,
          publisher: sql`excluded.publisher`,
          installDate: sql`excluded.install_date`,
          lastSeenAt: sql`now()`,
        },
      });
  }
}

// The software of one device, a page at a time (the devices API; devices-list.queries.ts re-exports it).

/** `text` for a LIKE pattern: its wildcards and the escape character match themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listDeviceSoftware(
  db: Reader,
  deviceId: number,
  f: { page: number; limit: number; search?: string },
): Promise<{ rows: SoftwareItem[]; total: number }> {
  const term = f.search ? `%${escapeLike(f.search)}%` : null;
  const where = and(
    eq(deviceSoftware.deviceId, deviceId),
    term
      ? or(
          ilike(deviceSoftware.name, term),
          ilike(deviceSoftware.displayName, term),
          ilike(deviceSoftware.publisher, term),
        )
      : undefined,
  );
  const [totalRow] = await db.select({ n: count() }).from(deviceSoftware).where(where);
  const rows = await db
    .select({
      name: deviceSoftware.name,
      displayName: deviceSoftware.displayName,
      publisher: deviceSoftware.publisher,
      version: deviceSoftware.version,
      installDate: deviceSoftware.installDate,
    })
    .from(deviceSoftware)
    .where(where)
    .orderBy(
      sql`lower(coalesce(${deviceSoftware.displayName}, ${deviceSoftware.name}))`,
      asc(deviceSoftware.id),
    )
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows: rows.map((r) => ({ ...r, version: r.version || null })), total: totalRow?.n ?? 0 };
}
