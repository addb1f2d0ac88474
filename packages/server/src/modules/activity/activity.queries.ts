import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import {
  activityEvents,
  deviceActivityDaily,
  deviceActivityState,
  devices,
  sites,
} from '../../db/schema/index';
import type { OpenActivitySession } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';
import type { AccountingState, ActivityKind, DayDelta } from './activity-accounting';

// Device activity SQL: the event log, the per-day rollups and the open-interval state.
// Writes run inside the gateway's device transaction (system work: the tenant scope of the device
// being written); reads take the caller's scope.

// ---------- writes (inside the caller's transaction) ----------

const toMs = (d: Date | null) => (d ? d.getTime() : null);
const toDate = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The device's accounting state, locked for this transaction; empty when it has none yet. */
export async function lockState(
  tx: Executor,
  scope: TenantScope,
  deviceId: number,
): Promise<AccountingState | null> {
  const [row] = await tx
    .select()
    .from(deviceActivityState)
    .where(and(inTenant(deviceActivityState, scope), eq(deviceActivityState.deviceId, deviceId)))
    .for('update');
  if (!row) {
    return null;
  }
  return {
    onlineSince: toMs(row.onlineSince),
    loggedInSince: toMs(row.loggedInSince),
    sessions: row.sessions.map((s) => ({ ...s, since: Date.parse(s.since) })),
    lastEventAt: toMs(row.lastEventAt),
    countedDay: row.countedDay,
    countedSessions: row.countedSessions,
  };
}

export async function saveState(
  tx: Executor,
  scope: TenantScope,
  deviceId: number,
  state: AccountingState,
): Promise<void> {
  const values = {
    onlineSince: toDate(state.onlineSince),
    loggedInSince: toDate(state.loggedInSince),
    sessions: state.sessions.map((s): OpenActivitySession => ({
      ...s,
      since: new Date(s.since).toISOString(),
    })),
    lastEventAt: toDate(state.lastEventAt),
    countedDay: state.countedDay,
    countedSessions: state.countedSessions,
    updatedAt: sql`now()`,
  };
  await tx
    .insert(deviceActivityState)
    .values({ deviceId, tenantId: scope.tenantId, ...values })
    .onConflictDoUpdate({ target: deviceActivityState.deviceId, set: values });
}

export type EventRow = {
  type: ActivityKind;
  /** as reported (the agent's clock for login/logout) */
  timestamp: Date;
  /** when the server received it: with the order of ids, what the effective time is built from */
  receivedAt: Date;
  userName?: string | null;
  ipAddress?: string | null;
  sessionId?: string | null;
};

/** Inserts one event; false when the same session event was already recorded (a resend). */
export async function insertEvent(
  tx: Executor,
  scope: TenantScope,
  deviceId: number,
  e: EventRow,
): Promise<boolean> {
  const rows = await tx
    .insert(activityEvents)
    .values({
      tenantId: scope.tenantId,
      deviceId,
      eventType: e.type,
      eventTimestamp: e.timestamp,
      createdAt: e.receivedAt,
      userName: e.userName ?? null,
      ipAddress: e.ipAddress ?? null,
      sessionId: e.sessionId ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: activityEvents.id });
  return rows.length > 0;
}

/** Adds closed time and started sessions to the device's day rows. */
export async function addToRollups(
  tx: Executor,
  scope: TenantScope,
  deviceId: number,
  deltas: readonly DayDelta[],
): Promise<void> {
  if (deltas.length === 0) {
    return;
  }
  await tx
    .insert(deviceActivityDaily)
    .values(
      deltas.map((d) => ({
        deviceId,
        tenantId: scope.tenantId,
        day: d.day,
        onlineMs: d.onlineMs,
        loggedInMs: d.loggedInMs,
        sessionCount: d.sessions,
      })),
    )
    .onConflictDoUpdate({
      target: [deviceActivityDaily.deviceId, deviceActivityDaily.day],
      set: {
        onlineMs: sql`${deviceActivityDaily.onlineMs} + excluded.online_ms`,
        loggedInMs: sql`${deviceActivityDaily.loggedInMs} + excluded.logged_in_ms`,
        sessionCount: sql`${deviceActivityDaily.sessionCount} + excluded.session_count`,
      },
    });
}

// ---------- the demo's back-fill ----------

