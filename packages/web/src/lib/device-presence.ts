import type { DeviceStatus } from '@outpost/contract/devices';

// The last status the portal knows of each device (from fetched lists and details and from live
// updates), so a live update can be read as a change from one status to another: the socket's
// device_update carries only the new status.

const known = new Map<string, DeviceStatus>();

/** Remember statuses as fetched from the server. */
export function noteDeviceStatuses(devices: readonly { device_guid: string; status: DeviceStatus }[]) {
  for (const d of devices) {
    known.set(d.device_guid, d.status);
  }
}

/** Record a live status and return the one known before it (undefined when none was). */
export function swapDeviceStatus(deviceGuid: string, status: DeviceStatus): DeviceStatus | undefined {
  const previous = known.get(deviceGuid);
  known.set(deviceGuid, status);
  return previous;
}
