import { and, desc, eq, gt, lt, or } from 'drizzle-orm';
import { maintenanceModes } from '../../db/schema/index';
import type { Executor } from '../../lib/db';

// Maintenance mode (docs/product/monitoring.md#maintenance-mode): one row per device or site.

export type MaintenanceRow = typeof maintenanceModes.$inferSelect;

/** Whether the device, or its site, is in maintenance at `now`. */
export async function inMaintenance(
  ex: Executor,
  tenantId: number,
  deviceId: number | null,
  siteId: number | null,
  now: Date,
) {
  const subjects = [
    deviceId !== null ? eq(maintenanceModes.deviceId, deviceId) : undefined,
    siteId !== null ? eq(maintenanceModes.siteId, siteId) : undefined,
  ].filter((s) => s !== undefined);
  if (subjects.length === 0) {
    return false;
  }
  const [row] = await ex
    .select({ id: maintenanceModes.id })
    .from(maintenanceModes)
    .where(and(eq(maintenanceModes.tenantId, tenantId), or(...subjects), gt(maintenanceModes.until, now)))
    .limit(1);
  return row !== undefined;
}

/** The device's own maintenance, or its site's, whichever lasts longer, if any is running. */
export async function maintenanceOf(
  ex: Executor,
  tenantId: number,
  subject: { deviceId?: number; siteId: number | null },
  now: Date,
) {
  const subjects = [
    subject.deviceId !== undefined ? eq(maintenanceModes.deviceId, subject.deviceId) : undefined,
    subject.siteId !== null ? eq(maintenanceModes.siteId, subject.siteId) : undefined,
  ].filter((s) => s !== undefined);
  if (subjects.length === 0) {
    return null;
  }
  const [row] = await ex
    .select()
    .from(maintenanceModes)
    .where(and(eq(maintenanceModes.tenantId, tenantId), or(...subjects), gt(maintenanceModes.until, now)))
    .orderBy(desc(maintenanceModes.until))
    .limit(1);
  return row ?? null;
}

export async function setMaintenance(
  ex: Executor,
  v: {
    tenantId: number;
    deviceId: number | null;
    siteId: number | null;
    until: Date;
    reason: string | null;
    setBy: number;
    setByName: string;
  },
) {
  const target = v.deviceId !== null ? maintenanceModes.deviceId : maintenanceModes.siteId;
  const [row] = await ex
    .insert(maintenanceModes)
    .values({ ...v, createdAt: new Date() })
    .onConflictDoUpdate({
      target,
      set: {
        until: v.until,
        reason: v.reason,
        setBy: v.setBy,
        setByName: v.setByName,
        createdAt: new Date(),
      },
    })
    .returning();
  return row;
}

export async function endMaintenance(
  ex: Executor,
  tenantId: number,
  subject: { deviceId: number } | { siteId: number },
) {
  await ex
    .delete(maintenanceModes)
    .where(
      and(
        eq(maintenanceModes.tenantId, tenantId),
        'deviceId' in subject
          ? eq(maintenanceModes.deviceId, subject.deviceId)
          : eq(maintenanceModes.siteId, subject.siteId),
      ),
    );
}

/** Drops maintenance that ended before `before` (kept a while to say "ended at"). */
export async function dropEndedMaintenance(ex: Executor, before: Date) {
  await ex.delete(maintenanceModes).where(lt(maintenanceModes.until, before));
}
