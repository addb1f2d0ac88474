import type { Maintenance } from '@outpost/contract/alerts';
import { messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { requireAdmin } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { canSeeSite } from '../../lib/scope';
import { findScopedDevice, findSite } from './alerts.queries';
import { endMaintenance, maintenanceOf, setMaintenance } from './maintenance.queries';
import type { MaintenanceRow } from './maintenance.queries';

// Maintenance mode (docs/product/monitoring.md#maintenance-mode): a device or a whole site whose
// alerts are silenced until a chosen time. Alerts still open (and are listed, marked silenced);
// no channel is told. A member sets it on the devices they may see; a site's takes an administrator.

const toMaintenance = (row: MaintenanceRow): Maintenance => ({
  until: row.until.toISOString(),
  reason: row.reason,
  set_by: row.setByName,
  scope: row.deviceId !== null ? 'device' : 'site',
});

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;

export function createMaintenanceService(deps: { db: Db; now: () => number }) {
  const { db } = deps;

  async function device(ctx: RequestContext, guid: string) {
    const found = await findScopedDevice(db, ctx, guid);
    if (!found) {
      throw notFound(messages.deviceNotFound);
    }
    return found;
  }

  async function site(ctx: RequestContext, id: number) {
    const row = await findSite(db, ctx.tenantId, id);
    if (!row || !canSeeSite(ctx, row.id)) {
      throw notFound(messages.siteNotFound);
    }
    return row;
  }

  const now = () => new Date(deps.now());

  return {
    async ofDevice(ctx: RequestContext, guid: string) {
      const d = await device(ctx, guid);
      const row = await maintenanceOf(db, ctx.tenantId, { deviceId: d.id, siteId: d.siteId }, now());
      return { maintenance: row ? toMaintenance(row) : null };
    },
    async setDevice(ctx: RequestContext, guid: string, body: { minutes: number; reason?: string }) {
      const d = await device(ctx, guid);
      const until = new Date(deps.now() + body.minutes * 60_000);
      await db.transaction(async (tx) => {
        await setMaintenance(tx, {
          tenantId: ctx.tenantId,
          deviceId: d.id,
          siteId: null,
          until,
          reason: body.reason?.trim() || null,
          setBy: ctx.userId,
          setByName: ctx.name ?? ctx.email,
        });
        await writeAudit(tx, ctx, {
          action: 'device.maintenance',
          resourceType: 'device',
          resourceId: d.guid,
          details: `${d.hostname ?? d.guid} in maintenance until ${until.toISOString()}`,
          siteIds: [d.siteId],
        });
      });
      return this.ofDevice(ctx, guid);
    },
    async endDevice(ctx: RequestContext, guid: string) {
      const d = await device(ctx, guid);
      await db.transaction(async (tx) => {
        await endMaintenance(tx, ctx.tenantId, { deviceId: d.id });
        await writeAudit(tx, ctx, {
          action: 'device.maintenance_end',
          resourceType: 'device',
          resourceId: d.guid,
          details: `${d.hostname ?? d.guid} out of maintenance`,
          siteIds: [d.siteId],
        });
      });
      return this.ofDevice(ctx, guid);
    },
    async ofSite(ctx: RequestContext, id: number) {
      const s = await site(ctx, id);
      const row = await maintenanceOf(db, ctx.tenantId, { siteId: s.id }, now());
      return { maintenance: row ? toMaintenance(row) : null };
    },
    async setSite(ctx: RequestContext, id: number, body: { minutes: number; reason?: string }) {
      requireAdmin(ctx);
      const s = await site(ctx, id);
      const until = new Date(deps.now() + body.minutes * 60_000);
      await db.transaction(async (tx) => {
        await setMaintenance(tx, {
          tenantId: ctx.tenantId,
          deviceId: null,
          siteId: s.id,
          until,
          reason: body.reason?.trim() || null,
          setBy: ctx.userId,
          setByName: ctx.name ?? ctx.email,
        });
        await writeAudit(tx, ctx, {
          action: 'site.maintenance',
          resourceType: 'site',
          resourceId: s.id,
          details: `${s.name} in maintenance until ${until.toISOString()}`,
          siteIds: [s.id],
        });
      });
      return this.ofSite(ctx, id);
    },
    async endSite(ctx: RequestContext, id: number) {
      requireAdmin(ctx);
      const s = await site(ctx, id);
      await db.transaction(async (tx) => {
        await endMaintenance(tx, ctx.tenantId, { siteId: s.id });
        await writeAudit(tx, ctx, {
          action: 'site.maintenance_end',
          resourceType: 'site',
          resourceId: s.id,
          details: `${s.name} out of maintenance`,
          siteIds: [s.id],
        });
      });
      return this.ofSite(ctx, id);
    },
  };
}
