import type { Site, SiteSaveBody } from '../../../lib/api/sites';

// spec: operations §5 Site — name and code required; code at most 6 characters, uppercase
// letters and digits, upper-cased as typed; other fields optional, empty ones omitted.

export const SITE_CODE_MAX_LENGTH = 6;

export const siteFormMessages = {
  nameAndCodeRequired: 'Site name and code are required',
  codeTooLong: 'Site code must be 6 characters or less',
  codeCharacters: 'Site code must contain only uppercase letters and numbers',
  saveFailed: 'Failed to create or update site',
  loadFailed: 'Failed to load sites',
} as const;

// spec: operations §9 — the timezones offered for a site.
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

export const timezoneLabel = (value: string | null | undefined) =>
  SITE_TIMEZONES.find((t) => t.value === value)?.label ?? value ?? '';

export const OPTIONAL_SITE_FIELDS = [
  'description',
  'address',
  'city',
  'state',
  'country',
  'postal_code',
  'timezone',
] as const;
type OptionalField = (typeof OPTIONAL_SITE_FIELDS)[number];

export type SiteForm = { site_name: string; site_code: string } & Record<OptionalField, string>;

export const emptySiteForm: SiteForm = {
  site_name: '',
  site_code: '',
  description: '',
  address: '',
  city: '',
  state: '',
  country: '',
  postal_code: '',
  timezone: '',
};

export function siteToForm(site: Site): SiteForm {
  const form: SiteForm = { ...emptySiteForm, site_name: site.site_name, site_code: site.site_code };
  for (const key of OPTIONAL_SITE_FIELDS) {
    form[key] = site[key] ?? '';
  }
  return form;
}

/** The site code as typed, upper-cased (spec §5). */
export const normaliseSiteCode = (typed: string) => typed.toUpperCase();

/** The first rule the form breaks, in the spec's words, or null. */
export function validateSiteForm(form: SiteForm): string | null {
  const code = form.site_code.trim();
  if (form.site_name.trim() === '' || code === '') {
    return siteFormMessages.nameAndCodeRequired;
  }
  if (code.length > SITE_CODE_MAX_LENGTH) {
    return siteFormMessages.codeTooLong;
  }
  if (!/^[A-Z0-9]+$/.test(code)) {
    return siteFormMessages.codeCharacters;
  }
  return null;
}

/** The request body: the required fields, and the optional ones that are filled in. */
export function siteFormToBody(form: SiteForm): SiteSaveBody {
  const body: SiteSaveBody = { site_name: form.site_name.trim(), site_code: form.site_code.trim() };
  for (const key of OPTIONAL_SITE_FIELDS) {
    const value = form[key].trim();
    if (value !== '') {
      body[key] = value;
    }
  }
  return body;
}
