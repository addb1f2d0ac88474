import { webhookMessages as messages } from '@outpost/contract/webhooks';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { forbidden } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';

// Who may use event webhooks (docs/product/webhooks.md#subscriptions): administrators of all
// sites, since an event tells about every site.

export function requireTenantAdmin(ctx: RequestContext): void {
  requireAdmin(ctx);
  if (isSiteLimited(ctx)) {
    throw forbidden(messages.allSitesOnly, 'ALL_SITES_ONLY');
  }
}
