import { and, count, desc, eq, getTableColumns, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AlertCondition, AlertListQuery, AlertState } from '@outpost/contract/alerts';
import type { Severity } from '@outpost/contract/checks';
import { alerts, deviceGroupMembers, devices, sites } from '../../db/schema/index';
import type { Executor } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// The alerts table (docs/product/monitoring.md#alerts). One row that is not resolved per
// (tenant, condition_key): the partial unique index `alerts_one_open_idx` is what makes two
// instances noticing the same condition meet on one row.

export type AlertRow = typeof alerts.$inferSelect;
export type AlertWithDevice = AlertRow & { deviceGuid: string | null; hostname: string | null };

export type RaisedAlert = {
  tenantId: number;
  condition: AlertCondition;
  conditionKey: string;
  title: string;
  detail: string | null;
  severity: Severity;
  deviceId: number | null;
  siteId: number | null;
  checkId: number | null;
  jobId: number | null;
  silenced: boolean;
};

const withDevice = {
  alert: alerts,
  deviceGuid: devices.deviceGuid,
  hostname: devices.hostname,
};
const flatten = (r: {
  alert: AlertRow;
  deviceGuid: string | null;
  hostname: string | null;
}): AlertWithDevice => ({
  ...r.alert,
  deviceGuid: r.deviceGuid,
  hostname: r.hostname,
});

/**
 * Reopens the key's alert that resolved by itself since `flapSince` (a flapping condition stays
 * one alert), unless another alert of the key is open; answers it, or null.
 */
export async function reopenFlapping(ex: Executor, a: RaisedAlert, flapSince: Date, now: Date) {
  const recent = ex
    .select({ id: alerts.id })
    .from(alerts)
    .where(
      and(
        eq(alerts.tenantId, a.tenantId),
        eq(alerts.conditionKey, a.conditionKey),
        eq(alerts.state, 'resolved'),
        isNull(alerts.resolvedBy),
        gt(alerts.resolvedAt, flapSince),
      ),
    )
    .orderBy(desc(alerts.resolvedAt))
    .limit(1);
  const open = ex
    .select({ one: sql`1` })
    .from(alerts)
    .where(
      and(
        eq(alerts.tenantId, a.tenantId),
        eq(alerts.conditionKey, a.conditionKey),
        ne(alerts.state, 'resolved'),
      ),
    );
  const [row] = await ex
    .update(alerts)
    .set({
      state: 'open',
      resolvedAt: null,
      resolveNote: null,
      lastSeenAt: now,
      occurrences: sql`${alerts.occurrences} + 1`,
      detail: a.detail,
      severity: a.severity,
    })
    // `state = 'resolved'` is checked again on a row another instance reopened meanwhile
    .where(and(inArray(alerts.id, recent), eq(alerts.state, 'resolved'), sql`not exists (${open})`))
    .returning();
  return row ?? null;
}

/** Opens the alert, or counts one more occurrence of the one open; answers it and whether it is new. */
export async function openOrTouch(ex: Executor, a: RaisedAlert, now: Date) {
  const [row] = await ex
    .insert(alerts)
    .values({ ...a, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: [alerts.tenantId, alerts.conditionKey],
      targetWhere: sql`${alerts.state} <> 'resolved'`,
      set: {
        lastSeenAt: now,
        occurrences: sql`${alerts.occurrences} + 1`,
        detail: sql`excluded.detail`,
        severity: sql`excluded.severity`,
      },
    })
    .returning({ ...getTableColumns(alerts), inserted: sql<boolean>`(xmax = 0)` });
  if (!row) {
    throw new Error('alert upsert answered nothing');
  }
  const { inserted, ...alert } = row;
  return { row: alert, inserted };
}

/** Resolves every alert that is not resolved among these keys' prefix (a device's offline alerts …). */
export async function resolveByKeys(ex: Executor, tenantId: number, keys: string[], note: string, now: Date) {
  if (keys.length === 0) {
    return [];
  }
  return ex
    .update(alerts)
    .set({ state: 'resolved', resolvedAt: now, resolvedBy: null, resolvedByName: null, resolveNote: note })
    .where(
      and(eq(alerts.tenantId, tenantId), inArray(alerts.conditionKey, keys), ne(alerts.state, 'resolved')),
    )
    .returning();
}

export type UserAction = { userId: number; name: string; note: string | null; at: Date };

/**
 * Acknowledges the open ones among `ids` (within the caller's scope), and with `again` the
 * acknowledged ones too (a new note, a new owner); answers them.
 */
export async function acknowledge(ex: Executor, scope: Scope, ids: number[], u: UserAction, again = false) {
  return ex
    .update(alerts)
    .set({
      state: 'acknowledged',
      acknowledgedAt: u.at,
      acknowledgedBy: u.userId,
      acknowledgedByName: u.name,
      acknowledgeNote: u.note,
    })
    .where(
      and(
        inScope(alerts, scope),
        inArray(alerts.id, ids),
        again ? ne(alerts.state, 'resolved') : eq(alerts.state, 'open'),
      ),
    )
    .returning();
}

/** Resolves the ones among `ids` not resolved yet (within the caller's scope); answers them. */
export async function resolveByUser(ex: Executor, scope: Scope, ids: number[], u: UserAction) {
  return ex
    .update(alerts)
    .set({
      state: 'resolved',
      resolvedAt: u.at,
      resolvedBy: u.userId,
      resolvedByName: u.name,
      resolveNote: u.note,
    })
    .where(and(inScope(alerts, scope), inArray(alerts.id, ids), ne(alerts.state, 'resolved')))
    .returning();
}

