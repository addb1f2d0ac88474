import type { ActivityEvent, UserSession } from '@outpost/contract/agent-protocol';
import type { Executor } from '../../lib/db';
import { tenantOnly } from '../../lib/scope';
import { addToRollups, insertEvent, lockState, saveState } from './activity.queries';
import type { EventRow } from './activity.queries';
import { applyEvent, effectiveTime, emptyState } from './activity-accounting';
import { insertNotice } from './activity-log.queries';
import type { AccountingState } from './activity-accounting';
import { emitEvent } from '../../lib/events';

// Records device activity inside the agent gateway's device transaction (modules/devices/device-state.service.ts):
// each accepted event is written to the log and its closed time added to the day rollups, and the
// open intervals are kept in device_activity_state, all in the caller's transaction. An event the
// accounting does not accept (a login already open, a logout of a session not open, a resend) is
// not written, so the log and the rollups always agree (see activity-accounting.ts).

export type ActivityDevice = { id: number; tenantId: number };

type Pending = Omit<EventRow, 'receivedAt'>;

async function record(
  tx: Executor,
  device: ActivityDevice,
  receivedAt: Date,
  events: readonly Pending[],
): Promise<void> {
  const scope = tenantOnly(device.tenantId);
  let state: AccountingState = (await lockState(tx, scope, device.id)) ?? emptyState();
  let changed = false;
  for (const e of events) {
    const at = effectiveTime(e.timestamp.getTime(), receivedAt.getTime(), state.lastEventAt);
    const step = applyEvent(state, { ...e, at });
    if (!step.accepted) {
      continue;
    }
    if (!(await insertEvent(tx, scope, device.id, { ...e, receivedAt }))) {
      continue; // the same session event again: already counted
    }
    await addToRollups(tx, scope, device.id, step.deltas);
    state = step.state;
    changed = true;
  }
  if (changed) {
    await saveState(tx, scope, device.id, state);
  }
}

async function currentState(tx: Executor, device: ActivityDevice) {
  return (await lockState(tx, tenantOnly(device.tenantId), device.id)) ?? emptyState();
}

/**
 * The agent said hello: online (unless it already is), and the sessions it reports open become
 * the open sessions: new ones sign in now (a user still signed in after a reconnect resumes),
 * sessions it no longer reports sign out now.
 */
export async function recordConnected(
  tx: Executor,
  device: ActivityDevice,
  hello: { ipAddress: string | null; sessions: readonly UserSession[] },
  now = new Date(),
): Promise<void> {
  const state = await currentState(tx, device);
  const reported = new Map(hello.sessions.map((s) => [s.sessionId, s]));
  const events: Pending[] = [];
  if (state.onlineSince === null) {
    events.push({ type: 'online', timestamp: now, ipAddress: hello.ipAddress });
    await emitPresence(tx, device, 'device.online', now);
  }
  for (const s of state.sessions) {
    if (!reported.has(s.sessionId)) {
      events.push({ type: 'logout', timestamp: now, ...sessionFields(s) });
    }
  }
  const open = new Set(state.sessions.map((s) => s.sessionId));
  for (const s of reported.values()) {
    if (!open.has(s.sessionId)) {
      events.push({
        type: 'login',
        timestamp: now,
        sessionId: s.sessionId,
        userName: s.userName,
        ipAddress: s.ipAddress ?? null,
      });
    }
  }
  await record(tx, device, now, events);
}

const sessionFields = (s: { sessionId: string; userName: string; ipAddress: string | null }) => ({
  sessionId: s.sessionId,
  userName: s.userName,
  ipAddress: s.ipAddress,
});

/**
 * device.online and device.offline (docs/product/webhooks.md#events): numerous when a fleet
 * reconnects; the webhooks' sink writes nothing for a tenant no subscription of which wants them.
 */
function emitPresence(
  tx: Executor,
  device: ActivityDevice,
  event: 'device.online' | 'device.offline',
  now: Date,
) {
  const data = { device_id: device.id, at: now.toISOString() };
  return emitEvent(tx, device.tenantId, event, data, `device:${device.id}:${event}:${now.getTime()}`);
}

/** The device went offline: its open sessions sign out, then the offline event. */
export async function recordDisconnected(
  tx: Executor,
  device: ActivityDevice,
  now = new Date(),
): Promise<void> {
  const state = await currentState(tx, device);
  await emitPresence(tx, device, 'device.offline', now);
  await record(tx, device, now, [
    ...state.sessions.map((s): Pending => ({ type: 'logout', timestamp: now, ...sessionFields(s) })),
    { type: 'offline', timestamp: now },
  ]);
}

/** login / logout reported by the agent, oldest first, at the agent's timestamps. */
export async function recordSessionEvents(
  tx: Executor,
  device: ActivityDevice,
  events: readonly ActivityEvent[],
  now = new Date(),
): Promise<void> {
  const ordered = [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  await record(
    tx,
    device,
    now,
    ordered.map((e) => ({
      type: e.eventType,
      timestamp: new Date(e.timestamp),
      sessionId: e.sessionId,
      userName: e.userName,
      ipAddress: e.ipAddress ?? null,
    })),
  );
}

/**
 * The agent passed its memory limit and restarts through its service: kept in the device's log
 * (the device's fault ends with its next hello; docs/agent.md#footprint).
 */
export async function recordMemoryLimit(
  tx: Executor,
  device: ActivityDevice,
  detail: string,
  now = new Date(),
): Promise<void> {
  await insertNotice(tx, tenantOnly(device.tenantId), device.id, { type: 'memory_limit', detail, at: now });
}
