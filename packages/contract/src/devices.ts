import { z } from 'zod';
import { Id, IdParam, PageParam } from './input';
import { listOf } from './envelope';
import { DeviceTag } from './tags';

// docs/product/devices.md#device-fields, field for field. Sizes: memory module capacity in
// GB, storage sizes in bytes, interface byte counters in bytes (the UI shows MB).

export const DEVICE_STATUSES = ['online', 'offline', 'loggedin', 'error'] as const;
export const DeviceStatus = z.enum(DEVICE_STATUSES);
export type DeviceStatus = z.infer<typeof DeviceStatus>;

// docs/product/devices.md#device-list — the status filter offers All, Online, Offline, Error (online also
// finds logged-in devices: a signed-in device is online).
export const DEVICE_STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
  { value: 'error', label: 'Error' },
] as const;
const OS_TYPE_NAMES: Record<string, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

/** The display name of an os_type ('windows' → 'Windows'), or 'Unknown' when there is none. */
export const osTypeLabel = (osType: string | null | undefined): string =>
  osType ? (OS_TYPE_NAMES[osType.toLowerCase()] ?? osType) : 'Unknown';

export type DeviceStatusFilter = (typeof DEVICE_STATUS_FILTERS)[number]['value'];

/** docs/product/devices.md#device-actions — only these may be selected, deployed to or acted on. */
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

/** docs/product/devices.md#device-fields — Running, Stopped, Paused or other (e.g. 'Start Pending'). */
export const KNOWN_SERVICE_STATUSES = ['Running', 'Stopped', 'Paused'] as const;
export const SERVICE_START_TYPES = ['Automatic', 'Manual', 'Disabled'] as const;

export const Service = z.object({
  serviceName: text().min(1),
  displayName: text(),
  status: text(64),
  startType: text(64),
});
export type Service = z.infer<typeof Service>;

/** docs/product/devices.md#services — Start only when Stopped; Restart and Stop only when Running. */
export const SERVICE_ACTIONS = ['start', 'stop', 'restart'] as const;
export const ServiceAction = z.enum(SERVICE_ACTIONS);
export type ServiceAction = z.infer<typeof ServiceAction>;

/** docs/product/devices.md#calls POST /customer/devices/{id}/refresh/{kind} */
export const INVENTORY_KINDS = ['hardware', 'network', 'software', 'services'] as const;
export const InventoryKind = z.enum(INVENTORY_KINDS);
export type InventoryKind = z.infer<typeof InventoryKind>;

/** An inventory part the agent could not collect, and why (docs/agent-windows.md). */
export const InventoryNotReported = z.object({ kind: InventoryKind, reason: z.string() });
export type InventoryNotReported = z.infer<typeof InventoryNotReported>;

/** docs/product/devices.md#device-fields — action_type 'restart' or 'shutdown'. */
export const DEVICE_ACTION_TYPES = ['restart', 'shutdown'] as const;
export const DeviceActionType = z.enum(DEVICE_ACTION_TYPES);
export type DeviceActionType = z.infer<typeof DeviceActionType>;

// docs/product/devices.md#device-fields. Timestamps are ISO 8601 UTC strings.
export const Device = z.object({
  id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  ip_address: z.string().nullable(),
  os_type: z.string().nullable(),
  os_version: z.string().nullable(),
  /** the CPU architecture the agent reports (x64, x86, arm64); null for an older agent */
  architecture: z.string().nullable(),
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
  /**
   * The inventory parts the agent last said it could not collect, with why (no PowerShell, a
   * probe that did not answer); empty when it reported them all (docs/agent-windows.md).
   */
  not_reported: z.array(InventoryNotReported),
});
export type Device = z.infer<typeof Device>;

// docs/product/activity.md#fields Activity log entry (device detail, Device Activity tab).
/**
 * online/offline/login/logout are presence and sessions (the utilisation counts them);
 * memory_limit is a notice: the agent passed its memory limit and restarted through its service
 * (docs/agent.md#footprint), kept in the log with what the agent said in `detail`.
 */
