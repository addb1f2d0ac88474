import crypto from 'node:crypto';
import type {
  ActivityMessage,
  FaultMessage,
  HelloMessage,
  InventoryDigests,
  InventoryMessage,
  UserSession,
} from '@outpost/contract/agent-protocol';
import { INVENTORY_KINDS } from '@outpost/contract/devices';
import type { DeviceStatus, InventoryNotReported } from '@outpost/contract/devices';
import type { DeviceUpdatePayload } from '@outpost/contract/live';
import { deviceArchitecture } from '@outpost/contract/targets';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import type { ConnectedChange, DeviceChange, DeviceRef, DeviceState } from '../../live/device-state';
import {
  recordConnected,
  recordDisconnected,
  recordMemoryLimit,
  recordSessionEvents,
} from '../activity/activity-recorder';
import { replaceSoftware } from './device-software.queries';
import {
  lockDevice,
  setConnected,
  setDisconnected,
  setFault,
  setSessions,
  setStaleOffline,
  staleDeviceIds,
  storedDigests,
  touchLastSeen as touchLastSeenRows,
  writeInventory,
} from './device-state.queries';
import type { DeviceStateRow, GroupFacts } from './device-state.queries';

// Device state written from the agent's connection (docs/architecture.md#live-layer-and-agents "Presence"), the
// port live/device-state.ts names. Each change updates the row and records its activity (events, day
// rollups, open intervals: modules/activity) in one transaction; the agent hub publishes the
// device_update. Not authorised per call: the agent socket authenticated the device before the
// upgrade, and every change concerns that device only.

function changeOf(
  r: DeviceStateRow,
  previous: DeviceStatus | null,
  extra: Partial<DeviceUpdatePayload> = {},
) {
  return {
    ref: { id: r.id, tenantId: r.tenantId, siteId: r.siteId, deviceGuid: r.deviceGuid },
    statusChanged: previous !== r.status,
    update: {
      deviceId: r.deviceGuid,
      id: r.id,
      status: r.status,
      lastSeen: r.lastSeen ? r.lastSeen.toISOString() : null,
      hostname: r.hostname,
      ipAddress: r.ipAddress,
      agentVersion: r.agentVersion,
      lastInventoryUpdate: r.lastInventoryUpdate ? r.lastInventoryUpdate.toISOString() : null,
      ...extra,
    },
  } satisfies DeviceChange;
}

/**
 * docs/architecture.md#live-layer-and-agents "Presence": error while a fault is open, loggedin while a session is
 * open, else online.
 */
export function presenceStatus(hasFault: boolean, sessions: readonly UserSession[]): DeviceStatus {
  return hasFault ? 'error' : sessions.length > 0 ? 'loggedin' : 'online';
}

/** The row an UPDATE of a device locked just before returned; it cannot be missing. */
function lockedRow<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) {
    throw new Error('the locked device row was not updated');
  }
  return row;
}

/** The parts the hello's digests show the agent holds as the server stored them. */
function partsHeld(stored: InventoryDigests | null, reported: InventoryDigests | undefined) {
  return INVENTORY_KINDS.filter((k) => reported?.[k] !== undefined && reported[k] === stored?.[k]);
}

/** Whether facts a dynamic group can read differ from the stored ones (undefined: not reported). */
function groupFactsDiffer(stored: GroupFacts, reported: Partial<GroupFacts>): boolean {
  return (Object.keys(reported) as (keyof GroupFacts)[]).some(
    (k) => reported[k] !== undefined && reported[k] !== stored[k],
  );
}

/** A change, and whether it touched what the dynamic groups read (see `told`). */
type GroupedChange<T> = { change: T; groupFacts: boolean };

/** hello: the device is connected through `connectionId`. */
export async function markConnected(
  db: Db,
  deviceId: number,
  connectionId: string,
  hello: HelloMessage,
  ip: string,
): Promise<GroupedChange<ConnectedChange> | null> {
  return db.transaction(async (tx) => {
    const before = await lockDevice(tx, deviceId);
    if (!before) {
      return null;
    }
    const sessions = hello.sessions;
    const status = presenceStatus(false, sessions);
    const ipAddress = hello.ipAddress || ip;
    const rows = await setConnected(tx, deviceId, { status, connectionId, hello, ipAddress });
    // online unless it already is; the sessions the hello reports are the open ones
    await recordConnected(tx, { id: deviceId, tenantId: before.tenantId }, { ipAddress, sessions });
    const change = {
      ...changeOf(lockedRow(rows), before.status),
      inventoryCurrent: partsHeld(before.inventoryDigests, hello.inventoryDigests),
    };
    const reported = {
      osType: hello.osType,
      osVersion: hello.osVersion,
      architecture: deviceArchitecture(hello.architecture),
      agentVersion: hello.agentVersion,
    };
    return { change, groupFacts: groupFactsDiffer(before, reported) };
  });
}