export async function getAlert(ex: Executor, scope: Scope, id: number): Promise<AlertWithDevice | null> {
  const [row] = await ex
    .select(withDevice)
    .from(alerts)
    .leftJoin(devices, eq(devices.id, alerts.deviceId))
    .where(and(inScope(alerts, scope), eq(alerts.id, id)));
  return row ? flatten(row) : null;
}

export async function alertsByIds(ex: Executor, ids: number[]): Promise<AlertWithDevice[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await ex
    .select(withDevice)
    .from(alerts)
    .leftJoin(devices, eq(devices.id, alerts.deviceId))
    .where(inArray(alerts.id, ids));
  return rows.map(flatten);
}

function stateFilter(state: AlertListQuery['state']): SQL | undefined {
  switch (state) {
    case 'all':
      return undefined;
    case 'active':
      return ne(alerts.state, 'resolved');
    case 'open':
    case 'acknowledged':
    case 'resolved':
      return eq(alerts.state, state satisfies AlertState);
  }
}

export async function listAlerts(ex: Executor, scope: Scope, q: AlertListQuery & { deviceId?: number }) {
  const where = and(
    inScope(alerts, scope),
    stateFilter(q.state),
    q.severity ? eq(alerts.severity, q.severity) : undefined,
    q.condition ? eq(alerts.condition, q.condition) : undefined,
    q.deviceId !== undefined ? eq(alerts.deviceId, q.deviceId) : undefined,
    q.site_id !== undefined ? eq(alerts.siteId, q.site_id) : undefined,
    q.group_id !== undefined
      ? inArray(
          alerts.deviceId,
          ex
            .select({ id: deviceGroupMembers.deviceId })
            .from(deviceGroupMembers)
            .where(
              and(
                eq(deviceGroupMembers.groupId, q.group_id),
                eq(deviceGroupMembers.tenantId, scope.tenantId),
              ),
            ),
        )
      : undefined,
  );
  const page = q.page ?? 1;
  const [rows, [total]] = await Promise.all([
    ex
      .select(withDevice)
      .from(alerts)
      .leftJoin(devices, eq(devices.id, alerts.deviceId))
      .where(where)
      // open before acknowledged before resolved; the most severe first; the latest first
      .orderBy(
        sql`case ${alerts.state} when 'open' then 0 when 'acknowledged' then 1 else 2 end`,
        sql`case ${alerts.severity} when 'critical' then 0 when 'warning' then 1 else 2 end`,
        desc(alerts.lastSeenAt),
        desc(alerts.id),
      )
      .limit(q.page_size)
      .offset((page - 1) * q.page_size),
    ex.select({ n: count() }).from(alerts).where(where),
  ]);
  return { rows: rows.map(flatten), total: total?.n ?? 0, page };
}

/** Alerts not resolved, by state and severity, within the caller's scope. */
export async function countActive(ex: Executor, scope: Scope) {
  return ex
    .select({ state: alerts.state, severity: alerts.severity, n: count() })
    .from(alerts)
    .where(and(inScope(alerts, scope), ne(alerts.state, 'resolved')))
    .groupBy(alerts.state, alerts.severity);
}

/** Per device among `deviceIds`: the alerts not resolved and the highest severity among them. */
export async function activeByDevice(ex: Executor, scope: Scope, deviceIds: number[]) {
  if (deviceIds.length === 0) {
    return [];
  }
  return ex
    .select({
      deviceId: alerts.deviceId,
      n: count(),
      worst: sql<number>`min(case ${alerts.severity} when 'critical' then 0 when 'warning' then 1 else 2 end)`,
    })
    .from(alerts)
    .where(and(inScope(alerts, scope), inArray(alerts.deviceId, deviceIds), ne(alerts.state, 'resolved')))
    .groupBy(alerts.deviceId);
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A device of the caller's scope by its guid or its id (anything else names none). */
export async function findScopedDevice(ex: Executor, scope: Scope, key: string) {
  const byId = /^[1-9][0-9]{0,9}$/.test(key) && Number(key) <= 2_147_483_647;
  if (!byId && !GUID.test(key)) {
    return null;
  }
  const [row] = await ex
    .select({ id: devices.id, siteId: devices.siteId, hostname: devices.hostname, guid: devices.deviceGuid })
    .from(devices)
    .where(
      and(
        inScope(devices, scope),
        byId ? eq(devices.id, Number(key)) : eq(devices.deviceGuid, key.toLowerCase()),
      ),
    );
  return row ?? null;
}

/** The devices of the caller's scope among these guids. */
export async function scopedDevicesByGuid(ex: Executor, scope: Scope, guids: string[]) {
  const valid = guids.filter((g) => GUID.test(g)).map((g) => g.toLowerCase());
  if (valid.length === 0) {
    return [];
  }
  return ex
    .select({ id: devices.id, guid: devices.deviceGuid })
    .from(devices)
    .where(and(inScope(devices, scope), inArray(devices.deviceGuid, valid)));
}

export async function findSite(ex: Executor, tenantId: number, id: number) {
  const [row] = await ex
    .select({ id: sites.id, name: sites.siteName })
    .from(sites)
    .where(and(eq(sites.tenantId, tenantId), eq(sites.id, id)));
  return row ?? null;
}
