import type { CleanupBody, CleanupPlan, CleanupResult } from '@outpost/contract/device-cleanup';
import { deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { callerAuditSites, writeAudit } from '../../lib/audit';
import { badRequest } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { loadCleanupPlan } from './cleanup-plan';
import type { RemoveDevices } from './device-removal';

// Agent cleanup (docs/product/administration.md#agent-cleanup): a preview of what it would do, then the cleanup the
// administrator confirmed. The duplicate rules and why: SECURITY.md R2-4, modules/devices/duplicates.ts.

/** A cleanup removes stale agents, duplicates or both; neither is 'No Options Selected'. */
function requireCleanupOption(body: CleanupBody): void {
  if ((body.offline_days ?? null) === null && !body.remove_duplicates) {
    throw badRequest(deviceMessages.noOptionsSelected, 'NO_OPTIONS_SELECTED');
  }
}

export function createCleanupService({ db, removeDevices }: { db: Db; removeDevices: RemoveDevices }) {
  return {
    /** What a cleanup with these options would do, shown before it runs (SECURITY.md R2-4). */
    async previewCleanup(ctx: RequestContext, body: CleanupBody): Promise<CleanupPlan> {
      requireAdmin(ctx);
      requireCleanupOption(body);
      return (await loadCleanupPlan(db, ctx, body)).plan;
    },

    /**
     * Real agent cleanup (beyond docs/product/administration.md#agent-cleanup, where the dialog only showed a toast): the plan
     * again, narrowed to the devices the administrator confirmed from the preview.
     */
    async cleanup(ctx: RequestContext, body: CleanupBody): Promise<CleanupResult> {
      requireAdmin(ctx);
      requireCleanupOption(body);
      const { plan, siteOf, plannedAt } = await loadCleanupPlan(db, ctx, body);
      const confirmed = body.device_ids ? new Set(body.device_ids) : null;
      const chosen = plan.devices.filter((d) => confirmed === null || confirmed.has(d.id));
      const options = `offline_days: ${body.offline_days ?? 'off'}, remove_duplicates: ${Boolean(body.remove_duplicates)}`;
      const rows = chosen.map((d) => ({
        id: d.id,
        hostname: d.hostname,
        deviceGuid: d.device_guid,
        siteId: siteOf.get(d.id) ?? null,
      }));
      const deleted = await removeDevices(
        ctx,
        rows,
        {
          action: 'Agent Cleanup',
          details: (done) => `Removed ${done.length} agent${done.length === 1 ? '' : 's'} (${options})`,
        },
        plannedAt,
      );
      if (deleted.length === 0) {
        // Nothing to remove is still an administrator's action worth recording.
        await writeAudit(db, ctx, {
          action: 'Agent Cleanup',
          resourceType: 'device',
          details: `Removed 0 agents (${options})`,
          siteIds: callerAuditSites(ctx),
        });
      }
      const gone = new Set(deleted.map((r) => r.id));
      const devices = chosen.filter((d) => gone.has(d.id));
      const reviewSets = plan.duplicate_sets.filter((s) => s.needs_review);
      return { removed: devices.length, devices, review_sets: reviewSets };
    },
  };
}
