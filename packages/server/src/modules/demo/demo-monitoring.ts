import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { demoAdminContext } from './demo-sets';
import type { DemoMonitoringServices } from './demo-sets';
import { findTenantIdByName, findUser } from './demo.queries';
import { DEMO } from './demo.seed';
import { DEMO_WEBHOOK_PATH, DEMO_WEBHOOK_SECRET } from './demo-receiver.routes';

// The demo's monitoring (docs/user-guide.md#the-demo): a webhook channel to the server's own demo
// receiver, a monitoring policy whose checks fail on the few simulated devices given faults (hot
// CPU, a filling disk, a stopped Spooler, a failing script, a pending reboot), and, once the first
// alerts are in, one of them acknowledged.

/** Made once: false when the organisation has monitoring policies already. */
export async function seedDemoMonitoring(
  services: DemoMonitoringServices,
  ctx: RequestContext,
  receiverUrl: string,
): Promise<boolean> {
  if ((await services.monitoring.list(ctx)).length > 0) {
    return false;
  }
  if (!(await services.channels.list(ctx)).data.some((c) => c.kind === 'webhook')) {
    await services.channels.create(ctx, {
      kind: 'webhook',
      name: 'Local receiver (demo)',
      enabled: true,
      config: { url: receiverUrl, secret: DEMO_WEBHOOK_SECRET },
    });
  }
  await services.monitoring.create(ctx, {
    name: 'Workstation health',
    description: 'CPU, memory, disk, a health script and pending reboots on every device.',
    target_type: 'tenant',
    enabled: true,
    offline_alert_minutes: 720,
    offline_severity: 'info',
    checks: [
      {
        name: 'CPU busy',
        config: { type: 'cpu', percent: 90, minutes: 5 },
        interval_seconds: 60,
        failures_before_alert: 2,
        severity: 'warning',
      },
      {
        name: 'Memory pressure',
        config: { type: 'memory', percent: 95 },
        interval_seconds: 60,
        failures_before_alert: 2,
        severity: 'warning',
      },
      {
        name: 'Disk space',
        config: { type: 'disk', volume: '*', min_free_percent: 10, min_free_gb: null },
        interval_seconds: 300,
        failures_before_alert: 1,
        severity: 'critical',
      },
      {
        name: 'Backup agent health',
        config: { type: 'script', shell: 'powershell', script: 'exit 0', timeout_seconds: 60 },
        interval_seconds: 300,
        failures_before_alert: 1,
        severity: 'warning',
      },
      {
        name: 'Reboot pending',
        config: { type: 'event', event: 'reboot_pending' },
        interval_seconds: 900,
        failures_before_alert: 1,
        severity: 'info',
      },
    ],
  });
  return true;
}

/** Acknowledges the first open alert, once one is in; false when none came yet. */
export async function acknowledgeOneDemoAlert(
  services: DemoMonitoringServices,
  ctx: RequestContext,
): Promise<boolean> {
  const { data } = await services.alerts.list(ctx, { state: 'open', page_size: 10 });
  const first = data.find((a) => a.condition === 'check');
  if (!first) {
    return false;
  }
  await services.alerts.acknowledge(ctx, first.id, 'Known: the user was told, a fix is planned for Friday');
  return true;
}

/**
 * Once, with the fleet online: the webhook channel to the demo receiver and the monitoring
 * policy; then, in the background, one alert acknowledged once the checks have opened some.
 */
export async function seedMonitoring(
  database: Database,
  log: FastifyBaseLogger,
  services: DemoMonitoringServices,
  serverUrl: string,
) {
  const tenantId = await findTenantIdByName(database.db, DEMO.tenantName);
  const admin = tenantId === null ? null : await findUser(database.db, tenantId, DEMO.adminEmail);
  if (tenantId === null || !admin) {
    return;
  }
  const ctx = demoAdminContext(tenantId, admin);
  const made = await database.exclusive(() =>
    seedDemoMonitoring(services, ctx, new URL(DEMO_WEBHOOK_PATH, serverUrl).toString()),
  );
  if (!made) {
    return;
  }
  log.info('demo: created a monitoring policy and a webhook channel to the local receiver');
  let tries = 0;
  const timer = setInterval(() => {
    tries++;
    acknowledgeOneDemoAlert(services, ctx)
      .then((done) => {
        if (done || tries >= 36) {
          clearInterval(timer);
        }
      })
      .catch((err: unknown) => log.warn({ err }, 'demo: acknowledging an alert failed'));
  }, 5000);
  timer.unref();
}
