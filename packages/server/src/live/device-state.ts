import crypto from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type {
  ActivityMessage,
  FaultMessage,
  HelloMessage,
  InventoryDigests,
  InventoryMessage,
  UserSession,
} from '@outpost/contract/agent-protocol';
import { INVENTORY_KINDS } from '@outpost/contract/devices';
import type { DeviceStatus, InventoryKind } from '@outpost/contract/devices';
import type { DeviceUpdatePayload } from '@outpost/contract/live';
import { deviceArchitecture } from '@outpost/contract/targets';
import type { Db } from '../db/client';
import { devices } from '../db/schema/index';
import { replaceSoftware } from './device-software';
import type { Tx } from './device-software';
import {
  recordConnected,
  recordDisconnected,
  recordSessionEvents,
} from '../modules/activity/activity-recorder';

// Device state written by the agent gateway (ARCHITECTURE §4 Presence). Each change updates the
// row and records its activity (events, day rollups, open intervals: modules/activity) in one
// transaction; the caller publishes the device_update.

export type DeviceRef = { id: number; tenantId: number; siteId: number | null; deviceGuid: string };

export type DeviceChange = { ref: DeviceRef; update: DeviceUpdatePayload; statusChanged: boolean };

const returning = {
  id: devices.id,
  tenantId: devices.tenantId,
  siteId: devices.siteId,
  deviceGuid: devices.deviceGuid,
  status: devices.status,
  lastSeen: devices.lastSeen,
  hostname: devices.hostname,
  ipAddress: devices.ipAddress,
  agentVersion: devices.agentVersion,
  lastInventoryUpdate: devices.lastInventoryUpdate,
};
type Returned = Pick<typeof devices.$inferSelect, keyof typeof returning>;

function changeOf(r: Returned, previous: DeviceStatus | null, extra: Partial<DeviceUpdatePayload> = {}) {
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

/** spec: core §3 — error while a fault is open, loggedin while a session is open, else online. */
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

async function lockDevice(tx: Tx, deviceId: number) {
  const [row] = await tx
    .select({
      status: devices.status,
      sessions: devices.sessions,
      faultMessage: devices.faultMessage,
      tenantId: devices.tenantId,
      inventoryDigests: devices.inventoryDigests,
    })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .for('update');
  return row ?? null;
}

/** The parts the hello's digests show the agent holds as the server stored them. */
function partsHeld(stored: InventoryDigests | null, reported: InventoryDigests | undefined) {
  return INVENTORY_KINDS.filter((k) => reported?.[k] !== undefined && reported[k] === stored?.[k]);
}

export type ConnectedChange = DeviceChange & {
  /** the welcome's inventoryCurrent: parts the agent need not resend while they are unchanged */
  inventoryCurrent: InventoryKind[];
};

/** hello: the device is connected through `connectionId`. */
export async function markConnected(
  db: Db,
  deviceId: number,
  connectionId: string,
  hello: HelloMessage,
  ip: string,
): Promise<ConnectedChange | null> {
  return db.transaction(async (tx) => {
    const before = await lockDevice(tx, deviceId);
    if (!before) {
      return null;
    }
    const sessions = hello.sessions;
    const status = presenceStatus(false, sessions);
    const rows = await tx
      .update(devices)
      .set({
        status,
        connectionId,
        sessions,
        faultMessage: null,
        lastSeen: sql`now()`,
        hostname: hello.hostname,
        osType: hello.osType,
        osVersion: hello.osVersion,
        architecture: deviceArchitecture(hello.architecture),
        agentVersion: hello.agentVersion,
        ipAddress: hello.ipAddress || ip,
        updatedAt: sql`now()`,
      })
      .where(eq(devices.id, deviceId))
      .returning(returning);
    // online unless it already is; the sessions the hello reports are the open ones
    await recordConnected(
      tx,
      { id: deviceId, tenantId: before.tenantId },
      { ipAddress: hello.ipAddress || ip, sessions },
    );
    return {
      ...changeOf(lockedRow(rows), before.status),
      inventoryCurrent: partsHeld(before.inventoryDigests, hello.inventoryDigests),
    };
  });
}

/** The connection ended (after the grace period): offline, unless another connection took over. */
export async function markDisconnected(
  db: Db,
  deviceId: number,
  connectionId: string,
): Promise<DeviceChange | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(devices)
      .set({ status: 'offline', connectionId: null, sessions: [], updatedAt: sql`now()` })
      .where(
        and(eq(devices.id, deviceId), eq(devices.connectionId, connectionId), ne(devices.status, 'offline')),
      )
      .returning(returning);
    if (!row) {
      return null;
    }
    await recordDisconnected(tx, { id: deviceId, tenantId: row.tenantId });
    return changeOf(row, null);
  });
}

/**
 * Devices that look connected but whose last_seen went stale: their instance died or lost them
 * without a close. Safe on several instances at once: each row is claimed by one UPDATE.
 */
/** Devices a sweep marks offline per transaction (and publishes before the next batch). */
export const SWEEP_BATCH = 500;

