import type { Db } from '../../db/client';
import { tenantOnly } from '../../lib/scope';
import {
  addToRollups,
  allEvents,
  deleteActivity,
  devicesWithFirstEvent,
  insertEvents,
  lockDeviceRow,
  saveState,
} from './activity.queries';
import type { EventRow } from './activity.queries';
import { applyEvent, effectiveTime, emptyState, toDeltas } from './activity-accounting';
import type { AccountingState, ActivityKind, DayTotals } from './activity-accounting';

// The demo's activity history: on the first start, each simulated device gets the
// days before it first connected (its working-day plan), written as the gateway would have: the
// events, the day rollups and the open-interval state, built with the same accounting step, in
// one transaction per device that also keeps the events it has reported since it connected.

export type HistoryEvent = {
  type: ActivityKind;
  at: number;
  sessionId?: string;
  userName?: string;
  ipAddress?: string | null;
};

export type DemoActivityDevice = {
  deviceGuid: string;
  /** the device's planned events up to `to` (it is off, nobody signed in, at `to`) */
  history: (to: number, ipAddress: string | null) => HistoryEvent[];
};

/** A device whose first event is older than this already has its history. */
const FRESH_MS = 60 * 60_000;

/** Back-fills devices that have no history yet; returns how many it filled. */
export async function seedDemoActivity(
  db: Db,
  options: { tenantId: number; devices: DemoActivityDevice[]; now?: number },
): Promise<number> {
  const scope = tenantOnly(options.tenantId);
  const now = options.now ?? Date.now();
  const byGuid = new Map(options.devices.map((d) => [d.deviceGuid, d]));
  const rows = await devicesWithFirstEvent(db, scope, [...byGuid.keys()]);
  let filled = 0;
  for (const row of rows) {
    if (row.firstEventAt && row.firstEventAt.getTime() < now - FRESH_MS) {
      continue;
    }
    const source = byGuid.get(row.deviceGuid)!;
    const made = await db.transaction(async (tx) => {
      if (!(await lockDeviceRow(tx, scope, row.id))) {
        return false;
      }
      const kept = await allEvents(tx, scope, row.id);
      const first = kept[0]?.receivedAt.getTime() ?? now;
      if (first < now - FRESH_MS) {
        return false; // another instance filled it meanwhile
      }
      const history: EventRow[] = source.history(first - 60_000, row.ipAddress).map((e) => ({
        type: e.type,
        timestamp: new Date(e.at),
        receivedAt: new Date(e.at),
        sessionId: e.sessionId ?? null,
        userName: e.userName ?? null,
        ipAddress: e.ipAddress ?? null,
      }));
      const all: EventRow[] = [...history, ...kept];
      let state: AccountingState = emptyState();
      const totals = new Map<string, DayTotals>();
      const accepted: EventRow[] = [];
      for (const e of all) {
        const at = effectiveTime(e.timestamp.getTime(), e.receivedAt.getTime(), state.lastEventAt);
        const step = applyEvent(state, { ...e, at });
        if (!step.accepted) {
          continue;
        }
        accepted.push(e);
        state = step.state;
        for (const d of step.deltas) {
          const cur = totals.get(d.day) ?? { onlineMs: 0, loggedInMs: 0, sessions: 0 };
          totals.set(d.day, {
            onlineMs: cur.onlineMs + d.onlineMs,
            loggedInMs: cur.loggedInMs + d.loggedInMs,
            sessions: cur.sessions + d.sessions,
          });
        }
      }
      await deleteActivity(tx, scope, row.id);
      await insertEvents(tx, scope, row.id, accepted);
      await addToRollups(tx, scope, row.id, toDeltas(totals));
      await saveState(tx, scope, row.id, state);
      return true;
    });
    if (made) {
      filled++;
    }
  }
  return filled;
}
