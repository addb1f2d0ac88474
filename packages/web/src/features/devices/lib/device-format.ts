import type { DeviceListItem, InventoryNotReported } from '@outpost/contract/devices';
import { osTypeLabel } from '@outpost/contract/devices';

// How a device is named and described on every devices screen (docs/product/devices.md#device-list).

export const deviceName = (d: Pick<DeviceListItem, 'hostname' | 'id'>) => d.hostname || `Device ${d.id}`;

/** Type and version, or 'Unknown'. The version usually names the OS already ("Windows 11 Pro"). */
export function osLabel(d: Pick<DeviceListItem, 'os_type' | 'os_version'>): string {
  if (!d.os_type && !d.os_version) {
    return 'Unknown';
  }
  const type = osTypeLabel(d.os_type);
  if (!d.os_version) {
    return type;
  }
  const version = d.os_version.replace(/^Microsoft\s+/i, '');
  return version.toLowerCase().includes(type.toLowerCase()) ? version : `${type} ${version}`;
}

/** The label split into name and build ("Windows 11 Pro 23H2", "10.0.22631") for compact cells. */
export function osParts(d: Pick<DeviceListItem, 'os_type' | 'os_version'>): {
  name: string;
  build: string | null;
} {
  const label = osLabel(d);
  const m = /^(.*?)\s*\(([^)]+)\)$/.exec(label);
  return m ? { name: m[1]!, build: m[2]! } : { name: label, build: null };
}

/** The guid the detail route uses (product rule: device_guid or agent_guid). */
export const deviceHref = (d: Pick<DeviceListItem, 'device_guid'>) => `/devices/${d.device_guid}`;

/**
 * The inventory parts the agent could not collect, those with the same reason together:
 * "services, software (PowerShell is not available on this device)"; null when it reported all.
 */
export function notReportedText(parts: readonly InventoryNotReported[]): string | null {
  const byReason = new Map<string, string[]>();
  for (const p of parts) {
    byReason.set(p.reason, [...(byReason.get(p.reason) ?? []), p.kind]);
  }
  const groups = [...byReason].map(([reason, kinds]) => `${kinds.join(', ')} (${reason})`);
  return groups.length > 0 ? groups.join('; ') : null;
}
