import type { Role, SiteAccessType } from '@outpost/contract/auth';
import type { SsoRoleMapping } from '@outpost/contract/sso';

// Group (or role) claims to Outpost access (docs/product/sign-in.md#just-in-time-membership-and-roles):
// pure, so its rules are tested without a provider.

export type MemberAccess = { role: Role; siteAccessType: SiteAccessType; siteIds: number[] };

export type MappingRules = { groupsClaim: string | null; mappings: SsoRoleMapping[]; defaultRole: Role };

/** The claim's values: a list of strings, or one string (some providers send a single role so). */
export function claimValues(claims: Record<string, unknown> | undefined, name: string): string[] {
  const value = claims?.[name];
  if (typeof value === 'string') {
    return [value];
  }
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * What the provider's groups give, or null when the organisation maps no groups (then Outpost's own
 * settings stand). Every matching mapping adds its grant: administrator wins over user, all sites
 * over specific ones, specific sites add up. Matching none gives the default role on all sites.
 */
export function mappedAccess(
  rules: MappingRules,
  claims: Record<string, unknown> | undefined,
): MemberAccess | null {
  if (!rules.groupsClaim || rules.mappings.length === 0) {
    return null;
  }
  const groups = new Set(claimValues(claims, rules.groupsClaim));
  const matched = rules.mappings.filter((m) => groups.has(m.group));
  if (matched.length === 0) {
    return { role: rules.defaultRole, siteAccessType: 'all', siteIds: [] };
  }
  const role: Role = matched.some((m) => m.role === 'tenant_admin') ? 'tenant_admin' : 'user';
  if (matched.some((m) => m.site_ids === null)) {
    return { role, siteAccessType: 'all', siteIds: [] };
  }
  const siteIds = [...new Set(matched.flatMap((m) => m.site_ids ?? []))].sort((a, b) => a - b);
  return { role, siteAccessType: 'specific', siteIds };
}

export function sameAccess(a: MemberAccess, b: MemberAccess): boolean {
  if (a.role !== b.role || a.siteAccessType !== b.siteAccessType) {
    return false;
  }
  return a.siteAccessType === 'all' || a.siteIds.join(',') === b.siteIds.join(',');
}
