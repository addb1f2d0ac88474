import { z } from 'zod';
import { IdParam, PageParam } from './input';
import { COMMAND_STATUSES } from './agent-protocol';
import { DeviceActionType } from './devices';
import { listOf } from './envelope';

// Device actions (docs/product/devices.md#device-fields, docs/product/deployments.md#calls): restart or shut down
// devices. One action per device, delivered to the agent through the command queue; an offline
// device gets it when it returns, unless the action expires first.

/** An action not delivered within this time fails instead of running late. */
export const DEVICE_ACTION_EXPIRY_MS = 24 * 60 * 60 * 1000;
export const MAX_DEVICES_PER_ACTION = 1000;

export const DeviceActionBody = z
  .object({
    device_ids: z.array(IdParam).max(MAX_DEVICES_PER_ACTION).optional(),
    device_id: IdParam.optional(),
    action_type: DeviceActionType,
    action_data: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .refine((b) => (b.device_ids?.length ?? 0) > 0 || b.device_id !== undefined, {
    message: 'Please select devices first',
    path: ['device_ids'],
  });
export type DeviceActionBody = z.infer<typeof DeviceActionBody>;

export const DeviceActionStatus = z.enum(COMMAND_STATUSES);
export type DeviceActionStatus = z.infer<typeof DeviceActionStatus>;

export const DeviceAction = z.object({
  id: z.string(),
  device_id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  action_type: DeviceActionType,
  action_data: z.record(z.string(), z.unknown()).nullable(),
  /** pending → sent → completed | failed */
  status: DeviceActionStatus,
  /** the agent's message: its error when failed */
  message: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type DeviceAction = z.infer<typeof DeviceAction>;

export const CreateDeviceActionsResponse = z.object({
  created: z.number().int(),
  actions: z.array(DeviceAction),
});
export type CreateDeviceActionsResponse = z.infer<typeof CreateDeviceActionsResponse>;

export const DeviceActionListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  device_id: IdParam.optional(),
  action_type: DeviceActionType.optional(),
});
export type DeviceActionListQuery = z.input<typeof DeviceActionListQuery>;
export type DeviceActionListFilters = z.output<typeof DeviceActionListQuery>;

export const DeviceActionListResponse = listOf(DeviceAction);
export type DeviceActionListResponse = z.infer<typeof DeviceActionListResponse>;
