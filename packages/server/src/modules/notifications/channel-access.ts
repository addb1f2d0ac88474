import { channelMessages as messages } from '@outpost/contract/notification-channels';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import { getChannel } from './notifications.queries';

// Who may use notification channels (docs/product/monitoring.md#notification-channels):
// administrators of all sites; another organisation's channel is not found.

export function requireTenantAdmin(ctx: RequestContext): void {
  requireAdmin(ctx);
  if (isSiteLimited(ctx)) {
    throw forbidden(messages.allSitesOnly, 'ALL_SITES_ONLY');
  }
}

export async function loadChannel(db: Db, ctx: RequestContext, id: number) {
  const row = await getChannel(db, ctx.tenantId, id);
  if (!row) {
    throw notFound(messages.channelNotFound, 'CHANNEL_NOT_FOUND');
  }
  return row;
}
