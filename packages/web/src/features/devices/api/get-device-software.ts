import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SoftwareListResponse } from '@outpost/contract/devices';
import { SOFTWARE_PAGE_SIZE } from '@outpost/contract/limits';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

export type SoftwareQuery = { page: number; search?: string };

export const deviceSoftwareKey = (tenantId: number, idOrGuid: string, q?: SoftwareQuery) =>
  q
    ? ([...devicesKey(tenantId), 'software', idOrGuid, q] as const)
    : ([...devicesKey(tenantId), 'software', idOrGuid] as const);

export const getDeviceSoftware = (idOrGuid: string, q: SoftwareQuery, signal?: AbortSignal) =>
  api.get<SoftwareListResponse>(
    `/customer/devices/${encodeURIComponent(idOrGuid)}/software`,
    { ...q, limit: SOFTWARE_PAGE_SIZE },
    signal,
  );

export const getDeviceSoftwareQueryOptions = (tenantId: number, idOrGuid: string, q: SoftwareQuery) =>
  queryOptions({
    queryKey: deviceSoftwareKey(tenantId, idOrGuid, q),
    queryFn: ({ signal }) => getDeviceSoftware(idOrGuid, q, signal),
    placeholderData: keepPreviousData,
  });

export function useDeviceSoftware(idOrGuid: string, q: SoftwareQuery) {
  const user = useUser();
  return useQuery(getDeviceSoftwareQueryOptions(user.tenant_id, idOrGuid, q));
}
