import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DeviceAction, DeviceActionListFilters } from '@outpost/contract/device-actions';
import { deviceCommands, devices, users } from '../../db/schema/index';
import type { Reader } from '../../lib/db';
import { inScope, inTenant } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// Device actions are rows of the command queue of kind 'device_action' (docs/product/agent-protocol.md#commands: the
// database is the queue), read through the caller's device scope.

export const EXPIRED_MESSAGE = 'The action expired before the device came back online';

const columns = {
  id: deviceCommands.id,
  deviceId: deviceCommands.deviceId,
  deviceGuid: devices.deviceGuid,
  hostname: devices.hostname,
  payload: deviceCommands.payload,
  status: deviceCommands.status,
  result: deviceCommands.result,
  error: deviceCommands.error,
  createdByName: sql<string | null>`coalesce(${users.name}, ${users.email})`,
  createdAt: deviceCommands.createdAt,
  sentAt: deviceCommands.sentAt,
  completedAt: deviceCommands.completedAt,
  expiresAt: deviceCommands.expiresAt,
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Row = {
  id: string;
  deviceId: number;
  deviceGuid: string;
  hostname: string | null;
  payload: (typeof deviceCommands.$inferSelect)['payload'];
  status: (typeof deviceCommands.$inferSelect)['status'];
  result: Record<string, unknown> | null;
  error: string | null;
  createdByName: string | null;
  createdAt: Date;
  sentAt: Date | null;
  completedAt: Date | null;
  expiresAt: Date | null;
};

/** Null for a row that is not a device action (the WHERE clause below never selects one). */
export function toDeviceAction(r: Row, now = Date.now()): DeviceAction | null {
  if (r.payload.kind !== 'device_action') {
    return null;
  }
  const command = r.payload;
  // A queued action whose time ran out never ran; it shows as failed before the gateway notices.
  const isExpired = r.status === 'pending' && r.expiresAt !== null && r.expiresAt.getTime() <= now;
  const message =
    r.error ??
    (isExpired ? EXPIRED_MESSAGE : typeof r.result?.message === 'string' ? r.result.message : null);
  return {
    id: r.id,
    device_id: r.deviceId,
    device_guid: r.deviceGuid,
    hostname: r.hostname,
    action_type: command.action,
    action_data: command.data ?? null,
    status: isExpired ? 'failed' : r.status,
    message,
    created_by_name: r.createdByName,
    created_at: r.createdAt.toISOString(),
    sent_at: iso(r.sentAt),
    completed_at: iso(r.completedAt),
    expires_at: iso(r.expiresAt),
  };
}

function where(
  ctx: Scope,
  f: Partial<Pick<DeviceActionListFilters, 'device_id' | 'action_type'>>,
  ids?: string[],
): SQL {
  const conditions = and(
    inScope(devices, ctx),
    inTenant(deviceCommands, ctx),
    eq(deviceCommands.kind, 'device_action'),
    f.device_id ? eq(deviceCommands.deviceId, f.device_id) : undefined,
    f.action_type ? sql`${deviceCommands.payload}->>'action' = ${f.action_type}` : undefined,
    ids ? inArray(deviceCommands.id, ids) : undefined,
  );
  return conditions ?? inScope(devices, ctx);
}

export async function listDeviceActions(
  db: Reader,
  ctx: Scope,
  f: DeviceActionListFilters,
): Promise<{ rows: DeviceAction[]; total: number }> {
  const w = where(ctx, f);
  const [totalRow] = await db
    .select({ n: count() })
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .where(w);
  const rows = await db
    .select(columns)
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .leftJoin(users, eq(users.id, deviceCommands.createdBy))
    .where(w)
    .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows: rows.flatMap((r) => toDeviceAction(r) ?? []), total: totalRow?.n ?? 0 };
}

export async function findDeviceActions(db: Reader, ctx: Scope, ids: string[]): Promise<DeviceAction[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await db
    .select(columns)
    .from(deviceCommands)
    .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
    .leftJoin(users, eq(users.id, deviceCommands.createdBy))
    .where(where(ctx, {}, ids))
    .orderBy(desc(deviceCommands.createdAt));
  return rows.flatMap((r) => toDeviceAction(r) ?? []);
}
