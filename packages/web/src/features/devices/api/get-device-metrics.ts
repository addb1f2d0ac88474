import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MetricRange, MetricsResponse } from '@outpost/contract/metrics';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

// docs/product/monitoring.md#the-monitoring-tab: a device's metrics history, refreshed each
// minute (the agents sample once a minute).

export const deviceMetricsKey = (tenantId: number, idOrGuid: string, range?: MetricRange) =>
  range
    ? ([...devicesKey(tenantId), 'metrics', idOrGuid, range] as const)
    : ([...devicesKey(tenantId), 'metrics', idOrGuid] as const);

export const getDeviceMetrics = (idOrGuid: string, range: MetricRange, signal?: AbortSignal) =>
  api.get<MetricsResponse>(`/customer/devices/${encodeURIComponent(idOrGuid)}/metrics`, { range }, signal);

export const getDeviceMetricsQueryOptions = (tenantId: number, idOrGuid: string, range: MetricRange) =>
  queryOptions({
    queryKey: deviceMetricsKey(tenantId, idOrGuid, range),
    queryFn: ({ signal }) => getDeviceMetrics(idOrGuid, range, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });

export function useDeviceMetrics(idOrGuid: string, range: MetricRange) {
  const user = useUser();
  return useQuery(getDeviceMetricsQueryOptions(user.tenant_id, idOrGuid, range));
}
