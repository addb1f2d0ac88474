import type { Db } from '../../db/client';
import { canSeeSite } from '../../lib/scope';
import type { SubscriptionAuthorizer } from '../../live/portal-socket';
import { findJob, listDeviceDeployments } from './deployments.queries';
import { jobUpdate } from './engine/job-updates';

/**
 * Who may subscribe to `deployment:{id}` on the portal socket: a caller who may see the job, with
 * the site of one of its devices they may see (a site-limited subscriber gets only their sites'
 * device updates) and the job as it is now. Given to the portal hub by app.ts.
 */
export function deploymentSubscriptions(db: Db): SubscriptionAuthorizer {
  return async (ctx, id) => {
    const job = await findJob(db, ctx, id);
    if (!job) {
      return null;
    }
    const mine = await listDeviceDeployments(db, ctx, id);
    const site = mine.find((d) => canSeeSite(ctx, d.siteId))?.siteId ?? null;
    return { siteId: site, snapshot: jobUpdate(job) };
  };
}
