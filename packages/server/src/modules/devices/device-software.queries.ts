import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { SoftwareItem } from '@outpost/contract/devices';
import { deviceSoftware } from '../../db/schema/index';
import type { Reader } from '../../lib/db';

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
