import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Bus } from './live/bus';
import type { AgentReports } from './live/agent-reports';
import type { RemoteReports } from './live/agent-remote';
import { createTerminalService } from './modules/terminal/terminal.service';
import { createRemoteAccessService } from './modules/remote-access/remote-access.service';
import { createFileTransfersService } from './modules/file-transfers/file-transfers.service';
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
import {
  createApiTokensService,
  isApiTokenSecret,
  portalTokenCaller,
  resolveApiToken,
} from './modules/api-tokens/api-tokens.service';
import { createCustomFieldsService } from './modules/custom-fields/custom-fields.service';
import { createDashboardService } from './modules/dashboard/dashboard.service';
import { deploymentSubscriptions } from './modules/deployments/deployment-subscriptions';
import { createDeploymentsService, deploymentLookup } from './modules/deployments/deployments.service';
import { createDeploymentEngine } from './modules/deployments/engine/deployment-engine';
import { createOfflineDevicesService } from './modules/deployments/offline-devices.service';
import { createScriptRunner } from './modules/deployments/script-jobs';
import { createScriptRunsService, createScriptSecrets } from './modules/deployments/script-runs.service';
import { createDeviceActionsService } from './modules/device-actions/device-actions.service';
import { createDeviceStateService } from './modules/devices/device-state.service';
import { canFollowDevice, createDevicesService } from './modules/devices/devices.service';
import type { DevicesService } from './modules/devices/devices.service';
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
import type { MonitoringReports } from './live/agent-monitoring';
import { createAlerts } from './modules/alerts/alerts';
import { createMetricsService } from './modules/metrics/metrics.service';
import type { SampleOutcome } from './modules/metrics/metrics-ingest';
import { createCheckDistribution } from './modules/monitoring/check-distribution';
import { createMonitoringService } from './modules/monitoring/monitoring.service';
import { createSecretBox } from './lib/secret-box';
import { createSso } from './modules/sso/sso';
import type { ScriptRunner } from './modules/scripts/script-runner';
import { createScriptsService } from './modules/scripts/scripts.service';
import { createWebhooks } from './modules/webhooks/webhooks';

// The composition root (docs/architecture.md, "Module map"): every service is built here, once
// per app, each from one deps object, and app.ts hands each route plugin the service it calls.
// One devices service means one device search-total cache for every route that lists devices.

