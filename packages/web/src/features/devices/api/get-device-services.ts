import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Service } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

export const deviceServicesKey = (tenantId: number, idOrGuid: string) =>
  [...devicesKey(tenantId), 'services', idOrGuid] as const;

export const getDeviceServices = (idOrGuid: string, signal?: AbortSignal) =>
  api.get<Service[]>(`/customer/devices/${encodeURIComponent(idOrGuid)}/services`, undefined, signal);

export const getDeviceServicesQueryOptions = (tenantId: number, idOrGuid: string) =>
  queryOptions({
    queryKey: deviceServicesKey(tenantId, idOrGuid),
    queryFn: ({ signal }) => getDeviceServices(idOrGuid, signal),
  });

export function useDeviceServices(idOrGuid: string) {
  const user = useUser();
  return useQuery(getDeviceServicesQueryOptions(user.tenant_id, idOrGuid));
}