const isStale = (staleAfterMs: number) =>
  and(
    ne(devices.status, 'offline'),
    sql`${devices.lastSeen} < now() - make_interval(secs => ${staleAfterMs / 1000})`,
  );

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
  const candidates = await db.select({ id: devices.id }).from(devices).where(isStale(staleAfterMs));
  let swept = 0;
  for (let i = 0; i < candidates.length; i += batchSize) {
    const ids = candidates.slice(i, i + batchSize).map((c) => c.id);
    const changes = await db.transaction(async (tx) => {
      const rows = await tx
        .update(devices)
        .set({ status: 'offline', connectionId: null, sessions: [], updatedAt: sql`now()` })
        .where(and(sql`${devices.id} = any(${sql.param(ids)}::int[])`, isStale(staleAfterMs)))
        .returning(returning);
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
  await db
    .update(devices)
    .set({ lastSeen: sql`now()` })
    .where(and(sql`${devices.id} = any(${sql.param(deviceIds)}::int[])`, ne(devices.status, 'offline')));
}

/**
 * A fault report, or its end: one statement (no transaction), so a status change reaches the
 * portal as soon as it can (ARCHITECTURE §13 "Fleet scale"). The device row is locked and read
 * by the statement's first part, so the previous status is the one the change replaced.
 */
export async function applyFault(
  db: Db,
  deviceId: number,
  fault: FaultMessage,
): Promise<DeviceChange | null> {
  const faultMessage = fault.active ? fault.message || 'The agent reported a fault' : null;
  const before = db.$with('before').as(
    db
      .select({ id: devices.id, previous: sql<DeviceStatus>`${devices.status}`.as('previous') })
      .from(devices)
      .where(and(eq(devices.id, deviceId), ne(devices.status, 'offline')))
      .for('update'),
  );
  // spec: core §3, as presenceStatus: error while a fault is open, loggedin while a session is
  const status = faultMessage
    ? sql<DeviceStatus>`'error'`
    : sql<DeviceStatus>`case when jsonb_array_length(${devices.sessions}) > 0 then 'loggedin' else 'online' end`;
  const [row] = await db
    .with(before)
    .update(devices)
    .set({ faultMessage, status, lastSeen: sql`now()`, updatedAt: sql`now()` })
    .from(before)
    .where(eq(devices.id, before.id))
    .returning({ ...returning, previous: before.previous });
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
    const rows = await tx
      .update(devices)
      .set({
        sessions: open,
        ...(isConnected && { status: presenceStatus(before.faultMessage !== null, open) }),
        lastSeen: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(devices.id, deviceId))
      .returning(returning);
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

/** The row's columns for the inventory parts that changed (software is rows, written apart). */
function inventoryPatch(inv: InventoryMessage, changed: readonly InventoryKind[]) {
  const f = inv.facts ?? {};
  const patch: PgUpdateSetSource<typeof devices> = {
    ...(f.hostname !== undefined && { hostname: f.hostname }),
    ...(f.osType !== undefined && { osType: f.osType }),
    ...(f.osVersion !== undefined && { osVersion: f.osVersion }),
    ...(f.architecture !== undefined && { architecture: deviceArchitecture(f.architecture) }),
    ...(f.serialNumber !== undefined && { serialNumber: f.serialNumber }),
    ...(f.manufacturer !== undefined && { manufacturer: f.manufacturer }),
    ...(f.model !== undefined && { model: f.model }),
    ...(f.ipAddress && { ipAddress: f.ipAddress }),
  };
  if (inv.hardware && changed.includes('hardware')) {
    patch.hardwareInfo = inv.hardware;
    patch.manufacturer ??= inv.hardware.systemInfo.manufacturer || null;
    patch.model ??= inv.hardware.systemInfo.model || null;
  }
  if (inv.network && changed.includes('network')) {
    patch.networkInfo = inv.network;
  }
  if (inv.services) {
    // when the agent last reported them, changed or not
    patch.servicesUpdatedAt = sql`now()`;
    if (changed.includes('services')) {
      patch.services = inv.services;
    }
  }
  if (inv.software) {
    patch.softwareUpdatedAt = sql`now()`;
    patch.softwareBaselineAt = sql`coalesce(${devices.softwareBaselineAt}, now())`;
  }
  return patch;
}

/**
 * Any inventory part present replaces what the device row (and its software rows) held, unless
 * the server already holds it: a part whose digest equals the stored one is not written again
 * (ARCHITECTURE §13 "Fleet scale"). Without software to replace this is one read and one update,
 * outside a transaction (only this device's connection writes its inventory, one message at a time).
 */
export async function applyInventory(
  db: Db,
  device: DeviceRef,
  inv: InventoryMessage,
): Promise<DeviceChange | null> {
  const digests = digestsOf(inv);
  const [stored] = await db
    .select({ digests: devices.inventoryDigests })
    .from(devices)
    .where(eq(devices.id, device.id));
  if (!stored) {
    return null;
  }
  const changed = INVENTORY_KINDS.filter(
    (k) => digests[k] !== undefined && digests[k] !== stored.digests?.[k],
  );
  const write = async (tx: Db | Tx) => {
    const rows = await tx
      .update(devices)
      .set({
        ...inventoryPatch(inv, changed),
        inventoryDigests: sql`coalesce(${devices.inventoryDigests}, '{}'::jsonb) || ${JSON.stringify(digests)}::jsonb`,
        lastInventoryUpdate: sql`now()`,
        lastSeen: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(devices.id, device.id))
      .returning(returning);
    const [row] = rows;
    // an inventory changes no status: the change is published for its data
    return row ? changeOf(row, row.status, { inventory: changed }) : null;
  };
  if (!inv.software || !changed.includes('software')) {
    return write(db);
  }
  const software = inv.software;
  return db.transaction(async (tx) => {
    if (!(await lockDevice(tx, device.id))) {
      return null;
    }
    await replaceSoftware(tx, device.tenantId, device.id, software);
    return write(tx);
  });
}