/** The connection ended (after the grace period): offline, unless another connection took over. */
export async function markDisconnected(
  db: Db,
  deviceId: number,
  connectionId: string,
): Promise<DeviceChange | null> {
  return db.transaction(async (tx) => {
    const row = await setDisconnected(tx, deviceId, connectionId);
    if (!row) {
      return null;
    }
    await recordDisconnected(tx, { id: deviceId, tenantId: row.tenantId });
    return changeOf(row, null);
  });
}

/** Devices a sweep marks offline per transaction (and publishes before the next batch). */
export const SWEEP_BATCH = 500;

/**
 * Marks offline the devices no instance has heard from in `staleAfterMs` (an instance that died
 * took its sockets with it), `SWEEP_BATCH` at a time: each batch is one transaction (the rows, then
 * each device's activity: its open sessions end, then offline), handed to `onBatch` before the
 * next begins. After a long outage of every instance that is the whole fleet: one transaction for
 * all of it held its row locks, and the event loop, for minutes, and published nothing until the
 * end. A device heard from meanwhile is left alone (the condition is checked again under the row
 * lock), so two instances sweeping at once mark each device once. Returns how many were swept.
 */
export async function sweepStale(
  db: Db,
  staleAfterMs: number,
  onBatch: (changes: DeviceChange[]) => Promise<void>,
  batchSize = SWEEP_BATCH,
): Promise<number> {
  const candidates = await staleDeviceIds(db, staleAfterMs);
  let swept = 0;
  for (let i = 0; i < candidates.length; i += batchSize) {
    const ids = candidates.slice(i, i + batchSize);
    const changes = await db.transaction(async (tx) => {
      const rows = await setStaleOffline(tx, ids, staleAfterMs);
      for (const r of rows) {
        await recordDisconnected(tx, { id: r.id, tenantId: r.tenantId });
      }
      return rows.map((r) => changeOf(r, null));
    });
    swept += changes.length;
    await onBatch(changes);
    // let the requests and agent messages that arrived meanwhile through before the next batch
    await new Promise((resolve) => setImmediate(resolve));
  }
  return swept;
}

/**
 * Heartbeats, batched: one UPDATE for every device heard from since the last flush, the ids as
 * one array parameter (thousands of ids every few seconds at fleet scale: cheap to build and parse).
 */
export async function touchLastSeen(db: Db, deviceIds: number[]): Promise<void> {
  if (deviceIds.length === 0) {
    return;
  }
  await touchLastSeenRows(db, deviceIds);
}

/**
 * A fault report, or its end: one statement (no transaction), so a status change reaches the
 * portal as soon as it can (docs/decisions/2026-11-26-fleet-scale.md).
 */
export async function applyFault(
  db: Db,
  deviceId: number,
  fault: FaultMessage,
): Promise<DeviceChange | null> {
  const faultMessage = fault.active ? fault.message || 'The agent reported a fault' : null;
  const row = await setFault(db, deviceId, faultMessage);
  if (row && faultMessage && fault.reason === 'memory_limit') {
    // the fault ends with the agent's next hello; the log keeps that it restarted
    await recordMemoryLimit(db, { id: row.id, tenantId: row.tenantId }, faultMessage);
  }
  return row ? changeOf(row, row.previous) : null;
}

/** login / logout events, idempotent for a resent message (see recordSessionEvents). */
export async function applyActivity(
  db: Db,
  deviceId: number,
  message: ActivityMessage,
): Promise<DeviceChange | null> {
  return db.transaction(async (tx) => {
    const before = await lockDevice(tx, deviceId);
    if (!before) {
      return null;
    }
    const sessions = new Map(before.sessions.map((s) => [s.sessionId, s]));
    const ordered = [...message.events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    for (const e of ordered) {
      if (e.eventType === 'login') {
        sessions.set(e.sessionId, {
          sessionId: e.sessionId,
          userName: e.userName,
          ipAddress: e.ipAddress ?? null,
          startedAt: e.timestamp,
        });
      } else {
        sessions.delete(e.sessionId);
      }
    }
    // logged once: a resent message, a second login of an open session or a logout of one the
    // server already closed (offline) is not recorded again
    await recordSessionEvents(tx, { id: deviceId, tenantId: before.tenantId }, ordered);
    const open = [...sessions.values()];
    const isConnected = before.status !== 'offline';
    const status = isConnected ? presenceStatus(before.faultMessage !== null, open) : null;
    const rows = await setSessions(tx, deviceId, open, status);
    return changeOf(lockedRow(rows), before.status);
  });
}

/** The server's digest of a part an agent sent without one (agents before digests). */
export function inventoryPartDigest(part: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify(part)).digest('base64url');
}

/** The digest of each part the message carries: the agent's own, or the server's. */
function digestsOf(inv: InventoryMessage): InventoryDigests {
  const digests: InventoryDigests = {};
  for (const kind of INVENTORY_KINDS) {
    const part = inv[kind];
    if (part !== undefined) {
      digests[kind] = inv.digests?.[kind] ?? inventoryPartDigest(part);
    }
  }
  return digests;
}

