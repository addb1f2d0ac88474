import type { AlertRoute, AlertRouteInput } from '@outpost/contract/alerts';
import { routeMessages } from '@outpost/contract/alerts';
import { channelMessages } from '@outpost/contract/notification-channels';
import { policyMessages } from '@outpost/contract/policies';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { isAdmin } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import {
  deleteRoute,
  groupInTenant,
  insertRoute,
  listRoutes,
  siteInTenant,
  tenantChannelIds,
  updateRoute,
} from './alert-routes.queries';
import type { RouteRow } from './alert-routes.queries';

// Routing rules (docs/product/monitoring.md#routing-rules), managed by administrators of all sites, as
// the channels they point at are.

const toRoute = (r: RouteRow): AlertRoute => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  severities: r.severities,
  conditions: r.conditions,
  target: {
    type: r.targetType,
    site_id: r.siteId,
    group_id: r.groupId,
    name: r.targetType === 'tenant' ? 'All devices' : (r.targetName ?? 'Removed'),
  },
  channels: r.channels.map(({ id, name }) => ({ id, name })),
});

export type AlertRoutesService = ReturnType<typeof createAlertRoutesService>;

export function createAlertRoutesService(deps: { db: Db }) {
  const { db } = deps;

  function allSitesAdmin(ctx: RequestContext) {
    if (!isAdmin(ctx) || isSiteLimited(ctx)) {
      throw forbidden(channelMessages.allSitesOnly, 'ALL_SITES_ONLY');
    }
  }

  async function checked(tx: Executor, ctx: RequestContext, body: AlertRouteInput) {
    const channelIds = [...new Set(body.channel_ids)];
    const found = await tenantChannelIds(tx, ctx.tenantId, channelIds);
    if (found.length !== channelIds.length) {
      throw notFound(routeMessages.channelNotFound, 'CHANNEL_NOT_FOUND');
    }
    let siteId: number | null = null;
    let groupId: number | null = null;
    if (body.target_type === 'site') {
      if (body.site_id == null) {
        throw badRequest(policyMessages.siteRequired, 'SITE_REQUIRED');
      }
      if (!(await siteInTenant(tx, ctx.tenantId, body.site_id))) {
        throw notFound(policyMessages.siteNotFound, 'SITE_NOT_FOUND');
      }
      siteId = body.site_id;
    } else if (body.target_type === 'group') {
      if (body.group_id == null) {
        throw badRequest(policyMessages.groupRequired, 'GROUP_REQUIRED');
      }
      if (!(await groupInTenant(tx, ctx.tenantId, body.group_id))) {
        throw notFound(policyMessages.groupNotFound, 'GROUP_NOT_FOUND');
      }
      groupId = body.group_id;
    }
    const values = {
      name: body.name,
      enabled: body.enabled,
      severities: [...new Set(body.severities)],
      conditions: [...new Set(body.conditions)],
      target_type: body.target_type,
      siteId,
      groupId,
    };
    return { values, channelIds };
  }

  async function byId(ctx: RequestContext, id: number) {
    const row = (await listRoutes(db, ctx.tenantId)).find((r) => r.id === id);
    if (!row) {
      throw notFound(routeMessages.routeNotFound, 'ROUTE_NOT_FOUND');
    }
    return row;
  }

  return {
    async list(ctx: RequestContext) {
      allSitesAdmin(ctx);
      return { data: (await listRoutes(db, ctx.tenantId)).map(toRoute) };
    },
    async create(ctx: RequestContext, body: AlertRouteInput) {
      allSitesAdmin(ctx);
      const id = await db.transaction(async (tx) => {
        const { values, channelIds } = await checked(tx, ctx, body);
        const newId = await insertRoute(tx, ctx.tenantId, values, channelIds);
        await writeAudit(tx, ctx, {
          action: 'alert_route.create',
          resourceType: 'alert_route',
          resourceId: newId,
          details: body.name,
        });
        return newId;
      });
      return toRoute(await byId(ctx, id));
    },
    async update(ctx: RequestContext, id: number, body: AlertRouteInput) {
      allSitesAdmin(ctx);
      await byId(ctx, id);
      await db.transaction(async (tx) => {
        const { values, channelIds } = await checked(tx, ctx, body);
        await updateRoute(tx, id, values, channelIds);
        await writeAudit(tx, ctx, {
          action: 'alert_route.update',
          resourceType: 'alert_route',
          resourceId: id,
          details: body.name,
        });
      });
      return toRoute(await byId(ctx, id));
    },
    async remove(ctx: RequestContext, id: number) {
      allSitesAdmin(ctx);
      const route = await byId(ctx, id);
      await db.transaction(async (tx) => {
        await deleteRoute(tx, ctx.tenantId, id);
        await writeAudit(tx, ctx, {
          action: 'alert_route.delete',
          resourceType: 'alert_route',
          resourceId: id,
          details: route.name,
        });
      });
      return { id };
    },
  };
}
