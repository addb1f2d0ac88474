import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import { createPeriodic } from '../../lib/periodic';
import type { PortalHub } from '../../live/portal-socket';
import { systemClock } from '../deployments/engine/clock';
import type { NotificationMessage } from '../notifications/formats';
import { createAlertEngine } from './alert-engine';
import { createAlertRoutesService } from './alert-routes.service';
import { createAlertSources } from './alert-sources';
import { deviceFacts } from './alert-sources.queries';
import { createAlertsService } from './alerts.service';
import { createMaintenanceService } from './maintenance.service';
import { alertMessage, channelsFor } from './routing';

// The alerts module as the app builds it (docs/product/monitoring.md#alerts): the engine that
// opens and resolves alerts, routed to the notification channels through their outbox; the
// sources that call it; the offline sweep (one timer per instance, started by app.ts); and the
// services behind the Alerts page, maintenance mode and routing rules.

type TellChannels = (
  tx: Executor,
  channelIds: number[],
  n: { tenantId: number; event: string; dedupeKey: string; message: NotificationMessage },
) => Promise<void>;

export function createAlerts(deps: {
  db: Db;
  portalHub: Pick<PortalHub, 'send'>;
  tellChannels: TellChannels;
  sweepIntervalMs: number;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  const now = deps.now ?? (() => systemClock.now());
  const engine = createAlertEngine({
    db: deps.db,
    portalHub: deps.portalHub,
    log: deps.log,
    now,
    // one delivery per channel and alert for its opening and one for its resolution, whatever
    // restarts in between (the outbox's dedupe key)
    notify: async (tx, alert, what, told) => {
      const channelIds = await channelsFor(tx, alert);
      if (channelIds.length === 0) {
        return;
      }
      const hostname =
        alert.deviceId !== null ? ((await deviceFacts(tx, alert.deviceId))?.hostname ?? null) : null;
      await deps.tellChannels(tx, channelIds, {
        tenantId: alert.tenantId,
        event: told?.event ?? (what === 'opened' ? 'alert' : 'alert_resolved'),
        dedupeKey: `alert:${alert.id}:${what}`,
        message: told?.message ?? alertMessage(alert, hostname, what),
      });
    },
  });
  const sources = createAlertSources({ db: deps.db, engine, log: deps.log, now });
  const alertSweep = createPeriodic({
    name: 'alert sweep',
    pass: () => sources.sweepOffline(),
    clock: systemClock,
    intervalMs: deps.sweepIntervalMs,
    log: deps.log,
  });
  return {
    alertEngine: engine,
    alertSources: sources,
    alertSweep,
    alerts: createAlertsService({ db: deps.db, engine, now }),
    maintenance: createMaintenanceService({ db: deps.db, now }),
    alertRoutes: createAlertRoutesService({ db: deps.db }),
  };
}