/** What the live layer (live/live-plugin.ts) takes from the modules: built before it exists. */
export function createLivePorts(deps: {
  database: Database;
  tokens: SessionTokens;
  log?: FastifyBaseLogger;
  /** told after the dynamic groups followed a device change (the check sets, built later) */
  afterDevicesChanged?: (tenantId: number, deviceIds: number[]) => Promise<void>;
}): {
  deviceState: DeviceState;
  portalAccess: PortalAccess;
  authorizeDeployment: SubscriptionAuthorizer;
} {
  const { db } = deps.database;
  const membership = createGroupMembership({ db, log: deps.log });
  return {
    // a device's stored state changed: its dynamic groups follow (docs/product/device-sets.md#groups),
    // then its check set (docs/product/monitoring.md#monitoring-policies)
    deviceState: createDeviceStateService({
      db,
      onDevicesChanged: async (tenantId, deviceIds) => {
        await membership.notify(tenantId, deviceIds);
        await deps.afterDevicesChanged?.(tenantId, deviceIds);
      },
    }),
    portalAccess: {
      // a session, or an API token with devices:read (docs/product/administration.md#api-tokens)
      resolveSession: async (token, meta) =>
        isApiTokenSecret(token)
          ? portalTokenCaller(await resolveApiToken(db, token, meta))
          : resolveSession(db, deps.tokens, token, meta),
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
  /** told how many metrics samples were written or dropped, by outcome (the metrics) */
  onMetricSamples?: (outcome: SampleOutcome, count: number) => void;
  /** writes script runs' jobs; the tests pass a recording one */
  scriptRunner?: ScriptRunner;
};

/** Every service of the app, each built once; app.ts calls this once the live layer is up. */
export function createServices(deps: ServicesDeps) {
  const { config, bus, commandQueue, blobStore } = deps;
  const { db } = deps.database;
  // Groups (docs/product/device-sets.md#groups): membership.notify is what the tags and
  // custom-fields services, enrolment and device state call when devices change.
  const membership = createGroupMembership({ db, log: deps.log });
  // Monitoring policies (docs/product/monitoring.md#monitoring-policies): each device's check set
  // and the states its agent reports.
  const checkDistribution = createCheckDistribution({
    db,
    bus,
    log: deps.log,
    // a check failing opens its alert, passing again resolves it (built below; called later)
    onCheckChanges: (tx, changes) => alerting.alertSources.checkChanges(tx, changes),
  });
  // devices changed: their dynamic groups follow, then their check sets (a site or a group may differ)
  const devicesChanged = async (tenantId: number, deviceIds: number[]) => {
    await membership.notify(tenantId, deviceIds);
    await checkDistribution.devicesChanged(tenantId, deviceIds);
  };
  // docs/product/device-sets.md#custom-fields: the engine stores step output through this service.
  const customFields = createCustomFieldsService({
    db,
    onDevicesChanged: devicesChanged,
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
  // Alerts (docs/product/monitoring.md#alerts): routed to the channels through their outbox; the
  // offline sweep is one timer per instance (app.ts starts it).
  const alerting = createAlerts({
    db,
    portalHub: deps.portalHub,
    tellChannels: notifications.tellChannels,
    sweepIntervalMs: config.alerts.sweepIntervalMs,
    log: deps.log,
  });
  // Deployments (docs/product/deployments.md#scheduling): one engine per instance; app.ts starts
  // its scheduler once listening.
  // Script runs (docs/product/scripts.md#runs): their secrets are masked in the engine's output.
  const scriptSecrets = createScriptSecrets(config.sessionSecret);
  const engine = createDeploymentEngine({
    db,
    commandQueue,
    portalHub: deps.portalHub,
    log: deps.log,
    options: config.deployments,
    onDispatched: deps.onDispatched,
    storeStepOutput: (step) => customFields.storeStepOutput(step),
    windowsFor: (ex, deviceIds) => maintenanceWindows.windowsFor(ex, deviceIds),
    // a halt and a failed job open alerts, routed to the channels (a halt in its own words)
    onRolloutHalted: (tx, h) => alerting.alertSources.rolloutHalted(tx, h, rolloutHaltedMessage(h)),
    onJobFailed: (tx, job) => alerting.alertSources.jobFailed(tx, job),
    maskOutput: scriptSecrets.maskOutput,
  });
  const devices = createDevicesService({ db, commandQueue, bus });
  // Script runs (docs/product/scripts.md#runs): the scripts module's ScriptRunner port
  const scriptRunner = createScriptRunner({ db, devices, engine });
  const tenants = createTenantsService({ db });
  const deployments = createDeploymentsService({ db, engine, commandQueue, devices, blobStore });
  // Metrics history (docs/product/monitoring.md#metrics): app.ts starts its flush and rollup job.
  const metricsHistory = createMetricsService({ db, log: deps.log, onSamples: deps.onMetricSamples });
  const monitoringReports: MonitoringReports = {
    checksFor: (device) => checkDistribution.checksFor(device),
    checkResults: (device, message) => checkDistribution.checkResults(device, message),
    metrics: (device, message) => metricsHistory.record(device, message),
    restartedAfterCrash: (device, crash) => alerting.alertSources.agentCrashed(device, crash),
  };
  return {
    engine,
    devices,
    tenants,
    deployments,
    offlineDevices: createOfflineDevicesService({ db, engine, commandQueue }),
    // the ScriptRunner port of the scripts module, and the runs' history and results
    scriptRunner,
    scriptRuns: createScriptRunsService({ db, engine, commandQueue, secrets: scriptSecrets }),
    deviceActions: createDeviceActionsService({ db, commandQueue, devices }),
    dashboard: createDashboardService({ db, devices, tenants, deployments }),
    activity: createActivityService({ db }),
    agents: createAgentsService({ db, bus, onDevicesChanged: devicesChanged }),
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
    sites: createSitesService({ db }),
    tags: createTagsService({ db, onDevicesChanged: devicesChanged }),
    membership,
    groups: createGroupsService({
      db,
      membership,
      onMembersChanged: checkDistribution.groupMembersChanged,
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
    // Event webhooks (docs/product/webhooks.md): subscriptions, delivered through the same outbox
    ...createWebhooks({ db, bus, box: notifications.secretBox, wake: notifications.wakeOutbox }),
    ...alerting,
    // The agent sockets' monitoring port (live/agent-monitoring.ts): the monitoring module takes
    // check sets and states, the metrics module samples, the alerts module crashes.
    monitoringReports,
    metricsHistory,
    checkDistribution,
    monitoring: createMonitoringService({ db, distribution: checkDistribution }),
    ...reachServices(deps, { devices, scriptRunner }),
    ...identityServices(deps),
  };
}

/**
 * Who signs in and who acts (docs/product/sign-in.md, docs/product/administration.md): sessions,
 * members, API tokens and single sign-on. Ended sessions and revoked tokens close their portal
 * sockets on every instance (SECURITY.md R2-1 "Sessions").
 */
function identityServices(deps: ServicesDeps) {
  const { config, bus } = deps;
  const { db } = deps.database;
  const announceEnded = (userIds: number[]) => bus.publish('portal.sessions', { userIds });
  return {
    auth: createAuthService({ db, tokens: deps.tokens }),
    users: createUsersService({
      db,
      sessions: createSessionControl(announceEnded),
    }),
    // API tokens for automation (docs/product/administration.md#api-tokens); a revocation
    // re-checks the creator's portal sockets like ended sessions do
    apiTokens: createApiTokensService({
      db,
      sessions: createSessionControl(announceEnded),
    }),
    // Single sign-on (docs/product/sign-in.md#single-sign-on): the SSO screen and the sign-in flow
    ...createSso({
      db,
      tokens: deps.tokens,
      config,
      announceEnded,
    }),
  };
}

/**
 * Reaching a device now (docs/product/scripts.md, docs/product/remote-access.md): the script
 * library, the remote access settings and their check, the terminal and file transfer.
 */
function reachServices(deps: ServicesDeps, built: { devices: DevicesService; scriptRunner: ScriptRunner }) {
  const { config, bus, blobStore } = deps;
  const { db } = deps.database;
  const { devices, scriptRunner } = built;
  const remoteAccess = createRemoteAccessService({ db, bus, devices });
  return {
    // Remote access (docs/product/remote-access.md): the tenant's settings, the check every
    // terminal and file request passes, and the agent sockets' RemoteReports port.
    remoteAccess,
    // The script library (docs/product/scripts.md): secret parameters sealed with the server's
    // scripts key; runs written through the ScriptRunner port.
    scripts: createScriptsService({
      db,
      box: createSecretBox(config.sessionSecret, 'scripts'),
      // runs become jobs of kind `script` (the deployments module); the tests may record them instead
      runner: deps.scriptRunner ?? scriptRunner,
    }),
    // The remote terminal (docs/product/remote-access.md#terminal): the browser's sockets relayed
    // to the agents over the bus, the sessions' rows, audit entries and recordings.
    terminal: createTerminalService({
      db,
      bus,
      blobStore,
      remoteAccess,
      resolveSession: (token, meta) => resolveSession(db, deps.tokens, token, meta),
      log: deps.log,
    }),
    // File transfer (docs/product/remote-access.md#file-transfer): listings, downloads and
    // uploads through temporary blobs, behind remoteAccess.authorize.
    fileTransfers: createFileTransfersService({ db, bus, blobStore, remoteAccess, log: deps.log }),
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * The live layer's ports to services built after it (app.ts builds the live layer first; the
 * services run on its command queue and bus): each call forwards to the service once built.
 */
export function forwardedPorts(services: () => Services): {
  agentReports: AgentReports;
  monitoringReports: MonitoringReports;
  remoteReports: RemoteReports;
} {
  return {
    // agents' results and step progress go from the command queue to the deployment engine
    agentReports: {
      commandResult: (event) => services().engine.commandResult(event),
      stepProgress: (event) => services().engine.stepProgress(event),
    },
    // checks, metrics and crashes go to the monitoring, metrics and alerts modules
    monitoringReports: {
      checksFor: (device) => services().monitoringReports.checksFor(device),
      checkResults: (device, m) => services().monitoringReports.checkResults(device, m),
      metrics: (device, m) => services().monitoringReports.metrics(device, m),
      restartedAfterCrash: (device, crash) => services().monitoringReports.restartedAfterCrash(device, crash),
    },
    // remote access: the policy agents are told and their terminal and file answers
    remoteReports: {
      policyFor: (device) => services().remoteAccess.remoteReports.policyFor(device),
      fromAgent: (device, m) => services().remoteAccess.remoteReports.fromAgent(device, m),
    },
  };
}
