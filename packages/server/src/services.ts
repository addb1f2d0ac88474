import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Bus } from './live/bus';
import type { CommandQueue } from './live/command-queue';
import type { DeviceState } from './live/device-state';
import type { PortalAccess, PortalHub, SubscriptionAuthorizer } from './live/portal-socket';
import { createActivityService } from './modules/activity/activity.service';
import { createAgentReleasesService } from './modules/agent-releases/agent-releases.service';
import { createAgentUpdateService } from './modules/agent-releases/agent-update.service';
import type { ReleaseStore } from './modules/agent-releases/release-store';
import { createAgentsService } from './modules/agents/agents.service';
import { createAuditService } from './modules/audit/audit.service';
import { createAuthService } from './modules/auth/auth.service';
import type { SessionTokens } from './modules/auth/session-token';
import { createSessionControl, resolveSession } from './modules/auth/sessions.service';
import { createCustomFieldsService } from './modules/custom-fields/custom-fields.service';
import { createDashboardService } from './modules/dashboard/dashboard.service';
import { deploymentSubscriptions } from './modules/deployments/deployment-subscriptions';
import { createDeploymentsService, deploymentLookup } from './modules/deployments/deployments.service';
import { createDeploymentEngine } from './modules/deployments/engine/deployment-engine';
import { createOfflineDevicesService } from './modules/deployments/offline-devices.service';
import { createDeviceActionsService } from './modules/device-actions/device-actions.service';
import { createDeviceStateService } from './modules/devices/device-state.service';
import { canFollowDevice, createDevicesService } from './modules/devices/devices.service';
import type { BlobStore } from './modules/files/blob-store';
import { createFilesService } from './modules/files/files.service';
import { createGroupsService } from './modules/groups/groups.service';
import { createGroupMembership } from './modules/groups/membership.service';
import { createStorageQuota } from './modules/files/storage-quota';
import { createHealthService } from './modules/health/health.service';
import type { DependencyState } from './modules/health/health.service';
import { createPackagesService } from './modules/packages/packages.service';
import { createPoliciesService } from './modules/policies/policies.service';
import { createPolicyRunner } from './modules/policies/policy-runner';
import { createPolicyScheduler } from './modules/policies/policy-scheduler';
import { systemClock } from './modules/deployments/engine/clock';
import { createSitesService } from './modules/sites/sites.service';
import { createNotifications, rolloutHaltedMessage } from './modules/notifications/notifications';
import { createMaintenanceWindowsService } from './modules/maintenance-windows/maintenance-windows.service';
import { createSoftwareService } from './modules/software/software.service';
import { createTagsService } from './modules/tags/tags.service';
import { createTenantsService } from './modules/tenants/tenants.service';
import { createUsersService } from './modules/users/users.service';

// The composition root (docs/architecture.md, "Module map"): every service is built here, once
// per app, each from one deps object, and app.ts hands each route plugin the service it calls.
// One devices service means one device search-total cache for every route that lists devices.

/** What the live layer (live/live-plugin.ts) takes from the modules: built before it exists. */
export function createLivePorts(deps: {
  database: Database;
  tokens: SessionTokens;
  log?: FastifyBaseLogger;
}): {
  deviceState: DeviceState;
  portalAccess: PortalAccess;
  authorizeDeployment: SubscriptionAuthorizer;
} {
  const { db } = deps.database;
  return {
    // a device's stored state changed: its dynamic groups follow (docs/product/device-sets.md#groups)
    deviceState: createDeviceStateService({
      db,
      onDevicesChanged: createGroupMembership({ db, log: deps.log }).notify,
    }),
    portalAccess: {
      resolveSession: (token, meta) => resolveSession(db, deps.tokens, token, meta),
      canFollowDevice: (ctx, deviceGuid) => canFollowDevice(db, ctx, deviceGuid),
    },
    authorizeDeployment: deploymentSubscriptions(db),
  };
}

export type ServicesDeps = {
  config: Config;
  database: Database;
  tokens: SessionTokens;
  /** the live layer's bus, command queue and portal hub (app.bus, app.commandQueue, app.portalHub) */
  bus: Bus;
  commandQueue: CommandQueue;
  portalHub: Pick<PortalHub, 'send'>;
  log: FastifyBaseLogger;
  blobStore: BlobStore;
  releases: ReleaseStore;
  /** the state of the Redis connection, when REDIS_URL is set (GET /api/health) */
  redisState?: () => DependencyState;
  /** told, per dispatched job, how long after it became due it was dispatched (the metrics) */
  onDispatched?: (lagSeconds: number) => void;
};