/** The tenant's devices of these guids with the time their first activity event arrived. */
export async function devicesWithFirstEvent(db: Reader, scope: TenantScope, guids: string[]) {
  if (guids.length === 0) {
    return [];
  }
  return db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      ipAddress: devices.ipAddress,
      firstEventAt:
        sql<Date | null>`(select min(${activityEvents.createdAt}) from ${activityEvents} where ${activityEvents.deviceId} = ${devices.id})`.mapWith(
          (v: string | Date | null) => (v === null ? null : new Date(v)),
        ),
    })
    .from(devices)
    .where(and(inTenant(devices, scope), inArray(devices.deviceGuid, guids)))
    .orderBy(asc(devices.id));
}

/** Locks the device row (the gateway's transactions lock it first too). */
export async function lockDeviceRow(tx: Executor, scope: TenantScope, deviceId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: devices.id })
    .from(devices)
    .where(and(inTenant(devices, scope), eq(devices.id, deviceId)))
    .for('update');
  return rows.length > 0;
}

/** Removes a device's activity: log, day rows and state (the back-fill writes them anew). */
export async function deleteActivity(tx: Executor, scope: TenantScope, deviceId: number): Promise<void> {
  await tx
    .delete(activityEvents)
    .where(and(inTenant(activityEvents, scope), eq(activityEvents.deviceId, deviceId)));
  await tx
    .delete(deviceActivityDaily)
    .where(and(inTenant(deviceActivityDaily, scope), eq(deviceActivityDaily.deviceId, deviceId)));
  await tx
    .delete(deviceActivityState)
    .where(and(inTenant(deviceActivityState, scope), eq(deviceActivityState.deviceId, deviceId)));
}

/** Many events at once (the demo back-fill writes a device's whole history in one statement). */
export async function insertEvents(
  tx: Executor,
  scope: TenantScope,
  deviceId: number,
  rows: readonly EventRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await tx.insert(activityEvents).values(
      rows.slice(i, i + 1000).map((e) => ({
        tenantId: scope.tenantId,
        deviceId,
        eventType: e.type,
        eventTimestamp: e.timestamp,
        createdAt: e.receivedAt,
        userName: e.userName ?? null,
        ipAddress: e.ipAddress ?? null,
        sessionId: e.sessionId ?? null,
      })),
    );
  }
}

// ---------- reads (the caller's scope) ----------

/** A numeric id or a device guid, as the other device routes take it. */
function deviceKey(idOrGuid: string): SQL | null {
  if (/^[1-9][0-9]{0,9}$/.test(idOrGuid) && Number(idOrGuid) <= 2_147_483_647) {
    return eq(devices.id, Number(idOrGuid));
  }
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrGuid)) {
    return eq(devices.deviceGuid, idOrGuid.toLowerCase());
  }
  return null;
}

/** One device the caller may see, with its open intervals; null when not visible. */
export async function findDeviceActivity(db: Reader, scope: Scope, idOrGuid: string) {
  const key = deviceKey(idOrGuid);
  if (!key) {
    return null;
  }
  const [row] = await db
    .select({
      id: devices.id,
      tenantId: devices.tenantId,
      onlineSince: deviceActivityState.onlineSince,
      loggedInSince: deviceActivityState.loggedInSince,
    })
    .from(devices)
    .leftJoin(deviceActivityState, eq(deviceActivityState.deviceId, devices.id))
    .where(and(inScope(devices, scope), key))
    .limit(1);
  return row ?? null;
}

/** What the accounting reads: presence and sessions (notices such as memory_limit count no time). */
const ACCOUNTED: ActivityKind[] = ['online', 'offline', 'login', 'logout'];
const accounted = inArray(activityEvents.eventType, ACCOUNTED);

const eventColumns = {
  id: activityEvents.id,
  type: sql<ActivityKind>`${activityEvents.eventType}`,
  timestamp: activityEvents.eventTimestamp,
  receivedAt: activityEvents.createdAt,
  userName: activityEvents.userName,
  sessionId: activityEvents.sessionId,
  ipAddress: activityEvents.ipAddress,
};

/**
 * The events needed to know the device's state from `from` on: everything from its last online
 * or offline event received before `from` (the state before either is known: offline, nobody
 * signed in), in arrival order.
 */
