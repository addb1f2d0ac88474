import type { DashboardStats } from '@outpost/contract/devices';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../plugins/auth';
import type { DeploymentsService } from '../deployments/deployments.service';
import type { DevicesService } from '../devices/devices.service';
import type { TenantsService } from '../tenants/tenants.service';
import { countPackages, recentSoftware } from './dashboard.queries';

const RECENT_DEVICES = 5;
const RECENT_SOFTWARE = 6;

export type DashboardServiceDeps = {
  db: Db;
  devices: Pick<DevicesService, 'recent' | 'counts'>;
  tenants: Pick<TenantsService, 'summary'>;
  deployments: Pick<DeploymentsService, 'countRunning'>;
};

// spec: core §5 Dashboard. Every signed-in member sees the dashboard of their own scope: the
// counts and lists below are all scoped to the caller's tenant and sites.
export function createDashboardService({ db, devices, tenants, deployments }: DashboardServiceDeps) {
  return {
    async stats(ctx: RequestContext): Promise<DashboardStats> {
      const [tenant, counts, recent, packages, software, running] = await Promise.all([
        tenants.summary(ctx.tenantId),
        devices.counts(ctx),
        devices.recent(ctx, RECENT_DEVICES),
        countPackages(db, ctx),
        recentSoftware(db, ctx, RECENT_SOFTWARE),
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
