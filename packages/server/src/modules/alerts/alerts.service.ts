import type { Alert, AlertCounts, AlertListQuery, AlertListResponse } from '@outpost/contract/alerts';
import { alertMessages, ZERO_ALERT_COUNTS } from '@outpost/contract/alerts';
import { SEVERITIES } from '@outpost/contract/checks';
import type { Severity } from '@outpost/contract/checks';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { badRequest, notFound } from '../../lib/errors';
import type { AlertEngine } from './alert-engine';
import { toAlert } from './alert-view';
import {
  acknowledge,
  activeByDevice,
  countActive,
  findScopedDevice,
  getAlert,
  listAlerts,
  resolveByUser,
  scopedDevicesByGuid,
} from './alerts.queries';
import { emitAlertEvent } from './alert-events';

// The Alerts page's calls (docs/product/monitoring.md#the-alerts-page): every member sees the
// alerts of the sites they may see and acknowledges or resolves them; each action is audited.

export type AlertsService = ReturnType<typeof createAlertsService>;

export function createAlertsService(deps: { db: Db; engine: AlertEngine; now: () => number }) {
  const { db, engine } = deps;
  const actor = (ctx: RequestContext, note: string | undefined) => ({
    userId: ctx.userId,
    name: ctx.name ?? ctx.email,
    note: note?.trim() ? note.trim() : null,
    at: new Date(deps.now()),
  });

  async function list(ctx: RequestContext, q: AlertListQuery): Promise<AlertListResponse> {
    let deviceId: number | undefined;
    if (q.device !== undefined) {
      const device = await findScopedDevice(db, ctx, q.device);
      if (!device) {
        return { data: [], total: 0, page: q.page ?? 1, page_size: q.page_size };
      }
      deviceId = device.id;
    }
    const { rows, total, page } = await listAlerts(db, ctx, { ...q, deviceId });
    return { data: rows.map(toAlert), total, page, page_size: q.page_size };
  }

  async function get(ctx: RequestContext, id: number): Promise<Alert> {
    const row = await getAlert(db, ctx, id);
    if (!row) {
      throw notFound(alertMessages.alertNotFound);
    }
    return toAlert(row);
  }

  async function counts(ctx: RequestContext): Promise<AlertCounts> {
    const result: AlertCounts = { open: { ...ZERO_ALERT_COUNTS.open }, acknowledged: 0 };
    for (const r of await countActive(db, ctx)) {
      if (r.state === 'acknowledged') {
        result.acknowledged += r.n;
      } else {
        result.open[r.severity] += r.n;
      }
    }
    return result;
  }

  /** Acknowledges (or resolves) the given alerts of the caller's scope; answers how many changed. */
  async function act(
    ctx: RequestContext,
    ids: number[],
    note: string | undefined,
    what: 'acknowledge' | 'resolve',
    again = false,
  ) {
    const changed = await db.transaction(async (tx) => {
      const rows =
        what === 'acknowledge'
          ? await acknowledge(tx, ctx, ids, actor(ctx, note), again)
          : await resolveByUser(tx, ctx, ids, actor(ctx, note));
      for (const row of rows) {
        if (what === 'resolve') {
          await emitAlertEvent(tx, row, 'resolved');
        }
        await writeAudit(tx, ctx, {
          action: what === 'acknowledge' ? 'alert.acknowledge' : 'alert.resolve',
          resourceType: 'alert',
          resourceId: row.id,
          details: `${row.title}${note?.trim() ? `: ${note.trim()}` : ''}`,
          siteIds: [row.siteId],
        });
      }
      return rows;
    });
    engine.publishLater(
      changed.map((r) => ({ id: r.id, change: what === 'resolve' ? 'resolved' : 'changed' })),
    );
    return changed.length;
  }

  async function one(
    ctx: RequestContext,
    id: number,
    note: string | undefined,
    what: 'acknowledge' | 'resolve',
  ) {
    const before = await get(ctx, id);
    if (before.state === 'resolved') {
      throw badRequest(alertMessages.alreadyResolved, 'ALERT_RESOLVED');
    }
    // acknowledging an acknowledged alert again takes it over, with the new note
    await act(ctx, [id], note, what, true);
    return get(ctx, id);
  }

  /** Per device guid: the alerts not resolved and the worst severity (the device list's badges). */
  async function byDevice(ctx: RequestContext, guids: string[]) {
    const found = await scopedDevicesByGuid(db, ctx, guids);
    const guidOf = new Map(found.map((d) => [d.id, d.guid]));
    const rows = await activeByDevice(
      db,
      ctx,
      found.map((d) => d.id),
    );
    const data: Record<string, { count: number; severity: Severity }> = {};
    for (const r of rows) {
      const guid = r.deviceId !== null ? guidOf.get(r.deviceId) : undefined;
      if (guid) {
        data[guid] = { count: r.n, severity: SEVERITIES[2 - Number(r.worst)] ?? 'info' };
      }
    }
    return { data };
  }

  return {
    list,
    get,
    counts,
    byDevice,
    acknowledge: (ctx: RequestContext, id: number, note?: string) => one(ctx, id, note, 'acknowledge'),
    resolve: (ctx: RequestContext, id: number, note?: string) => one(ctx, id, note, 'resolve'),
    bulkAcknowledge: async (ctx: RequestContext, ids: number[], note?: string) => ({
      updated: await act(ctx, [...new Set(ids)], note, 'acknowledge'),
    }),
  };
}
