import type {
  ActivityChartResponse,
  ActivityLogResponse,
  ActivityOverviewPage,
  DeviceActivityOverviewResponse,
  PagedOverviewQuery,
  WeeklySummaryResponse,
} from '@outpost/contract/activity';
import { ACTIVITY_CHART_SLOTS, ACTIVITY_MAX_DAYS, ACTIVITY_WEEKLY_DAYS } from '@outpost/contract/activity';
import { deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import { isSiteLimited, tenantOnly } from '../../lib/scope';
import type { Scope } from '../../lib/scope';
import {
  allEvents,
  dailyRows,
  eventsSince,
  findDeviceActivity,
  openIntervals,
  overviewRows,
} from './activity.queries';
import { listEvents } from './activity-log.queries';
import {
  DAY_MS,
  HOUR_MS,
  dailyTotals,
  dayStart,
  effectiveTime,
  hourlySlots,
  openPart,
  timeline,
  utcDay,
  utilisation,
  weeklyRows,
  withOpenIntervals,
} from './activity-accounting';
import type { AccountingEvent, DayTotals, Timeline } from './activity-accounting';
import { OverviewSnapshot, finishInSteps, mapInSteps } from './activity-overview';

// Device activity reads (docs/product/activity.md#calls device activity calls, #device-activity-overview). Every
// call is tenant and site scoped like the devices list: a device the caller may not see is 404.

/**
 * The overview of a scope this large is reused: its rows (every device's 30-day aggregate) cost
 * about 0.3 s of database time per 10,000 devices, while its figures move by minutes. The rows
 * are kept with their sorted orders (OverviewSnapshot), so the product's full list and each page of
 * the paged overview are answered from memory. A smaller scope is always computed afresh.
 */
export const OVERVIEW_REUSE_DEVICES = 2_000;
/** a reused overview is served as it is this long, then refreshed behind the next request */
export const OVERVIEW_FRESH_MS = 30_000;
/**
 * …or this many times as long as it took to compute, when longer (up to half of
 * OVERVIEW_STALE_MAX_MS): a million devices' overview takes tens of seconds of database time, and
 * refreshing it every 30 s would keep a core busy with it (docs/decisions/2026-11-27-million-device-tenant.md)
 */
export const OVERVIEW_FRESH_PER_COMPUTE = 10;
/** an overview older than this is never served: the request waits for a fresh one */
export const OVERVIEW_STALE_MAX_MS = 5 * 60_000;
/** scopes whose overview is kept (tenants, and site-limited callers' site sets) */
const OVERVIEW_SCOPES = 200;

type OverviewEntry = {
  at: number;
  /** how long it is served as it is (OVERVIEW_FRESH_MS, or longer for a costly one) */
  freshMs: number;
  snapshot: OverviewSnapshot;
  refreshing: Promise<OverviewSnapshot> | null;
};

/** How many log entries one call returns at most (a week of a very busy machine). */
export const ACTIVITY_LOG_LIMIT = 2_000;

type EventRead = Awaited<ReturnType<typeof allEvents>>[number];

/** The events at their effective times, in arrival order (see effectiveTime). */
export function accountingEvents(rows: readonly EventRead[]): AccountingEvent[] {
  let last: number | null = null;
  return rows.map((r) => {
    const at = effectiveTime(r.timestamp.getTime(), r.receivedAt.getTime(), last);
    last = at;
    return { type: r.type, at, sessionId: r.sessionId, userName: r.userName, ipAddress: r.ipAddress };
  });
}

const nonEmpty = (m: ReadonlyMap<string, DayTotals>) =>
  Object.fromEntries([...m.entries()].filter(([, t]) => t.onlineMs || t.loggedInMs || t.sessions));

/**
 * A consistency check (tests, tools): a device's per-day totals as the reads report them
 * (rollups plus open intervals) and as recomputed from every stored event; the two must agree.
 */
export async function checkRollups(db: Db, device: { id: number; tenantId: number }, now: number) {
  const scope = tenantOnly(device.tenantId);
  const rows = await dailyRows(db, scope, device.id, '0001-01-01');
  const open = await openIntervals(db, scope, device.id);
  const read = withOpenIntervals(
    new Map(rows.map(({ day, ...t }) => [day, t])),
    {
      onlineSince: open?.onlineSince?.getTime() ?? null,
      loggedInSince: open?.loggedInSince?.getTime() ?? null,
    },
    now,
  );
  const events = accountingEvents(await allEvents(db, scope, device.id));
  return {
    read: nonEmpty(read),
    recomputed: nonEmpty(dailyTotals(timeline(events, now))),
    firstEventAt: events[0]?.at ?? null,
  };
}

const scopeKey = (ctx: Scope) =>
  isSiteLimited(ctx)
    ? `${ctx.tenantId}:${[...ctx.siteIds].sort((a, b) => a - b).join(',')}`
    : `${ctx.tenantId}:*`;

/** One row per device in scope: today's sessions and utilisation over 7, 14 and 30 days. */
async function overviewRowsOf(
  db: Db,
  now: () => number,
  ctx: Scope,
): Promise<DeviceActivityOverviewResponse> {
  const at = now();
  const today = dayStart(at);
  const from = (n: number) => today - (n - 1) * DAY_MS;
  const rows = await overviewRows(db, ctx, {
    today: utcDay(today),
    from7: utcDay(from(7)),
    from14: utcDay(from(14)),
    from30: utcDay(from(30)),
  });
  // in pieces: 100,000 devices are answered between other requests (OverviewSnapshot.build)
  return finishInSteps(
    mapInSteps(rows, (r) => {
      const online = r.onlineSince?.getTime() ?? null;
      const loggedIn = r.loggedInSince?.getTime() ?? null;
      const window = (closedOnline: number | null, closedLogin: number | null, n: number) =>
        utilisation(
          (closedLogin ?? 0) + openPart(loggedIn, from(n), at),
          (closedOnline ?? 0) + openPart(online, from(n), at),
        );
      return {
        agent_id: r.id,
        device_guid: r.deviceGuid,
        device_name: r.hostname,
        site_name: r.siteName,
        login_sessions_today: r.sessionsToday ?? 0,
        utilization_7d: window(r.online7, r.login7, 7),
        utilization_14d: window(r.online14, r.login14, 14),
        utilization_30d: window(r.online30, r.login30, 30),
      };
    }),
  );
}

/**
 * The scope's overview (overview below): reused overviews of large scopes, and the computations
 * under way (one per scope at a time).
 */
function createOverviewCache({
  db,
  now,
  overviewReuseDevices,
}: {
  db: Db;
  now: () => number;
  overviewReuseDevices: number;
}): (ctx: Scope) => Promise<OverviewSnapshot> {
  const overviews = new Map<string, OverviewEntry>();
  const computing = new Map<string, Promise<OverviewSnapshot>>();

  function computeOverview(ctx: Scope, key: string): Promise<OverviewSnapshot> {
    const running = computing.get(key);
    if (running) {
      return running;
    }
    const at = now();
    const snapshot = overviewRowsOf(db, now, ctx).then(async (rows) => {
      const next = await OverviewSnapshot.build(rows, overviews.get(key)?.snapshot);
      overviews.delete(key);
      if (rows.length >= overviewReuseDevices) {
        const freshMs = Math.min(
          OVERVIEW_STALE_MAX_MS / 2,
          Math.max(OVERVIEW_FRESH_MS, OVERVIEW_FRESH_PER_COMPUTE * (now() - at)),
        );
        overviews.set(key, { at, freshMs, snapshot: next, refreshing: null });
        if (overviews.size > OVERVIEW_SCOPES) {
          overviews.delete(overviews.keys().next().value!);
        }
      }
      return next;
    });
    computing.set(key, snapshot);
    const forget = () => computing.delete(key);
    snapshot.then(forget, forget);
    return snapshot;
  }

  /**
   * The scope's overview: computed, or for a large scope reused while fresh (OverviewEntry.freshMs)
   * and then refreshed behind the request that finds it older.
   */
  function overview(ctx: Scope): Promise<OverviewSnapshot> {
    const key = scopeKey(ctx);
    const hit = overviews.get(key);
    const age = hit ? now() - hit.at : Infinity;
    if (!hit || age >= OVERVIEW_STALE_MAX_MS) {
      return computeOverview(ctx, key);
    }
    if (age >= hit.freshMs && !hit.refreshing) {
      hit.refreshing = computeOverview(ctx, key);
      // a failed refresh is tried again by the next request
      hit.refreshing.catch(() => {
        hit.refreshing = null;
      });
    }
    return Promise.resolve(hit.snapshot);
  }

  return overview;
}

export function createActivityService({
  db,
  now = () => Date.now(),
  overviewReuseDevices = OVERVIEW_REUSE_DEVICES,
}: {
  db: Db;
  /** the clock of the reads and of the reused overviews (tests move it) */
  now?: () => number;
  overviewReuseDevices?: number;
}) {
  async function requireDevice(ctx: Scope, idOrGuid: string) {
    const device = await findDeviceActivity(db, ctx, idOrGuid);
    if (!device) {
      throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
    }
    return device;
  }

  async function timelineFrom(
    device: { id: number; tenantId: number },
    from: number,
    at: number,
  ): Promise<Timeline> {
    const rows = await eventsSince(db, tenantOnly(device.tenantId), device.id, new Date(from));
    return timeline(accountingEvents(rows), at);
  }

  const overview = createOverviewCache({ db, now, overviewReuseDevices });

  return {
    /** The device's events of the last `days` days, newest first. */
    async log(ctx: Scope, idOrGuid: string, days: number): Promise<ActivityLogResponse> {
      const device = await requireDevice(ctx, idOrGuid);
      const since = new Date(now() - Math.min(days, ACTIVITY_MAX_DAYS) * DAY_MS);
      const rows = await listEvents(db, tenantOnly(device.tenantId), device.id, since, ACTIVITY_LOG_LIMIT);
      return rows.map(({ eventTimestamp, ...r }) => ({
        ...r,
        event_timestamp: eventTimestamp.toISOString(),
      }));
    },

    /** 12 hourly slots ending with the current hour (UTC). */
    async chart(ctx: Scope, idOrGuid: string): Promise<ActivityChartResponse> {
      const device = await requireDevice(ctx, idOrGuid);
      const at = now();
      const from = Math.floor(at / HOUR_MS) * HOUR_MS - (ACTIVITY_CHART_SLOTS - 1) * HOUR_MS;
      return hourlySlots(await timelineFrom(device, from, at), at, ACTIVITY_CHART_SLOTS);
    },

    /** The last 7 UTC days, oldest first: sessions started and hours signed in, from the rollups. */
    async weekly(ctx: Scope, idOrGuid: string): Promise<WeeklySummaryResponse> {
      const device = await requireDevice(ctx, idOrGuid);
      const at = now();
      const fromDay = utcDay(dayStart(at) - (ACTIVITY_WEEKLY_DAYS - 1) * DAY_MS);
      const rows = await dailyRows(db, tenantOnly(device.tenantId), device.id, fromDay);
      const closed = new Map<string, DayTotals>(rows.map(({ day, ...t }) => [day, t]));
      const totals = withOpenIntervals(
        closed,
        {
          onlineSince: device.onlineSince?.getTime() ?? null,
          loggedInSince: device.loggedInSince?.getTime() ?? null,
        },
        at,
      );
      return weeklyRows(totals, at, ACTIVITY_WEEKLY_DAYS);
    },

    /** The product's overview response body ({ success, data }: every device in scope) as JSON. */
    async overviewJson(ctx: Scope): Promise<string> {
      return (await overview(ctx)).json;
    },

    /** One page of the overview, filtered and sorted, with the whole scope's counters and cards. */
    async overviewPage(ctx: Scope, query: PagedOverviewQuery): Promise<ActivityOverviewPage> {
      return (await overview(ctx)).page(query);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
