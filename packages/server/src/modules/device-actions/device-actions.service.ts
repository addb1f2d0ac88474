import type {
  CreateDeviceActionsResponse,
  DeviceActionBody,
  DeviceActionListFilters,
  DeviceActionListResponse,
} from '@outpost/contract/device-actions';
import { DEVICE_ACTION_EXPIRY_MS } from '@outpost/contract/device-actions';
import { paginate } from '@outpost/contract/envelope';
import { deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { notFound } from '../../lib/errors';
import type { CommandQueue } from '../../live/command-queue';
import type { RequestContext } from '../../plugins/auth';
import { findScopedDevicesByIds } from '../devices/devices-list.queries';
import { findDeviceActions, listDeviceActions } from './device-actions.queries';

const actionLabel = { restart: 'Restart Device', shutdown: 'Shutdown Device' } as const;

// spec: core §3 Device action, §7 POST /customer/deployments/device-actions. Any user may act on
// the devices in their scope (core §6 leaves roles open; ARCHITECTURE §3 decides).
export function createDeviceActionsService(db: Db, gateway: CommandQueue) {
  return {
    async create(ctx: RequestContext, body: DeviceActionBody): Promise<CreateDeviceActionsResponse> {
      const ids = [...new Set(body.device_ids?.length ? body.device_ids : [body.device_id!])];
      const targets = await findScopedDevicesByIds(db, ctx, ids);
      const found = new Set(targets.map((t) => t.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw notFound(deviceMessages.devicesNotFound(missing), 'DEVICE_NOT_FOUND');
      }
      // One action per device; an offline device gets it when it returns, unless it expires first.
      const commandIds = await db.transaction(async (tx) => {
        const out: string[] = [];
        for (const device of targets) {
          const id = await gateway.queueCommand(tx, {
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
          });
          out.push(id);
        }
        return out;
      });
      for (const device of targets) {
        await gateway.dispatch(device.id);
      }
      const actions = await findDeviceActions(db, ctx, commandIds);
      return { created: actions.length, actions };
    },

    async list(ctx: RequestContext, f: DeviceActionListFilters): Promise<DeviceActionListResponse> {
      const { rows, total } = await listDeviceActions(db, ctx, f);
      return { data: rows, pagination: paginate(f.page, f.limit, total) };
    },
  };
}
