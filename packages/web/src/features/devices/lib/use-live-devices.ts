import { useQueryClient } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { DeviceUpdatePayload } from '@outpost/contract/live';
import { deviceKey as channelKey } from '@outpost/contract/live';
import { useLiveMessages, useLiveSocket, useSubscriptions } from '../../../lib/socket';

/** A device_update message, or null for anything else. */
export function asDeviceUpdate(message: { type: string; payload: unknown }): DeviceUpdatePayload | null {
  if (message.type !== 'device_update' || !message.payload || typeof message.payload !== 'object') {
    return null;
  }
  const p = message.payload as Partial<DeviceUpdatePayload>;
  return typeof p.deviceId === 'string' && typeof p.status === 'string' ? (p as DeviceUpdatePayload) : null;
}

/** The row with the message's changes applied (spec: core §4 — status and lastSeen, in place). */
export function applyDeviceUpdate<
  T extends Pick<DeviceListItem, 'status' | 'last_seen'> & Partial<DeviceListItem>,
>(row: T, u: DeviceUpdatePayload): T {
  return {
    ...row,
    status: u.status,
    last_seen: u.lastSeen ?? row.last_seen,
    ...(u.hostname !== undefined && u.hostname !== null && { hostname: u.hostname }),
    ...(u.ipAddress !== undefined && u.ipAddress !== null && { ip_address: u.ipAddress }),
    ...(u.agentVersion !== undefined && u.agentVersion !== null && { agent_version: u.agentVersion }),
    ...(u.lastInventoryUpdate !== undefined && { last_inventory_update: u.lastInventoryUpdate }),
  };
}

/**
 * spec: core §4 Device list live updates — while connected, subscribe to 'device:{guid}' for each
 * listed device and change the matching row of the cached page in place.
 */
export function useLiveDeviceRows(
  queryKey: QueryKey,
  rows: Pick<DeviceListItem, 'device_guid'>[] | undefined,
) {
  const queryClient = useQueryClient();
  const { status } = useLiveSocket();
  const keys = status === 'connected' && rows ? rows.map((r) => channelKey(r.device_guid)) : [];
  useSubscriptions(keys);
  useLiveMessages((message) => {
    const update = asDeviceUpdate(message);
    if (!update) {
      return;
    }
    queryClient.setQueryData(queryKey, (old: { data: DeviceListItem[] } | undefined) => {
      if (!old || !old.data.some((d) => d.device_guid === update.deviceId)) {
        return old;
      }
      return {
        ...old,
        data: old.data.map((d) => (d.device_guid === update.deviceId ? applyDeviceUpdate(d, update) : d)),
      };
    });
  });
}
