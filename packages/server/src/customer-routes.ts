import type { FastifyPluginAsync } from 'fastify';
import type { Config } from './config';
import { authRoutes } from './modules/auth/auth.routes';
import { enrollmentTokenRoutes } from './modules/agents/agents.routes';
import { filesRoutes } from './modules/files/files.routes';
import { packagesRoutes } from './modules/packages/packages.routes';
import { devicesRoutes } from './modules/devices/devices.routes';
import { deviceActionsRoutes } from './modules/device-actions/device-actions.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { deploymentsRoutes } from './modules/deployments/deployments.routes';
import { policiesRoutes } from './modules/policies/policies.routes';
import { monitoringRoutes } from './modules/monitoring/monitoring.routes';
import { offlineDevicesRoutes } from './modules/deployments/offline-devices.routes';
import { scriptRunsRoutes } from './modules/deployments/script-runs.routes';
import { devScriptRunsRoutes } from './modules/deployments/script-runs.dev-routes';
import { usersRoutes } from './modules/users/users.routes';
import { sitesRoutes } from './modules/sites/sites.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { softwareRoutes } from './modules/software/software.routes';
import { groupsRoutes } from './modules/groups/groups.routes';
import { notificationChannelsRoutes } from './modules/notifications/channels.routes';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { remoteAccessRoutes } from './modules/remote-access/remote-access.routes';
import { terminalRoutes } from './modules/terminal/terminal.routes';
import { fileTransfersRoutes } from './modules/file-transfers/file-transfers.routes';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes';
import { maintenanceWindowsRoutes } from './modules/maintenance-windows/maintenance-windows.routes';
import { agentUpdateRoutes } from './modules/agent-releases/agent-releases.routes';
import { customFieldsRoutes } from './modules/custom-fields/custom-fields.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { scriptsRoutes } from './modules/scripts/scripts.routes';
import { ssoRoutes } from './modules/sso/sso.routes';
import type { AuthRoutesOptions } from './modules/auth/auth.routes';
import type { Services } from './services';

// Every /api/customer route (the portal's and automation's calls), in their registration order;
// each plugin gets the service it calls. app.ts registers this under /api/customer.

export type CustomerRoutesOptions = {
  services: Services;
  config: Config;
  authOptions: AuthRoutesOptions;
};

export const customerRoutes: FastifyPluginAsync<CustomerRoutesOptions> = async (customer, opts) => {
  const { services, config, authOptions } = opts;
  await customer.register(authRoutes, authOptions);
  await customer.register(enrollmentTokenRoutes, { service: services.agents });
  await customer.register(filesRoutes, {
    service: services.files,
    maxUploadBytes: config.maxUploadBytes,
  });
  await customer.register(packagesRoutes, { service: services.packages });
  await customer.register(devicesRoutes, { service: services.devices });
  await customer.register(dashboardRoutes, { service: services.dashboard });
  await customer.register(deviceActionsRoutes, { service: services.deviceActions });
  await customer.register(deploymentsRoutes, { service: services.deployments });
  await customer.register(offlineDevicesRoutes, { service: services.offlineDevices });
  await customer.register(scriptRunsRoutes, { service: services.scriptRuns });
  // script runs given whole, for the tests of a development or demo server (script-runs.dev-routes.ts)
  if (config.devLogin || config.demo) {
    await customer.register(devScriptRunsRoutes, {
      runner: services.scriptRunner,
      serverSecret: config.sessionSecret,
    });
  }
  await customer.register(usersRoutes, { service: services.users });
  await customer.register(sitesRoutes, { service: services.sites });
  await customer.register(tagsRoutes, { service: services.tags });
  await customer.register(auditRoutes, { service: services.audit });
  await customer.register(activityRoutes, { service: services.activity });
  await customer.register(agentUpdateRoutes, { service: services.agentUpdate });
  await customer.register(customFieldsRoutes, { service: services.customFields });
  await customer.register(policiesRoutes, { service: services.policies });
  await customer.register(softwareRoutes, { service: services.software });
  await customer.register(groupsRoutes, { service: services.groups });
  await customer.register(maintenanceWindowsRoutes, { service: services.maintenanceWindows });
  await customer.register(notificationChannelsRoutes, { service: services.notificationChannels });
  await customer.register(alertsRoutes, {
    alerts: services.alerts,
    maintenance: services.maintenance,
    routes: services.alertRoutes,
  });
  await customer.register(metricsRoutes, { service: services.metricsHistory });
  await customer.register(monitoringRoutes, { service: services.monitoring });
  await customer.register(remoteAccessRoutes, { service: services.remoteAccess });
  await customer.register(scriptsRoutes, { service: services.scripts });
  await customer.register(terminalRoutes, { service: services.terminal });
  await customer.register(fileTransfersRoutes, { service: services.fileTransfers });
  await customer.register(apiTokensRoutes, { service: services.apiTokens });
  await customer.register(webhooksRoutes, { service: services.webhooks });
  await customer.register(ssoRoutes, {
    service: services.sso,
    signIn: services.ssoSignIn,
    publicUrl: config.sso.publicUrl,
    signInPerMinute: config.signInPerMinute,
  });
};
