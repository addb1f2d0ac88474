import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type {
  HelloMessage,
  InventoryDigests,
  InventoryMessage,
  UserSession,
} from '@outpost/contract/agent-protocol';
import type { DeviceStatus, InventoryKind, InventoryNotReported } from '@outpost/contract/devices';
import { deviceArchitecture } from '@outpost/contract/targets';
import type { Db } from '../../db/client';
import { devices } from '../../db/schema/index';
import type { Executor, Reader } from '../../lib/db';

// The device row as the agent's connection changes it (device-state.service.ts): presence,
// sessions, faults and inventory. Each statement returns the columns a device_update carries.

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
export type DeviceStateRow = Pick<typeof devices.$inferSelect, keyof typeof returning>;

/**
 * The stored facts a dynamic group's filter can read besides status, last seen, site, tags, fields
 * and software (docs/product/device-sets.md#groups): a hello or an inventory that leaves them as
 * they were changes no membership.
 */
const groupFactColumns = {
  osType: devices.osType,
  osVersion: devices.osVersion,
  architecture: devices.architecture,
  agentVersion: devices.agentVersion,
};
export type GroupFacts = Pick<typeof devices.$inferSelect, keyof typeof groupFactColumns>;

/** Locks the device row for the rest of the transaction and reads what a change depends on. */
export async function lockDevice(tx: Executor, deviceId: number) {
  const [row] = await tx
    .select({
      status: devices.status,
      sessions: devices.sessions,
      faultMessage: devices.faultMessage,
      tenantId: devices.tenantId,
      inventoryDigests: devices.inventoryDigests,
      siteId: devices.siteId,
      ...groupFactColumns,
    })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .for('update');
  return row ?? null;
}

/** hello: the device row as the agent describes itself, connected through `connectionId`. */
export async function setConnected(
  tx: Executor,
  deviceId: number,
  change: { status: DeviceStatus; connectionId: string; hello: HelloMessage; ipAddress: string },
): Promise<DeviceStateRow[]> {
  const { hello } = change;
  return tx
    .update(devices)
    .set({
      status: change.status,
      connectionId: change.connectionId,
      sessions: hello.sessions,
      faultMessage: null,
      lastSeen: sql`now()`,
      hostname: hello.hostname,
      osType: hello.osType,
      osVersion: hello.osVersion,
      architecture: deviceArchitecture(hello.architecture),
      agentVersion: hello.agentVersion,
      ipAddress: change.ipAddress,
      updatedAt: sql`now()`,
    })
    .where(eq(devices.id, deviceId))
    .returning(returning);
}

/** Offline, unless another connection took over or it already is. */
export async function setDisconnected(
  tx: Executor,
  deviceId: number,
  connectionId: string,
): Promise<DeviceStateRow | undefined> {
  const [row] = await tx
    .update(devices)
    .set({ status: 'offline', connectionId: null, sessions: [], updatedAt: sql`now()` })
    .where(
      and(eq(devices.id, deviceId), eq(devices.connectionId, connectionId), ne(devices.status, 'offline')),
    )
    .returning(returning);
  return row;
}

const isStale = (staleAfterMs: number) =>
  and(
    ne(devices.status, 'offline'),
    sql`${devices.lastSeen} < now() - make_interval(secs => ${staleAfterMs / 1000})`,
  );

/** Devices that look connected but whose last_seen is older than `staleAfterMs`. */
export async function staleDeviceIds(db: Reader, staleAfterMs: number): Promise<number[]> {
  const rows = await db.select({ id: devices.id }).from(devices).where(isStale(staleAfterMs));
  return rows.map((r) => r.id);
}

/**
 * Marks offline those of `ids` still stale: the condition is checked again under the row lock, so
 * a device heard from meanwhile is left alone and two instances sweeping at once mark it once.
 */
export async function setStaleOffline(
  tx: Executor,
  ids: number[],
  staleAfterMs: number,
): Promise<DeviceStateRow[]> {
  return tx
    .update(devices)
    .set({ status: 'offline', connectionId: null, sessions: [], updatedAt: sql`now()` })
    .where(and(sql`${devices.id} = any(${sql.param(ids)}::int[])`, isStale(staleAfterMs)))
    .returning(returning);
}

/** Heartbeats: one UPDATE for many devices, the ids as one array parameter. */
export async function touchLastSeen(db: Executor, deviceIds: number[]): Promise<void> {
  await db
    .update(devices)
    .set({ lastSeen: sql`now()` })
    .where(and(sql`${devices.id} = any(${sql.param(deviceIds)}::int[])`, ne(devices.status, 'offline')));
}

/**
 * A fault report, or its end (`faultMessage` null), in one statement: the device row is locked
 * and read by its first part, so `previous` is the status the change replaced.
 */
export async function setFault(
  db: Db,
  deviceId: number,
  faultMessage: string | null,
): Promise<(DeviceStateRow & { previous: DeviceStatus }) | undefined> {
  const before = db.$with('before').as(
    db
      .select({ id: devices.id, previous: sql<DeviceStatus>`${devices.status}`.as('previous') })
      .from(devices)
      .where(and(eq(devices.id, deviceId), ne(devices.status, 'offline')))
      .for('update'),
  );
  // as presenceStatus (device-state.service.ts): error while a fault is open, loggedin while a
  // session is, else online
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
  return row;
}

/** The open sessions after login / logout events, and the status they imply when connected. */
export async function setSessions(
  tx: Executor,
  deviceId: number,
  sessions: UserSession[],
  status: DeviceStatus | null,
): Promise<DeviceStateRow[]> {
  return tx
    .update(devices)
    .set({
      sessions,
      ...(status !== null && { status }),
      lastSeen: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(devices.id, deviceId))
    .returning(returning);
}

/**
 * The digests of the inventory parts the server holds, the parts not reported and the facts a
 * group can read; null for a removed device.
 */
export async function storedDigests(db: Reader, deviceId: number) {
  const [stored] = await db
    .select({ digests: devices.inventoryDigests, notReported: devices.notReported, ...groupFactColumns })
    .from(devices)
    .where(eq(devices.id, deviceId));
  return stored ?? null;
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

/** The inventory parts that changed written to the row, with the digests of every part sent. */
export async function writeInventory(
  tx: Executor,
  deviceId: number,
  inv: InventoryMessage,
  changed: readonly InventoryKind[],
  digests: InventoryDigests,
  notReported?: InventoryNotReported[],
): Promise<DeviceStateRow | undefined> {
  const [row] = await tx
    .update(devices)
    .set({
      ...inventoryPatch(inv, changed),
      ...(notReported && { notReported }),
      inventoryDigests: sql`coalesce(${devices.inventoryDigests}, '{}'::jsonb) || ${JSON.stringify(digests)}::jsonb`,
      lastInventoryUpdate: sql`now()`,
      lastSeen: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(devices.id, deviceId))
    .returning(returning);
  return row;
}
