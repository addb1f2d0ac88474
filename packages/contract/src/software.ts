import { z } from 'zod';
import { PageParam } from './input';
import { listOf } from './envelope';
import { DeviceStatus } from './devices';

// docs/product/device-sets.md#fleet-software: every title installed across the tenant, with its
// versions and how many devices hold each, and the devices holding a title or one version.

const limitParam = (fallback: number) => z.coerce.number().int().min(1).max(100).default(fallback);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

export const SOFTWARE_SORTS = ['name', 'devices'] as const;
export const SoftwareSort = z.enum(SOFTWARE_SORTS);
export type SoftwareSort = z.infer<typeof SoftwareSort>;

export const FleetSoftwareQuery = z.object({
  page: PageParam,
  limit: limitParam(25),
  /** matches the title or its publisher, case-insensitive */
  search: optionalText(200),
  /** 'name' (A to Z) or 'devices' (most devices first) */
  sort: SoftwareSort.default('name'),
});
export type FleetSoftwareQuery = z.input<typeof FleetSoftwareQuery>;
export type FleetSoftwareFilters = z.output<typeof FleetSoftwareQuery>;

export const SoftwareVersionCount = z.object({
  /** '' when the platform reports no version */
  version: z.string(),
  device_count: z.number().int(),
});
export type SoftwareVersionCount = z.infer<typeof SoftwareVersionCount>;

export const FleetSoftwareTitle = z.object({
  name: z.string(),
  publisher: z.string().nullable(),
  /**
   * the devices holding the title: the sum of its versions' counts (a device with two versions
   * side by side counts under each)
   */
  device_count: z.number().int(),
  versions: z.array(SoftwareVersionCount),
});
export type FleetSoftwareTitle = z.infer<typeof FleetSoftwareTitle>;

export const FleetSoftwareResponse = listOf(FleetSoftwareTitle);
export type FleetSoftwareResponse = z.infer<typeof FleetSoftwareResponse>;

export const SoftwareDevicesQuery = z.object({
  page: PageParam,
  limit: limitParam(25),
  /** the title, exactly as listed */
  name: z.string().min(1, 'Choose a software title').max(500),
  /** one version ('' is the title without a version); absent: every version */
  version: z.string().max(500).optional(),
});
export type SoftwareDevicesQuery = z.input<typeof SoftwareDevicesQuery>;
export type SoftwareDevicesFilters = z.output<typeof SoftwareDevicesQuery>;

export const SoftwareDevice = z.object({
  id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  status: DeviceStatus,
  os_type: z.string().nullable(),
  site_name: z.string().nullable(),
  version: z.string(),
  publisher: z.string().nullable(),
});
export type SoftwareDevice = z.infer<typeof SoftwareDevice>;

export const SoftwareDevicesResponse = listOf(SoftwareDevice);
export type SoftwareDevicesResponse = z.infer<typeof SoftwareDevicesResponse>;
