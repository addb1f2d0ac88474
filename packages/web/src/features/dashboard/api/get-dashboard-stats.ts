import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

export const dashboardStatsKey = (tenantId: number) => ['dashboard', tenantId, 'stats'] as const;

export const getDashboardStats = (signal?: AbortSignal) =>
  api.get<DashboardStats>('/customer/devices/stats/dashboard', undefined, signal);

export const getDashboardStatsQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: dashboardStatsKey(tenantId),
    queryFn: ({ signal }) => getDashboardStats(signal),
    refetchInterval: 30_000,
  });

export function useDashboardStats() {
  const user = useUser();
  return useQuery(getDashboardStatsQueryOptions(user.tenant_id));
}