export async function eventsSince(db: Reader, scope: TenantScope, deviceId: number, from: Date) {
  const mine = and(inTenant(activityEvents, scope), eq(activityEvents.deviceId, deviceId));
  const [anchor] = await db
    .select({ id: activityEvents.id })
    .from(activityEvents)
    .where(
      and(mine, inArray(activityEvents.eventType, ['online', 'offline']), lt(activityEvents.createdAt, from)),
    )
    .orderBy(desc(activityEvents.id))
    .limit(1);
  return db
    .select(eventColumns)
    .from(activityEvents)
    .where(and(anchor ? and(mine, gte(activityEvents.id, anchor.id)) : mine, accounted))
    .orderBy(asc(activityEvents.id));
}

/** Every event of a device in arrival order (tests and tools: the full recomputation). */
export async function allEvents(db: Reader, scope: TenantScope, deviceId: number) {
  return db
    .select(eventColumns)
    .from(activityEvents)
    .where(and(inTenant(activityEvents, scope), eq(activityEvents.deviceId, deviceId), accounted))
    .orderBy(asc(activityEvents.id));
}

/** The device's open intervals (null before its first event). */
export async function openIntervals(db: Reader, scope: TenantScope, deviceId: number) {
  const [row] = await db
    .select({
      onlineSince: deviceActivityState.onlineSince,
      loggedInSince: deviceActivityState.loggedInSince,
    })
    .from(deviceActivityState)
    .where(and(inTenant(deviceActivityState, scope), eq(deviceActivityState.deviceId, deviceId)));
  return row ?? null;
}

/** The device's day rows from `fromDay` (YYYY-MM-DD) on. */
export async function dailyRows(db: Reader, scope: TenantScope, deviceId: number, fromDay: string) {
  return db
    .select({
      day: deviceActivityDaily.day,
      onlineMs: deviceActivityDaily.onlineMs,
      loggedInMs: deviceActivityDaily.loggedInMs,
      sessions: deviceActivityDaily.sessionCount,
    })
    .from(deviceActivityDaily)
    .where(
      and(
        inTenant(deviceActivityDaily, scope),
        eq(deviceActivityDaily.deviceId, deviceId),
        gte(deviceActivityDaily.day, fromDay),
      ),
    )
    .orderBy(asc(deviceActivityDaily.day));
}

/**
 * The overview: one row per device in scope with its closed time over the three windows and
 * today's sessions, plus the open intervals to add. The rollups of the last 30 days are summed
 * per device in one grouped pass (tenant and day index), then joined to the devices in scope.
 */
export async function overviewRows(
  db: Reader,
  scope: Scope,
  days: { today: string; from7: string; from14: string; from30: string },
) {
  const r = deviceActivityDaily;
  const sumIf = (col: typeof r.onlineMs | typeof r.loggedInMs, from: string) =>
    sql<number>`coalesce(sum(${col}) filter (where ${r.day} >= ${from}), 0)::float8`;
  const totals = db
    .select({
      deviceId: r.deviceId,
      sessionsToday:
        sql<number>`coalesce(sum(${r.sessionCount}) filter (where ${r.day} = ${days.today}), 0)::int`.as(
          'sessions_today',
        ),
      online7: sumIf(r.onlineMs, days.from7).as('online7'),
      login7: sumIf(r.loggedInMs, days.from7).as('login7'),
      online14: sumIf(r.onlineMs, days.from14).as('online14'),
      login14: sumIf(r.loggedInMs, days.from14).as('login14'),
      online30: sumIf(r.onlineMs, days.from30).as('online30'),
      login30: sumIf(r.loggedInMs, days.from30).as('login30'),
    })
    .from(r)
    .where(and(inTenant(r, scope), gte(r.day, days.from30)))
    .groupBy(r.deviceId)
    .as('totals');
  const rows = await db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      siteName: sites.siteName,
      onlineSince: deviceActivityState.onlineSince,
      loggedInSince: deviceActivityState.loggedInSince,
      sessionsToday: totals.sessionsToday,
      online7: totals.online7,
      login7: totals.login7,
      online14: totals.online14,
      login14: totals.login14,
      online30: totals.online30,
      login30: totals.login30,
    })
    .from(devices)
    .leftJoin(sites, eq(sites.id, devices.siteId))
    .leftJoin(deviceActivityState, eq(deviceActivityState.deviceId, devices.id))
    .leftJoin(totals, eq(totals.deviceId, devices.id))
    .where(inScope(devices, scope))
    .orderBy(asc(devices.id));
  // a device without rows in the window has no totals row: its sums are null
  return rows;
}
