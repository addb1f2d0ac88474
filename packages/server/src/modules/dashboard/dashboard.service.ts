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
 * shows up on the panel within this time instead of at once. From half this time on, the next
 * panel is computed behind the requests, which keep the current one meanwhile.
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
  const software = new Map<
    string,
    { at: number; value: Promise<RecentSoftware[]>; next: Promise<RecentSoftware[]> | null }
  >();
  /** the panel's query, kept for its scope from `at` once it answers (a failed one is not kept) */
  function computeRecentSoftware(ctx: RequestContext, key: string, at: number): Promise<RecentSoftware[]> {
    const value = recentSoftware(db, ctx, RECENT_SOFTWARE);
    return value.then((v) => {
      software.delete(key);
      software.set(key, { at, value, next: null });
      if (software.size > RECENT_SOFTWARE_SCOPES) {
        software.delete(software.keys().next().value!);
      }
      return v;
    });
  }
  function recentSoftwareOf(ctx: RequestContext): Promise<RecentSoftware[]> {
    const key = isSiteLimited(ctx)
      ? `${ctx.tenantId}:${[...ctx.siteIds].sort((a, b) => a - b).join(',')}`
      : `${ctx.tenantId}:*`;
    const hit = software.get(key);
    const age = hit ? now() - hit.at : Infinity;
    if (hit && age < RECENT_SOFTWARE_TTL_MS) {
      // past half its time, the next panel is computed behind this request: at a million devices
      // the query takes about a second, which no request should wait for every 30 s
      if (age >= RECENT_SOFTWARE_TTL_MS / 2 && !hit.next) {
        hit.next = computeRecentSoftware(ctx, key, now());
        hit.next.catch(() => {
          hit.next = null;
        });
      }
      return hit.value;
    }
    // none, or too old: this request waits (for the one under way, if any)
    if (hit?.next) {
      return hit.next;
    }
    const at = now();
    const value = computeRecentSoftware(ctx, key, at);
    software.set(key, { at, value, next: value });
    value.catch(() => software.get(key)?.next === value && software.delete(key));
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
