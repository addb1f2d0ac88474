import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

export const deviceKey = (tenantId: number, idOrGuid: string) =>
  [...devicesKey(tenantId), 'detail', idOrGuid] as const;

export const getDevice = (idOrGuid: string, signal?: AbortSignal) =>
  api.get<Device>(`/customer/devices/${encodeURIComponent(idOrGuid)}`, undefined, signal);

export const getDeviceQueryOptions = (tenantId: number, idOrGuid: string) =>
  queryOptions({
    queryKey: deviceKey(tenantId, idOrGuid),
    queryFn: ({ signal }) => getDevice(idOrGuid, signal),
  });

export function useDevice(idOrGuid: string) {
  const user = useUser();
  return useQuery(getDeviceQueryOptions(user.tenant_id, idOrGuid));
}
