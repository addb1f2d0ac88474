import type { FastifyBaseLogger } from 'fastify';
import { ALERTS_KEY } from '@outpost/contract/live';
import { alertMessages } from '@outpost/contract/alerts';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import type { PortalHub } from '../../live/portal-socket';
import { alertsByIds, openOrTouch, reopenFlapping, resolveByKeys } from './alerts.queries';
import { inMaintenance } from './maintenance.queries';
import type { AlertRow, RaisedAlert } from './alerts.queries';
import { toAlert } from './alert-view';
import type { NotificationMessage } from '../notifications/formats';
import { emitAlertEvent } from './alert-events';

// Opening and resolving alerts (docs/product/monitoring.md#alerts), in the transaction of what
// caused them (a check's state stored, a rollout halted), so an alert and its notifications are
// written together or not at all:
// - `raise`: the key's open alert counts one more occurrence; otherwise an alert that resolved by
//   itself within FLAP_WINDOW_MS reopens (a flapping condition stays one alert and is told once);
//   otherwise a new alert opens, silenced when its device or site is in maintenance, and is
//   routed to the channels (in the same transaction: the outbox sends it exactly once per channel);
// - `clear`: the key's alert resolves by itself and says so; its channels hear it once.
// The live channel hears each change shortly after, re-read from the database (so a change whose
// transaction rolled back is never announced).

export const FLAP_WINDOW_MS = 15 * 60_000;
const PUBLISH_DELAY_MS = 150;

export type AlertChange = 'opened' | 'changed' | 'resolved';
/** What the channels hear of a new alert when its source says it (a rollout halt's own words). */
export type Told = { event: string; message: NotificationMessage };

export type AlertEngine = ReturnType<typeof createAlertEngine>;

export function createAlertEngine(deps: {
  db: Db;
  portalHub: Pick<PortalHub, 'send'>;
  log: FastifyBaseLogger;
  now: () => number;
  /** routes a new alert, or a resolution, to its channels in the caller's transaction */
  notify: (tx: Executor, alert: AlertRow, what: 'opened' | 'resolved', told?: Told) => Promise<void>;
}) {
  const { log } = deps;

  /** Announces the alerts' changes on the live channel once their transaction has committed. */
  function publishLater(changes: { id: number; change: AlertChange }[]) {
    if (changes.length === 0) {
      return;
    }
    setTimeout(() => {
      alertsByIds(
        deps.db,
        changes.map((c) => c.id),
      )
        .then(async (rows) => {
          for (const row of rows) {
            const change = changes.find((c) => c.id === row.id)?.change ?? 'changed';
            await deps.portalHub.send(
              row.tenantId,
              ALERTS_KEY,
              'alert_update',
              { alert: toAlert(row), change },
              row.siteId,
            );
          }
        })
        .catch((err: unknown) => log.warn({ err }, 'alert update not published'));
    }, PUBLISH_DELAY_MS).unref();
  }

  async function raise(tx: Executor, a: Omit<RaisedAlert, 'silenced'>, told?: Told): Promise<AlertRow> {
    const now = new Date(deps.now());
    const silenced = await inMaintenance(tx, a.tenantId, a.deviceId, a.siteId, now);
    const raised = { ...a, silenced };
    const reopened = await reopenFlapping(tx, raised, new Date(now.getTime() - FLAP_WINDOW_MS), now);
    if (reopened) {
      publishLater([{ id: reopened.id, change: 'changed' }]);
      return reopened;
    }
    const { row, inserted } = await openOrTouch(tx, raised, now);
    if (inserted) {
      await emitAlertEvent(tx, row, 'opened');
    }
    if (inserted && !row.silenced) {
      await deps.notify(tx, row, 'opened', told);
    }
    publishLater([{ id: row.id, change: inserted ? 'opened' : 'changed' }]);
    return row;
  }

  /** Resolves by itself the alerts of these keys that are not resolved; answers them. */
  async function clear(tx: Executor, tenantId: number, keys: string[]): Promise<AlertRow[]> {
    const rows = await resolveByKeys(tx, tenantId, keys, alertMessages.autoResolved, new Date(deps.now()));
    for (const row of rows) {
      await emitAlertEvent(tx, row, 'resolved');
      if (!row.silenced) {
        await deps.notify(tx, row, 'resolved');
      }
    }
    publishLater(rows.map((r) => ({ id: r.id, change: 'resolved' as const })));
    return rows;
  }

  return { raise, clear, publishLater };
}
