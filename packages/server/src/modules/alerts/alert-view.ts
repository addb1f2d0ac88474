import type { Alert } from '@outpost/contract/alerts';
import type { AlertWithDevice } from './alerts.queries';

// An alert row as the API and the live channel answer it (docs/product/monitoring.md#alerts).

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toAlert(r: AlertWithDevice): Alert {
  return {
    id: r.id,
    condition: r.condition,
    title: r.title,
    detail: r.detail,
    severity: r.severity,
    state: r.state,
    device: r.deviceGuid !== null ? { guid: r.deviceGuid, hostname: r.hostname ?? r.deviceGuid } : null,
    site_id: r.siteId,
    check_id: r.checkId,
    job_id: r.jobId,
    first_seen_at: r.firstSeenAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    occurrences: r.occurrences,
    acknowledged_at: iso(r.acknowledgedAt),
    acknowledged_by: r.acknowledgedByName,
    acknowledge_note: r.acknowledgeNote,
    resolved_at: iso(r.resolvedAt),
    resolved_by: r.resolvedByName,
    resolve_note: r.resolveNote,
    silenced: r.silenced,
  };
}
