import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceCheck } from '@outpost/contract/checks';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

// docs/product/monitoring.md#the-monitoring-tab: the checks the device's monitoring policies run
// on it, with their last states.

export const deviceChecksKey = (tenantId: number, idOrGuid: string) =>
  [...devicesKey(tenantId), 'checks', idOrGuid] as const;

export const getDeviceChecks = (idOrGuid: string, signal?: AbortSignal) =>
  api.get<{ data: DeviceCheck[] }>(
    `/customer/devices/${encodeURIComponent(idOrGuid)}/checks`,
    undefined,
    signal,
  );

export const getDeviceChecksQueryOptions = (tenantId: number, idOrGuid: string) =>
  queryOptions({
    queryKey: deviceChecksKey(tenantId, idOrGuid),
    queryFn: ({ signal }) => getDeviceChecks(idOrGuid, signal),
    refetchInterval: 60_000,
  });

export function useDeviceChecks(idOrGuid: string) {
  const user = useUser();
  return useQuery(getDeviceChecksQueryOptions(user.tenant_id, idOrGuid));
}