/** Every service of the app, each built once; app.ts calls this once the live layer is up. */
export function createServices(deps: ServicesDeps) {
  const { config, bus, commandQueue, blobStore } = deps;
  const { db } = deps.database;
  // Groups (docs/product/device-sets.md#groups): membership.notify is what the tags and
  // custom-fields services, enrolment and device state call when devices change.
  const membership = createGroupMembership({ db, log: deps.log });
  // docs/product/device-sets.md#custom-fields: the engine stores step output through this service.
  const customFields = createCustomFieldsService({
    db,
    onDevicesChanged: membership.notify,
    onDefaultChanged: membership.fieldChanged,
  });
  // docs/product/rollouts.md#maintenance-windows: the engine reads devices' windows through this service.
  const maintenanceWindows = createMaintenanceWindowsService({ db });
  // Notification channels (docs/product/monitoring.md): the engine tells them of rollout halts.
  const notifications = createNotifications({
    db,
    sessionSecret: config.sessionSecret,
    intervalMs: config.notifications.outboxIntervalMs,
    log: deps.log,
  });
  // Deployments (docs/product/deployments.md#scheduling): one engine per instance; app.ts starts
  // its scheduler once listening.
  const engine = createDeploymentEngine({
    db,
    commandQueue,
    portalHub: deps.portalHub,
    log: deps.log,
    options: config.deployments,
    onDispatched: deps.onDispatched,
    storeStepOutput: (step) => customFields.storeStepOutput(step),
    windowsFor: (ex, deviceIds) => maintenanceWindows.windowsFor(ex, deviceIds),
    onRolloutHalted: (tx, h) =>
      notifications.tellEveryChannel(tx, {
        tenantId: h.tenantId,
        event: 'rollout_halted',
        dedupeKey: `rollout_halted:${h.jobId}:${h.at.toISOString()}`,
        message: rolloutHaltedMessage(h),
      }),
  });
  const devices = createDevicesService({ db, commandQueue, bus });
  const tenants = createTenantsService({ db });
  const deployments = createDeploymentsService({ db, engine, commandQueue, devices, blobStore });
  return {
    engine,
    devices,
    tenants,
    deployments,
    offlineDevices: createOfflineDevicesService({ db, engine, commandQueue }),
    deviceActions: createDeviceActionsService({ db, commandQueue, devices }),
    dashboard: createDashboardService({ db, devices, tenants, deployments }),
    activity: createActivityService({ db }),
    auth: createAuthService({ db, tokens: deps.tokens }),
    agents: createAgentsService({ db, bus, onDevicesChanged: membership.notify }),
    agentReleases: createAgentReleasesService({ releases: deps.releases }),
    agentUpdate: createAgentUpdateService({ db, releases: deps.releases, commandQueue, deployments }),
    files: createFilesService({
      db,
      blobStore,
      maxUploadBytes: config.maxUploadBytes,
      quota: createStorageQuota(db, config.tenantStorageQuotaBytes),
    }),
    packages: createPackagesService({
      db,
      // a package still used by a pending or running deployment is not deleted
      activeDeploymentCounters: [deploymentLookup.activeJobsForPackage],
    }),
    users: createUsersService({
      db,
      // SECURITY.md R2-1 "Sessions": ended sessions close their portal sockets on every instance.
      sessions: createSessionControl((userIds) => bus.publish('portal.sessions', { userIds })),
    }),
    sites: createSitesService({ db }),
    tags: createTagsService({ db, onDevicesChanged: membership.notify }),
    membership,
    groups: createGroupsService({
      db,
      membership,
      exportDevices: (ctx, filters, name) =>
        devices.exportCsv(ctx, { search: '', os_type: '', ...filters }, name),
    }),
    audit: createAuditService({ db }),
    health: createHealthService({ database: deps.database, redisState: deps.redisState, log: deps.log }),
    customFields,
    // Automation policies (docs/product/device-sets.md#automation-policies): one timer per instance; app.ts starts it.
    policies: createPoliciesService({ db, deployments }),
    policyScheduler: createPolicyScheduler({
      runner: createPolicyRunner({ db, deployments, log: deps.log }),
      clock: systemClock,
      intervalMs: config.policies.schedulerIntervalMs,
      log: deps.log,
    }),
    software: createSoftwareService({ db }),
    maintenanceWindows,
    ...notifications,
  };
}

export type Services = ReturnType<typeof createServices>;
