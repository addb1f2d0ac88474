import type { SessionUser } from '@outpost/contract/auth';
import type { Policy } from '@outpost/contract/policies';

// docs/product/device-sets.md#automation-policies: a policy whose target is the whole tenant
// (site_id null) is changed by administrators of all sites only; any other by whoever sees it.
export const mayManagePolicy = (
  me: Pick<SessionUser, 'role' | 'site_access_type'>,
  p: Pick<Policy, 'target'>,
) => p.target.site_id !== null || (me.role === 'tenant_admin' && me.site_access_type !== 'specific');

// docs/product/monitoring.md#monitoring-policies: administrators change monitoring policies; one
// whose target is the whole tenant only an administrator of all sites.
export const mayManageMonitoringPolicy = (
  me: Pick<SessionUser, 'role' | 'site_access_type'>,
  p: Pick<Policy, 'target'>,
) => me.role === 'tenant_admin' && (p.target.site_id !== null || me.site_access_type !== 'specific');
