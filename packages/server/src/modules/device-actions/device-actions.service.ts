import type {
  CreateDeviceActionsResponse,
  DeviceActionBody,
  DeviceActionListFilters,
  DeviceActionListResponse,
} from '@outpost/contract/device-actions';
import { DEVICE_ACTION_EXPIRY_MS } from '@outpost/contract/device-actions';
import { isDeviceActionable } from '@outpost/contract/devices';
import { paginate } from '@outpost/contract/envelope';
import { accessMessages, deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { conflict, notFound } from '../../lib/errors';
import type { CommandQueue } from '../../live/command-queue';
import type { RequestContext } from '../../lib/context';
import type { DevicesService } from '../devices/devices.service';
import { requireActionable } from '../devices/devices.service';
import { findDeviceActions, listDeviceActions } from './device-actions.queries';

// Audit actions in the words ('Device Restart').
const actionLabel = { restart: 'Device Restart', shutdown: 'Device Shutdown' } as const;

export type DeviceActionsServiceDeps = {
  db: Db;
  commandQueue: Pick<CommandQueue, 'queueCommand' | 'dispatch'>;
  devices: Pick<DevicesService, 'findManyInScope'>;
};

type Target = Awaited<ReturnType<DevicesService['findManyInScope']>>[number];

/**
 * Every target must be online or logged in (docs/product/devices.md#device-actions: only those may be acted on). One device
 * gets its own message; several name every device that is not available. Nothing is queued
 * unless all can take the action.
 */
function requireAllActionable(targets: Target[]): void {
  const [only] = targets;
  if (targets.length === 1 && only) {
    requireActionable(only);
    return;
  }
  const refused = targets.filter((t) => !isDeviceActionable(t.status));
  if (refused.length > 0) {
    throw conflict(
      accessMessages.devicesNotActionable(refused.map((t) => `${t.hostname ?? t.deviceGuid} (${t.status})`)),
      'DEVICE_NOT_ACTIONABLE',
    );
  }
}

// docs/product/devices.md#device-fields, #calls. Any user may act on
// the devices in their scope (docs/product/sign-in.md#roles leaves roles open; docs/product/administration.md#who-may-do-what decides).
export function createDeviceActionsService({ db, commandQueue, devices }: DeviceActionsServiceDeps) {
  return {
    async create(ctx: RequestContext, body: DeviceActionBody): Promise<CreateDeviceActionsResponse> {
      const requested = body.device_ids?.length ? body.device_ids : body.device_id ? [body.device_id] : [];
      const ids = [...new Set(requested)];
      const targets = await devices.findManyInScope(ctx, ids);
      const found = new Set(targets.map((t) => t.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw notFound(deviceMessages.devicesNotFound(missing), 'DEVICE_NOT_FOUND');
      }
      requireAllActionable(targets);
      // One action per device. It lives for a while: a device that restarts or drops its
      // connection right now gets it when it is back, unless it expires first.
      const commandIds = await db.transaction(async (tx) => {
        const out: string[] = [];
        for (const device of targets) {
          const id = await commandQueue.queueCommand(tx, {
            tenantId: ctx.tenantId,
            deviceId: device.id,
            command: { kind: 'device_action', action: body.action_type, data: body.action_data ?? null },
            createdBy: ctx.userId,
            expiresInMs: DEVICE_ACTION_EXPIRY_MS,
          });
          await writeAudit(tx, ctx, {
            action: actionLabel[body.action_type],
            resourceType: 'device',
            resourceId: device.id,
            details: `${body.action_type} requested for ${device.hostname ?? device.deviceGuid} (${device.status})`,
            newValues: {
              action_id: id,
              action_type: body.action_type,
              action_data: body.action_data ?? null,
            },
            siteIds: [device.siteId],
          });
          out.push(id);
        }
        return out;
      });
      await commandQueue.dispatch(targets.map((device) => device.id));
      const actions = await findDeviceActions(db, ctx, commandIds);
      return { created: actions.length, actions };
    },

    async list(ctx: RequestContext, f: DeviceActionListFilters): Promise<DeviceActionListResponse> {
      const { rows, total } = await listDeviceActions(db, ctx, f);
      return { data: rows, pagination: paginate(f.page, f.limit, total) };
    },
  };
}

export type DeviceActionsService = ReturnType<typeof createDeviceActionsService>;
