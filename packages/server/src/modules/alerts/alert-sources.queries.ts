import { sql } from 'drizzle-orm';
import type { Severity } from '@outpost/contract/checks';
import { rowsOf } from '../../lib/db';
import type { Executor } from '../../lib/db';

// What the alert sources read (docs/product/monitoring.md#alerts): devices offline past their
// policies' thresholds, offline alerts whose devices are back, and the sites a failed job's
// devices are in. Reads only; the alerts are written through alerts.queries.ts.

export type OfflineDevice = {
  tenantId: number;
  deviceId: number;
  siteId: number | null;
  hostname: string | null;
  lastSeen: Date | null;
  minutes: number;
  severity: Severity;
};

/**
 * Devices offline longer than an enabled monitoring policy of theirs allows and without an open
 * offline alert, at most `limit`; one row per device and policy (the caller keeps the most severe).
 */
export async function devicesOfflineTooLong(
  ex: Executor,
  now: Date,
  limit: number,
): Promise<OfflineDevice[]> {
  const rows = rowsOf<{
    tenant_id: number;
    device_id: number;
    site_id: number | null;
    hostname: string | null;
    last_seen: string | Date | null;
    minutes: number;
    severity: Severity;
  }>(
    await ex.execute(sql`
    select d.tenant_id, d.id as device_id, d.site_id, d.hostname, d.last_seen,
           p.offline_alert_minutes as minutes, p.offline_severity as severity
    from monitoring_policies p
    join devices d on d.tenant_id = p.tenant_id
      and (p.target_type = 'tenant'
        or (p.target_type = 'site' and d.site_id = p.site_id)
        or (p.target_type = 'group' and exists (
          select 1 from device_group_members m where m.group_id = p.group_id and m.device_id = d.id)))
    where p.enabled and p.offline_alert_minutes is not null
      and d.status = 'offline'
      and coalesce(d.last_seen, d.created_at) < ${now}::timestamptz - make_interval(mins => p.offline_alert_minutes)
      and not exists (
        select 1 from alerts a
        where a.tenant_id = d.tenant_id and a.condition_key = 'offline:device:' || d.id and a.state <> 'resolved')
    limit ${limit}`),
  );
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    deviceId: r.device_id,
    siteId: r.site_id,
    hostname: r.hostname,
    lastSeen: r.last_seen === null ? null : new Date(r.last_seen),
    minutes: r.minutes,
    severity: r.severity,
  }));
}

/** Offline alerts not resolved whose devices are connected again. */
export async function offlineAlertsCleared(ex: Executor, limit: number) {
  const rows = rowsOf<{ tenant_id: number; condition_key: string }>(
    await ex.execute(sql`
    select a.tenant_id, a.condition_key
    from alerts a join devices d on d.id = a.device_id
    where a.condition = 'offline' and a.state <> 'resolved' and d.status <> 'offline'
    limit ${limit}`),
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, conditionKey: r.condition_key }));
}

/** The one site of a job's failed devices, or null when they are in several sites or none. */
export async function failedDevicesSite(ex: Executor, jobId: number): Promise<number | null> {
  const rows = rowsOf<{ site_id: number | null }>(
    await ex.execute(sql`
    select distinct site_id from device_deployments where job_id = ${jobId} and status = 'failed' limit 2`),
  );
  return rows.length === 1 ? (rows[0]?.site_id ?? null) : null;
}

/** The device's hostname and site, for alerts raised from a device reference. */
export async function deviceFacts(ex: Executor, deviceId: number) {
  const rows = rowsOf<{ hostname: string | null; site_id: number | null }>(
    await ex.execute(sql`
    select hostname, site_id from devices where id = ${deviceId}`),
  );
  const row = rows[0];
  return row ? { hostname: row.hostname, siteId: row.site_id } : null;
}
