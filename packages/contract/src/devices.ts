import { z } from 'zod';

// spec: core §3 Device and its nested shapes, field for field. Sizes: memory module capacity in
// GB, storage sizes in bytes, interface byte counters in bytes (the UI shows MB).

export const DEVICE_STATUSES = ['online', 'offline', 'loggedin', 'error'] as const;
export const DeviceStatus = z.enum(DEVICE_STATUSES);
export type DeviceStatus = z.infer<typeof DeviceStatus>;

/** spec: core §4 Selection — only these may be selected, deployed to or acted on. */
export const ACTIONABLE_DEVICE_STATUSES: readonly DeviceStatus[] = ['online', 'loggedin'];
export const isDeviceActionable = (status: string) => status === 'online' || status === 'loggedin';

export const OS_TYPES = ['windows', 'macos', 'linux'] as const;
export const OsType = z.enum(OS_TYPES);
export type OsType = z.infer<typeof OsType>;

const text = (max = 512) => z.string().max(max);
const bytes = z.number().nonnegative();

export const HardwareInfo = z.object({
  systemInfo: z.object({ manufacturer: text(), model: text() }),
  cpu: z.object({ name: text() }),
  /** capacity in GB */
  memoryModules: z.array(z.object({ capacity: z.number().nonnegative() })).max(256),
  /** totalSize and freeSpace in bytes */
  storageDevices: z
    .array(
      z.object({
        deviceId: text(),
        mediaType: text(),
        totalSize: bytes,
        freeSpace: bytes,
      }),
    )
    .max(256),
});
export type HardwareInfo = z.infer<typeof HardwareInfo>;

export const INTERFACE_STATUS_UP = 'Up';

export const Ipv4Address = z.object({ address: text(64), subnetMask: text(64) });
export type Ipv4Address = z.infer<typeof Ipv4Address>;

export const NetworkInterface = z.object({
  name: text(),
  description: text(),
  type: text(64),
  /** link speed in Mbit/s, null when unknown */
  speed: z.number().nonnegative().nullable(),
  /** 'Up' or otherwise ('Down', 'Unknown', …) */
  status: text(32),
  macAddress: text(64),
  gateway: text(64).nullable(),
  dhcpEnabled: z.boolean(),
  ipv4Addresses: z.array(Ipv4Address).max(64),
  ipv6Addresses: z.array(text(64)).max(64),
  bytesReceived: bytes,
  bytesSent: bytes,
});
export type NetworkInterface = z.infer<typeof NetworkInterface>;

export const NetworkInfo = z.object({
  externalIp: text(64).nullable(),
  dnsServers: z.array(text(64)).max(32),
  interfaces: z.array(NetworkInterface).max(256),
});
export type NetworkInfo = z.infer<typeof NetworkInfo>;

export const SoftwareItem = z.object({
  name: text().min(1),
  displayName: text().nullable(),
  publisher: text().nullable(),
  version: text(128).nullable(),
  /** as the platform reports it: YYYY-MM-DD when known */
  installDate: text(64).nullable(),
});
export type SoftwareItem = z.infer<typeof SoftwareItem>;

/** spec: core §3 Service status — Running, Stopped, Paused or other (e.g. 'Start Pending'). */
export const KNOWN_SERVICE_STATUSES = ['Running', 'Stopped', 'Paused'] as const;
export const SERVICE_START_TYPES = ['Automatic', 'Manual', 'Disabled'] as const;

export const Service = z.object({
  serviceName: text().min(1),
  displayName: text(),
  status: text(64),
  startType: text(64),
});
export type Service = z.infer<typeof Service>;

/** spec: core §4 Service control — Start only when Stopped; Restart and Stop only when Running. */
export const SERVICE_ACTIONS = ['start', 'stop', 'restart'] as const;
export const ServiceAction = z.enum(SERVICE_ACTIONS);
export type ServiceAction = z.infer<typeof ServiceAction>;

/** spec: core §7 POST /customer/devices/{id}/refresh/{kind} */
export const INVENTORY_KINDS = ['hardware', 'network', 'software', 'services'] as const;
export const InventoryKind = z.enum(INVENTORY_KINDS);
export type InventoryKind = z.infer<typeof InventoryKind>;

/** spec: core §3 Device action — action_type 'restart' or 'shutdown'. */
export const DEVICE_ACTION_TYPES = ['restart', 'shutdown'] as const;
export const DeviceActionType = z.enum(DEVICE_ACTION_TYPES);
export type DeviceActionType = z.infer<typeof DeviceActionType>;

// spec: core §3 Device. Timestamps are ISO 8601 UTC strings.
export const Device = z.object({
  id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  ip_address: z.string().nullable(),
  os_type: z.string().nullable(),
  os_version: z.string().nullable(),
  status: DeviceStatus,
  last_seen: z.string().nullable(),
  agent_version: z.string().nullable(),
  site_id: z.number().int().nullable(),
  site_name: z.string().nullable(),
  serial_number: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  last_inventory_update: z.string().nullable(),
  hardware_info: HardwareInfo.nullable(),
  network_info: NetworkInfo.nullable(),
});
export type Device = z.infer<typeof Device>;

// spec: core §3 Activity log entry (device detail, Device Activity tab).
export const ACTIVITY_EVENT_TYPES = ['online', 'offline', 'login', 'logout'] as const;
export const ActivityEventType = z.enum(ACTIVITY_EVENT_TYPES);
export type ActivityEventType = z.infer<typeof ActivityEventType>;

export const ActivityLogEntry = z.object({
  id: z.number().int(),
  event_type: ActivityEventType,
  event_timestamp: z.string(),
  user_name: z.string().nullable(),
  ip_address: z.string().nullable(),
  session_id: z.string().nullable(),
});
export type ActivityLogEntry = z.infer<typeof ActivityLogEntry>;
