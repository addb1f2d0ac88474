import { SEVERITY_LABELS } from '@outpost/contract/checks';
import type { Executor } from '../../lib/db';
import type { AlertRow } from './alerts.queries';
import { enabledChannels, groupsOfDevice, listRoutes } from './alert-routes.queries';
import type { RouteRow } from './alert-routes.queries';

// Routing (docs/product/monitoring.md#routing-rules): an alert goes once to each enabled channel that a
// matching, enabled rule names. An organisation without rules: every enabled channel hears the
// warning and critical alerts (docs/decisions/2026-11-27-alerts.md).

const DEFAULT_SEVERITIES = new Set(['warning', 'critical']);

export function ruleMatches(route: RouteRow, alert: AlertRow, deviceGroups: Set<number>): boolean {
  if (!route.enabled || !route.severities.includes(alert.severity)) {
    return false;
  }
  if (route.conditions.length > 0 && !route.conditions.includes(alert.condition)) {
    return false;
  }
  switch (route.targetType) {
    case 'tenant':
      return true;
    case 'site':
      return route.siteId !== null && alert.siteId === route.siteId;
    case 'group':
      return route.groupId !== null && deviceGroups.has(route.groupId);
  }
}

/** The channels an alert goes to. */
export async function channelsFor(ex: Executor, alert: AlertRow): Promise<number[]> {
  const routes = await listRoutes(ex, alert.tenantId);
  if (routes.length === 0) {
    return DEFAULT_SEVERITIES.has(alert.severity) ? enabledChannels(ex, alert.tenantId) : [];
  }
  const groupIds = routes.flatMap((r) => (r.targetType === 'group' && r.groupId !== null ? [r.groupId] : []));
  const deviceGroups =
    alert.deviceId !== null ? await groupsOfDevice(ex, alert.deviceId, groupIds) : new Set<number>();
  const ids = new Set<number>();
  for (const route of routes) {
    if (ruleMatches(route, alert, deviceGroups)) {
      for (const c of route.channels) {
        if (c.enabled) {
          ids.add(c.id);
        }
      }
    }
  }
  return [...ids];
}

/** What the channels hear of an alert (docs/product/monitoring.md#what-channels-hear). */
export function alertMessage(alert: AlertRow, hostname: string | null, what: 'opened' | 'resolved') {
  const where = hostname ? `${hostname}: ` : '';
  const severity = SEVERITY_LABELS[alert.severity];
  const subject =
    what === 'opened' ? `[${severity}] ${where}${alert.title}` : `[Resolved] ${where}${alert.title}`;
  const text =
    what === 'opened'
      ? `${alert.detail ?? alert.title}\nFirst seen ${alert.firstSeenAt.toISOString()}.`
      : `${alert.resolveNote ?? 'Resolved'}. It was first seen ${alert.firstSeenAt.toISOString()} and seen ${alert.occurrences} time${alert.occurrences === 1 ? '' : 's'}.`;
  return {
    subject,
    text,
    severity: what === 'opened' ? alert.severity : ('info' as const),
    data: {
      alert_id: alert.id,
      condition: alert.condition,
      state: what === 'opened' ? 'open' : 'resolved',
      severity: alert.severity,
      device: hostname,
      occurrences: alert.occurrences,
    },
  };
}
