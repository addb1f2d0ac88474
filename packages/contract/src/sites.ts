import { z } from 'zod';
import { Id, IdParam, PageParam } from './input';
import { listOf } from './envelope';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './limits';
import { adminMessages as messages } from './messages';

// Sites of one organization (docs/product/administration.md#sites, #fields, #calls, #admin-lists).

export const SITE_CODE_MAX = 6;
export const SITE_CODE_PATTERN = /^[A-Z0-9]+$/;
export const SITE_NAME_MAX = 200;
export const MAX_SITES_PER_BULK = 1000;

/** docs/product/administration.md#sites: the timezones offered for a site, stored as IANA ids. */
export const SITE_TIMEZONES = [
  { value: 'America/New_York', label: 'New York' },
  { value: 'America/Chicago', label: 'Chicago' },
  { value: 'America/Denver', label: 'Denver' },
  { value: 'America/Los_Angeles', label: 'Los Angeles' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris' },
  { value: 'Europe/Berlin', label: 'Berlin' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
  { value: 'Asia/Shanghai', label: 'Shanghai' },
  { value: 'Australia/Sydney', label: 'Sydney' },
] as const;
export type SiteTimezone = (typeof SITE_TIMEZONES)[number]['value'];
const TIMEZONE_VALUES = SITE_TIMEZONES.map((t) => t.value) as [SiteTimezone, ...SiteTimezone[]];
export const SiteTimezone = z.enum(TIMEZONE_VALUES, { error: messages.timezoneInvalid });
export const timezoneLabel = (value: string | null | undefined): string | null =>
  SITE_TIMEZONES.find((t) => t.value === value)?.label ?? value ?? null;

/** docs/product/administration.md#sites: the first problem with a site code, in the product's words, or null. */
export function siteCodeError(code: string): string | null {
  if (code.length === 0) {
    return messages.siteNameCodeRequired;
  }
  if (code.length > SITE_CODE_MAX) {
    return messages.siteCodeTooLong;
  }
  if (!SITE_CODE_PATTERN.test(code)) {
    return messages.siteCodeCharacters;
  }
  return null;
}

/** docs/product/administration.md#fields; optional fields are null when not set. */
export const Site = z.object({
  id: z.number().int(),
  site_name: z.string(),
  site_code: z.string(),
  description: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  postal_code: z.string().nullable(),
  timezone: z.string().nullable(),
  device_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Site = z.infer<typeof Site>;

// ---------- list (GET /customer/sites) ----------

export const SiteListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  /** matches name, code, city or country, case-insensitive */
  search: z.string().trim().max(200).optional(),
});
export type SiteListQuery = z.input<typeof SiteListQuery>;
export type SiteListFilters = z.output<typeof SiteListQuery>;

export const SiteListResponse = listOf(Site);
export type SiteListResponse = z.infer<typeof SiteListResponse>;

// ---------- create and update ----------

const siteName = z
  .string({ error: messages.siteNameCodeRequired })
  .trim()
  .min(1, messages.siteNameCodeRequired)
  .max(SITE_NAME_MAX, `Site name must be ${SITE_NAME_MAX} characters or less`);
const siteCode = z
  .string({ error: messages.siteNameCodeRequired })
  .trim()
  .check((ctx) => {
    const error = siteCodeError(ctx.value);
    if (error) {
      ctx.issues.push({ code: 'custom', message: error, input: ctx.value });
    }
  });
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be ${max} characters or less`)
    .nullable()
    .optional()
    // Omitted stays omitted (an update leaves the field alone); empty means none (null).
    .transform((v) => (v === undefined ? undefined : v || null));
const timezone = z
  .union([SiteTimezone, z.literal('')], { error: messages.timezoneInvalid })
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v || null));

const siteFields = {
  description: optionalText(2000, 'Description'),
  address: optionalText(500, 'Address'),
  city: optionalText(200, 'City'),
  state: optionalText(200, 'State'),
  country: optionalText(200, 'Country'),
  postal_code: optionalText(20, 'Postal code'),
  timezone,
};

/** POST /customer/sites: site_name and site_code required; the rest optional (empty → null). */
export const SiteCreateBody = z.object({ site_name: siteName, site_code: siteCode, ...siteFields });
export type SiteCreateBody = z.input<typeof SiteCreateBody>;
export type SiteCreateInput = z.output<typeof SiteCreateBody>;

/** PUT /customer/sites/{id}: the same fields; an omitted field stays as it is. */
export const SiteUpdateBody = z.object({
  site_name: siteName.optional(),
  site_code: siteCode.optional(),
  ...siteFields,
});
export type SiteUpdateBody = z.input<typeof SiteUpdateBody>;
export type SiteUpdateInput = z.output<typeof SiteUpdateBody>;

export const SiteIdParams = z.object({ id: IdParam });

// ---------- delete ----------

/** DELETE /customer/sites with body {site_ids}. */
export const BulkDeleteSitesBody = z.object({
  site_ids: z.array(Id).min(1, messages.noSelection).max(MAX_SITES_PER_BULK),
});
export type BulkDeleteSitesBody = z.infer<typeof BulkDeleteSitesBody>;

/**
 * Both deletes answer this. Devices of a deleted site are kept and become unassigned (site_id
 * null); devices_unassigned says how many. Users given only deleted sites keep 'specific' access
 * with fewer (possibly no) sites.
 */
export const DeleteSitesResponse = z.object({
  deleted: z.number().int(),
  site_ids: z.array(z.number().int()),
  devices_unassigned: z.number().int(),
  message: z.string(),
});
export type DeleteSitesResponse = z.infer<typeof DeleteSitesResponse>;
