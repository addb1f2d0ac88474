import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteOption } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

export const agentSiteOptionsKey = (tenantId: number) => ['agents', tenantId, 'site-options'] as const;

export const getSiteOptions = (signal?: AbortSignal) =>
  api.get<SiteOption[]>('/customer/devices/sites/list', undefined, signal);

export const getSiteOptionsQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: agentSiteOptionsKey(tenantId),
    queryFn: ({ signal }) => getSiteOptions(signal),
    staleTime: 60_000,
  });

export function useSiteOptions() {
  const user = useUser();
  return useQuery(getSiteOptionsQueryOptions(user.tenant_id));
}
