import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Bus } from '../../live/bus';
import type { RequestContext } from '../../lib/context';
import { deleteIdleDevices } from './cleanup.queries';
import { deleteDevices } from './devices-list.queries';
import { shiftDevicesSoftware } from './software-counts.queries';
import { emitEvent } from '../../lib/events';

// Removing devices (delete, bulk delete, agent cleanup): the rows and their audit entries in one
// transaction, then the removed agents' sockets closed.

export type RemovedRow = { id: number; hostname: string | null; deviceGuid: string; siteId: number | null };

export type RemoveDevices = (
  ctx: RequestContext,
  rows: RemovedRow[],
  audit: { action: string; details: (deleted: RemovedRow[]) => string },
  idleSince?: Date,
) => Promise<RemovedRow[]>;

export function createDeviceRemoval({
  db,
  bus,
  onRemove,
}: {
  db: Db;
  bus: Bus;
  /** before devices of a tenant are removed (cached totals are forgotten) */
  onRemove: (tenantId: number) => void;
}): RemoveDevices {
  /**
   * Deletes devices with their audit entries, in one transaction; `idleSince` (a cleanup) spares
   * any that came online or were heard from since the plan was made. Returns the rows deleted.
   */
  return async function removeDevices(
    ctx: RequestContext,
    rows: RemovedRow[],
    audit: { action: string; details: (deleted: RemovedRow[]) => string },
    idleSince?: Date,
  ): Promise<RemovedRow[]> {
    const ids = rows.map((r) => r.id);
    onRemove(ctx.tenantId);
    if (ids.length === 0) {
      return [];
    }
    const deleted = await db.transaction(async (tx) => {
      // the fleet's software counts lose these devices' software (docs/product/device-sets.md#fleet-software);
      // those a delete spares (out of scope, or heard from since a cleanup's plan) get theirs back
      await shiftDevicesSoftware(tx, ctx.tenantId, ids, -1);
      const gone = new Set(
        idleSince ? await deleteIdleDevices(tx, ctx, ids, idleSince) : await deleteDevices(tx, ctx, ids),
      );
      await shiftDevicesSoftware(
        tx,
        ctx.tenantId,
        ids.filter((id) => !gone.has(id)),
        1,
      );
      const done = rows.filter((r) => gone.has(r.id));
      if (done.length === 0) {
        return done;
      }
      for (const r of done) {
        const data = { device_id: r.id, device_guid: r.deviceGuid, hostname: r.hostname, site_id: r.siteId };
        await emitEvent(tx, ctx.tenantId, 'device.deleted', data, `device:${r.id}:deleted`);
      }
      await writeAudit(tx, ctx, {
        action: audit.action,
        resourceType: 'device',
        resourceId: done.length === 1 ? done[0]!.id : null,
        details: audit.details(done),
        oldValues: done.map((r) => ({ id: r.id, hostname: r.hostname, device_guid: r.deviceGuid })),
        siteIds: done.map((r) => r.siteId),
      });
      // A bulk delete or a cleanup also records each device as deleted, so the audit's
      // 'Delete Device' filter (docs/product/activity.md#audit-log) finds every removed device.
      if (audit.action !== 'Delete Device') {
        for (const r of done) {
          await writeAudit(tx, ctx, {
            action: 'Delete Device',
            resourceType: 'device',
            resourceId: r.id,
            details: `Deleted ${r.hostname ?? r.deviceGuid} (${audit.action})`,
            oldValues: { id: r.id, hostname: r.hostname, device_guid: r.deviceGuid },
            siteIds: [r.siteId],
          });
        }
      }
      return done;
    });
    // Whoever holds a removed agent's socket closes it (its secret no longer matches anything).
    for (const r of deleted) {
      await bus.publish('agent.disconnect', { deviceId: r.id, reason: 'Device removed' });
    }
    return deleted;
  };
}
