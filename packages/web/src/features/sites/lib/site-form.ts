import { adminMessages } from '@outpost/contract/messages';
import { siteCodeError } from '@outpost/contract/sites';
import type { Site, SiteSaveBody } from '../api/sites';

// docs/product/administration.md#sites — name and code required; code at most 6 characters, uppercase
// letters and digits, upper-cased as typed; other fields optional, empty ones omitted.

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

/** The site code as typed, upper-cased (docs/product/administration.md#sites). */
export const normaliseSiteCode = (typed: string) => typed.toUpperCase();

/** The first rule the form breaks, in the product's words, or null. */
export function validateSiteForm(form: SiteForm): string | null {
  if (form.site_name.trim() === '') {
    return adminMessages.siteNameCodeRequired;
  }
  return siteCodeError(form.site_code.trim());
}

/**
 * The request body: the required fields and the optional ones that are filled in (docs/product/packages.md#validation:
 * empty ones are omitted). Editing, a field the site had and the form cleared is sent empty,
 * which clears it (the API leaves omitted fields as they are).
 */
export function siteFormToBody(form: SiteForm, original?: Site | null): SiteSaveBody {
  const body: SiteSaveBody = { site_name: form.site_name.trim(), site_code: form.site_code.trim() };
  for (const key of OPTIONAL_SITE_FIELDS) {
    const value = form[key].trim();
    if (value !== '' || original?.[key]) {
      // The timezone comes from the select of the contract's list (or is the site's own).
      (body as Record<OptionalField, string>)[key] = value;
    }
  }
  return body;
}