export const ACTIVITY_EVENT_TYPES = ['online', 'offline', 'login', 'logout', 'memory_limit'] as const;
export const ActivityEventType = z.enum(ACTIVITY_EVENT_TYPES);
export type ActivityEventType = z.infer<typeof ActivityEventType>;

export const ActivityLogEntry = z.object({
  id: z.number().int(),
  event_type: ActivityEventType,
  event_timestamp: z.string(),
  user_name: z.string().nullable(),
  ip_address: z.string().nullable(),
  session_id: z.string().nullable(),
  /** what the agent said (memory_limit); null for presence and sessions */
  detail: z.string().nullable(),
});
export type ActivityLogEntry = z.infer<typeof ActivityLogEntry>;

// ---------- devices API: list, detail, software, services, stats, cleanup ----------
// docs/product/devices.md#calls, docs/product/administration.md#calls. Lists carry data.data + data.pagination.

const pageParam = PageParam;
/** The most custom fields a device list shows as columns. */
export const DEVICE_LIST_FIELDS_MAX = 10;
const limitParam = (fallback: number) => z.coerce.number().int().min(1).max(100).default(fallback);
const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => v || undefined);

export const deviceListMessages = {
  fieldPair: 'field_key and field_value go together',
  fieldNumber: 'field_value must be a number with field_op lt or gt',
  fieldKey: 'A custom field key holds letters, digits, dots, dashes and underscores (at most 64)',
  fieldsTooMany: `At most ${DEVICE_LIST_FIELDS_MAX} custom fields as columns`,
} as const;
export const FIELD_OPS = ['eq', 'lt', 'gt'] as const;
const FIELD_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const isNumberText = (v: string) => /^-?\d+(\.\d+)?$/.test(v.trim()) && Number.isFinite(Number(v));
const FieldKeyParam = z.string().trim().regex(FIELD_KEY, deviceListMessages.fieldKey);
const FieldKeysParam = z
  .string()
  .max(1000)
  .transform((v) => [
    ...new Set(
      v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ])
  .refine((keys) => keys.every((k) => FIELD_KEY.test(k)), deviceListMessages.fieldKey)
  .refine((keys) => keys.length <= DEVICE_LIST_FIELDS_MAX, deviceListMessages.fieldsTooMany);

/**
 * GET /customer/devices. status 'online' matches online and loggedin (a signed-in device is
 * online; the dashboard counts it the same way); 'loggedin' alone matches only loggedin.
 */
export const DeviceListQuery = z
  .object({
    page: pageParam,
    limit: limitParam(20),
    search: optionalText,
    status: DeviceStatus.optional(),
    os_type: optionalText,
    site_id: IdParam.optional(),
    // docs/product/device-sets.md#device-list-filters: devices carrying a tag, members of a group,
    // devices whose custom field equals a value (or, for a number field, is below or above it)
    tag_id: IdParam.optional(),
    group_id: IdParam.optional(),
    field_key: FieldKeyParam.optional(),
    field_value: z.string().max(500).optional(),
    field_op: z.enum(FIELD_OPS).optional(),
    /** custom fields to return with each row, comma-separated keys */
    fields: FieldKeysParam.optional(),
  })
  .refine((q) => (q.field_key === undefined) === (q.field_value === undefined), {
    message: deviceListMessages.fieldPair,
    path: ['field_value'],
  })
  .refine(
    (q) => (q.field_op ?? 'eq') === 'eq' || q.field_value === undefined || isNumberText(q.field_value),
    {
      message: deviceListMessages.fieldNumber,
      path: ['field_value'],
    },
  );
export type DeviceListQuery = z.input<typeof DeviceListQuery>;
export type DeviceListFilters = z.output<typeof DeviceListQuery>;

/** A list row: the device without its inventory documents. */
export const DeviceListItem = Device.omit({
  hardware_info: true,
  network_info: true,
  not_reported: true,
}).extend({
  /** the device's tags (the device list; docs/product/device-sets.md#tags) */
  tags: z.array(DeviceTag).optional(),
  /** the custom fields asked for with `fields`, by key; null: no value */
  fields: z.record(z.string(), z.string().nullable()).optional(),
});
export type DeviceListItem = z.infer<typeof DeviceListItem>;

export const DeviceListResponse = listOf(DeviceListItem);
export type DeviceListResponse = z.infer<typeof DeviceListResponse>;

/** {id} is the numeric id or the device guid (docs/product/devices.md#device-detail). */
export const DeviceIdParams = z.object({ id: z.string().trim().min(1).max(64) });

export const SoftwareListQuery = z.object({
  page: pageParam,
  limit: limitParam(50),
  search: optionalText,
});
export type SoftwareListQuery = z.input<typeof SoftwareListQuery>;

/** docs/product/README.md#conventions — data.data, data.total, data.totalPages (plus page and limit). */
export const SoftwareListResponse = z.object({
  data: z.array(SoftwareItem),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type SoftwareListResponse = z.infer<typeof SoftwareListResponse>;

export const ServiceListResponse = z.array(Service);

export const ServiceControlParams = z.object({
  id: z.string().trim().min(1).max(64),
  serviceName: z.string().min(1).max(255),
  action: ServiceAction,
});
export const ServiceControlResponse = z.object({
  serviceName: z.string(),
  action: ServiceAction,
  status: z.string(),
  message: z.string(),
});
export type ServiceControlResponse = z.infer<typeof ServiceControlResponse>;

export const RefreshParams = z.object({ id: z.string().trim().min(1).max(64), kind: InventoryKind });
export const RefreshResponse = z.object({
  kind: InventoryKind,
  message: z.string(),
  last_inventory_update: z.string().nullable(),
  /** the parts the agent could not collect, and why (docs/agent-windows.md); absent when none */
  not_reported: z.array(InventoryNotReported).optional(),
});
export type RefreshResponse = z.infer<typeof RefreshResponse>;

/** docs/product/administration.md#fields Site (selector use); the code helps tell sites apart. */
export const SiteOption = z.object({ id: z.number().int(), site_name: z.string(), site_code: z.string() });
export type SiteOption = z.infer<typeof SiteOption>;

/** Recently discovered software: titles first seen on the tenant's devices in the last days. */
export const RECENT_SOFTWARE_DAYS = 7;
export const RecentSoftware = z.object({
  name: z.string(),
  publisher: z.string().nullable(),
  version: z.string().nullable(),
  device_count: z.number().int(),
  first_seen_at: z.string(),
  /** the device where it was seen most recently, for the software view */
  latest_device_guid: z.string(),
  latest_device_hostname: z.string().nullable(),
});
export type RecentSoftware = z.infer<typeof RecentSoftware>;

/** docs/product/devices.md#dashboard. */
export const DashboardStats = z.object({
  tenant: z.object({
    tenant_name: z.string(),
    plan: z.string().nullable(),
    max_agents: z.number().int().nullable(),
    license_expiry: z.string().nullable(),
  }),
  deviceCounts: z.object({ total: z.number().int(), online: z.number().int() }),
  recentDevices: z.array(DeviceListItem),
  runningDeployments: z.number().int(),
  totalPackages: z.number().int(),
  recentSoftware: z.array(RecentSoftware),
});
export type DashboardStats = z.infer<typeof DashboardStats>;

export const BulkDeleteDevicesBody = z.object({
  device_ids: z.array(Id).min(1, 'device_ids must not be empty').max(1000),
});
export type BulkDeleteDevicesBody = z.infer<typeof BulkDeleteDevicesBody>;

export const DeleteDevicesResponse = z.object({
  deleted: z.number().int(),
  device_ids: z.array(z.number().int()),
});
export type DeleteDevicesResponse = z.infer<typeof DeleteDevicesResponse>;

/** How long the API waits for the agent's answer to service control and refresh. */
export const AGENT_ANSWER_WAIT_MS = 15_000;
