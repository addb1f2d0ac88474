import type { Role, SiteAccessType } from '@outpost/contract/auth';
import { adminMessages } from '@outpost/contract/messages';
import { userSiteAccessError } from '@outpost/contract/users';
import type { TenantUser, UserSaveBody } from '../../../lib/api/users';

// docs/product/administration.md#users — email required; with specific site access at least one site.

export type UserForm = {
  email: string;
  name: string;
  role: Role;
  siteAccessType: SiteAccessType;
  siteIds: number[];
};

export const emptyUserForm: UserForm = {
  email: '',
  name: '',
  role: 'user',
  siteAccessType: 'all',
  siteIds: [],
};

/** The ids in a user's comma-separated assigned_site_ids. */
export function parseSiteIds(value: string | null | undefined): number[] {
  return (value ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

export function userToForm(user: TenantUser): UserForm {
  return {
    email: user.email,
    name: user.name ?? '',
    role: user.role,
    // 'none' may appear on read (docs/product/administration.md#fields): editing it means choosing sites again.
    siteAccessType: user.site_access_type === 'all' ? 'all' : 'specific',
    siteIds: parseSiteIds(user.assigned_site_ids),
  };
}

/** The first rule the form breaks, in the product's words, or null. */
export function validateUserForm(form: UserForm): string | null {
  if (form.email.trim() === '') {
    return adminMessages.emailRequired;
  }
  return userSiteAccessError(form.siteAccessType, form.siteIds);
}

export function userFormToBody(form: UserForm): UserSaveBody {
  return {
    email: form.email.trim(),
    name: form.name.trim(),
    role: form.role,
    site_access_type: form.siteAccessType,
    site_ids: form.siteAccessType === 'specific' ? form.siteIds : [],
  };
}
