import type { SessionUser } from '@outpost/contract/auth';
import type { SiteOption } from '@outpost/contract/devices';
import type { PackageSummary } from '@outpost/contract/packages';
import { useUser } from '../../../lib/auth';
import { useSiteOptions } from '../../../lib/api/devices';

// Who may change a package (SECURITY.md R2-5): a member limited to some sites changes only their
// sites' packages; packages shared with all sites are read-only to them. The server enforces it
// (403); the builder and the list only stop offering what would be refused.

type Access = Pick<SessionUser, 'site_access_type'>;

export const isSiteLimitedUser = (user: Access): boolean => user.site_access_type === 'specific';

export const canChangePackage = (user: Access, pkg: Pick<PackageSummary, 'site_id'>): boolean =>
  !isSiteLimitedUser(user) || pkg.site_id !== null;

export type PackageAccess = {
  isSiteLimited: boolean;
  /** the package is shared with all sites and the user is limited to some */
  isReadOnly: boolean;
  /** the sites the user may give a package (their own, or all the tenant's) */
  sites: SiteOption[];
  /** a new package's site: the user's only site when they are limited to one, else '' */
  defaultSiteId: string;
};

export function usePackageAccess(pkg: Pick<PackageSummary, 'site_id'> | null): PackageAccess {
  const user = useUser();
  const sites = useSiteOptions().data ?? [];
  const isSiteLimited = isSiteLimitedUser(user);
  const [only] = sites;
  return {
    isSiteLimited,
    isReadOnly: pkg !== null && !canChangePackage(user, pkg),
    sites,
    defaultSiteId: isSiteLimited && sites.length === 1 && only ? String(only.id) : '',
  };
}