/**
 * The device's "not reported" note after this message, or undefined when it does not change it: a
 * part the message carries is reported again and leaves the note; a part the agent names as not
 * reported replaces its entry (a refresh of one part says nothing of the others, so an empty list
 * clears nothing by itself). Kept in the order of INVENTORY_KINDS.
 */
export function mergeNotReported(
  stored: readonly InventoryNotReported[],
  inv: InventoryMessage,
): InventoryNotReported[] | undefined {
  const named = inv.notReported ?? [];
  const leaving = new Set<string>([
    ...INVENTORY_KINDS.filter((k) => inv[k] !== undefined),
    ...named.map((p) => p.kind),
  ]);
  const merged = [...stored.filter((p) => !leaving.has(p.kind)), ...named].sort(
    (a, b) => INVENTORY_KINDS.indexOf(a.kind) - INVENTORY_KINDS.indexOf(b.kind),
  );
  return JSON.stringify(merged) === JSON.stringify(stored) ? undefined : merged;
}

/**
 * Any inventory part present replaces what the device row (and its software rows) held, unless
 * the server already holds it: a part whose digest equals the stored one is not written again
 * (docs/decisions/2026-11-26-fleet-scale.md). Without software to replace this is one read and one
 * update, outside a transaction (only this device's connection writes its inventory, one message
 * at a time).
 */
export async function applyInventory(
  db: Db,
  device: DeviceRef,
  inv: InventoryMessage,
): Promise<GroupedChange<DeviceChange> | null> {
  const digests = digestsOf(inv);
  const stored = await storedDigests(db, device.id);
  if (!stored) {
    return null;
  }
  const changed = INVENTORY_KINDS.filter(
    (k) => digests[k] !== undefined && digests[k] !== stored.digests?.[k],
  );
  const notReported = mergeNotReported(stored.notReported, inv);
  const f = inv.facts ?? {};
  const groupFacts =
    changed.includes('software') ||
    groupFactsDiffer(stored, {
      osType: f.osType,
      osVersion: f.osVersion,
      architecture: f.architecture === undefined ? undefined : deviceArchitecture(f.architecture),
    });
  const write = async (tx: Executor) => {
    const row = await writeInventory(tx, device.id, inv, changed, digests, notReported);
    // an inventory changes no status: the change is published for its data
    return row ? { change: changeOf(row, row.status, { inventory: changed }), groupFacts } : null;
  };
  if (!inv.software || !changed.includes('software')) {
    return write(db);
  }
  const software = inv.software;
  return db.transaction(async (tx) => {
    const locked = await lockDevice(tx, device.id);
    if (!locked) {
      return null;
    }
    await replaceSoftware(tx, device.tenantId, device.id, software, locked.siteId);
    return write(tx);
  });
}

/** Told of devices whose stored facts or inventory changed (the groups' membership); must not throw. */
export type OnDevicesChanged = (tenantId: number, deviceIds: number[]) => Promise<void>;

/**
 * The change, after `onDevicesChanged` heard of it when it touched what a dynamic group reads.
 * A reconnecting agent's hello and its inventory of hardware, network or services leave every
 * membership as it was: telling them re-evaluated every dynamic group of the tenant and its
 * monitoring policies twice per reconnection (docs/decisions/2026-11-26-group-membership.md).
 */
async function told<T extends DeviceChange>(
  grouped: GroupedChange<T> | null,
  onDevicesChanged?: OnDevicesChanged,
): Promise<T | null> {
  if (grouped?.groupFacts && onDevicesChanged) {
    await onDevicesChanged(grouped.change.ref.tenantId, [grouped.change.ref.id]);
  }
  return grouped?.change ?? null;
}

/**
 * The port the agent hub writes device state through, bound to this database. A hello (facts)
 * and an inventory that changed what a dynamic group reads are told to `onDevicesChanged`
 * (docs/product/device-sets.md#groups); status and last-seen changes alone are not: the groups'
 * periodic sweep re-evaluates conditions on them (docs/decisions/2026-11-26-group-membership.md).
 */
export function createDeviceStateService({
  db,
  onDevicesChanged,
}: {
  db: Db;
  onDevicesChanged?: OnDevicesChanged;
}): DeviceState {
  return {
    markConnected: async (deviceId, connectionId, hello, ip) =>
      told(await markConnected(db, deviceId, connectionId, hello, ip), onDevicesChanged),
    markDisconnected: (deviceId, connectionId) => markDisconnected(db, deviceId, connectionId),
    sweepStale: (staleAfterMs, onBatch) => sweepStale(db, staleAfterMs, onBatch),
    touchLastSeen: (deviceIds) => touchLastSeen(db, deviceIds),
    applyFault: (deviceId, fault) => applyFault(db, deviceId, fault),
    applyActivity: (deviceId, message) => applyActivity(db, deviceId, message),
    applyInventory: async (device, inv) => told(await applyInventory(db, device, inv), onDevicesChanged),
  };
}
