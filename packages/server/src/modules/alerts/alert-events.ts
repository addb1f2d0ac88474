import type { Executor } from '../../lib/db';
import { emitEvent } from '../../lib/events';
import type { AlertRow } from './alerts.queries';

// An alert's events (docs/product/webhooks.md#events): alert.opened when a new alert is written,
// alert.resolved when it is resolved, by itself or by a person, in that transaction. Silenced
// alerts (maintenance) are events too: a machine decides for itself what to do with them.

export async function emitAlertEvent(
  tx: Executor,
  alert: AlertRow,
  what: 'opened' | 'resolved',
): Promise<void> {
  const data = {
    id: alert.id,
    condition: alert.condition,
    title: alert.title,
    severity: alert.severity,
    state: alert.state,
    device_id: alert.deviceId,
    site_id: alert.siteId,
    silenced: alert.silenced,
  };
  // an alert reopened by flapping may be resolved again later: each resolution is its own event
  const at = what === 'opened' ? alert.firstSeenAt : (alert.resolvedAt ?? alert.lastSeenAt);
  await emitEvent(tx, alert.tenantId, `alert.${what}`, data, `alert:${alert.id}:${what}:${at.getTime()}`);
}
