import type { DashboardStats, RecentSoftware } from '@outpost/contract/devices';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { isSiteLimited } from '../../lib/scope';
import type { DeploymentsService } from '../deployments/deployments.service';
import type { DevicesService } from '../devices/devices.service';
import type { TenantsService } from '../tenants/tenants.service';
import { countPackages, recentSoftware } from './dashboard.queries';

const RECENT_DEVICES = 5;
const RECENT_SOFTWARE = 6;
/**
 * How long one scope's "recently discovered software" panel (titles first seen in the last 7
 * days) is reused. It aggregates the window's software rows (11 ms at 10,000 devices, about ten
 * times that at 100,000) and every open dashboard refetches every 30 s; a title discovered now
 * shows up on the panel within this time instead of at once.
 */
export const RECENT_SOFTWARE_TTL_MS = 30_000;
/** Scopes kept at most (the oldest entry goes first). */
const RECENT_SOFTWARE_SCOPES = 1_000;

export type DashboardServiceDeps = {
  db: Db;
  devices: Pick<DevicesService, 'recent' | 'counts'>;
  tenants: Pick<TenantsService, 'summary'>;
  deployments: Pick<DeploymentsService, 'countRunning'>;
  /** the clock of the recent-software cache (tests move it) */
  now?: () => number;
};

// docs/product/devices.md#dashboard. Every signed-in member sees the dashboard of their own scope: the
// counts and lists below are all scoped to the caller's tenant and sites.
export function createDashboardService({
  db,
  devices,
  tenants,
  deployments,
  now = Date.now,
}: DashboardServiceDeps) {
  // Per scope: the tenant and, for a site-limited caller, exactly their sites (so a cached panel
  // never reaches a caller who sees other sites than the one it was computed for).
  const software = new Map<string, { at: number; value: Promise<RecentSoftware[]> }>();
  function recentSoftwareOf(ctx: RequestContext): Promise<RecentSoftware[]> {
    const key = isSiteLimited(ctx)
      ? `${ctx.tenantId}:${[...ctx.siteIds].sort((a, b) => a - b).join(',')}`
      : `${ctx.tenantId}:*`;
    const hit = software.get(key);
    if (hit && now() - hit.at < RECENT_SOFTWARE_TTL_MS) {
      return hit.value;
    }
    const value = recentSoftware(db, ctx, RECENT_SOFTWARE);
    software.delete(key);
    software.set(key, { at: now(), value });
    // a failed query is not kept
    value.catch(() => software.get(key)?.value === value && software.delete(key));
    if (software.size > RECENT_SOFTWARE_SCOPES) {
      software.delete(software.keys().next().value!);
    }
    return value;
  }

  return {
    async stats(ctx: RequestContext): Promise<DashboardStats> {
      const [tenant, counts, recent, packages, software, running] = await Promise.all([
        tenants.summary(ctx.tenantId),
        devices.counts(ctx),
        devices.recent(ctx, RECENT_DEVICES),
        countPackages(db, ctx),
        recentSoftwareOf(ctx),
        deployments.countRunning(ctx),
      ]);
      return {
        tenant: {
          tenant_name: tenant?.tenantName ?? ctx.tenantName,
          plan: tenant?.plan ?? null,
          max_agents: tenant?.maxAgents ?? null,
          license_expiry: tenant?.licenseExpiry?.toISOString() ?? null,
        },
        deviceCounts: counts,
        recentDevices: recent,
        runningDeployments: running,
        totalPackages: packages,
        recentSoftware: software,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
