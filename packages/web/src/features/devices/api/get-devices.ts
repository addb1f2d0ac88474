import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceListQuery, DeviceListResponse } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

export type DeviceFilters = {
  page: number;
  limit: number;
  search?: string;
  status?: DeviceListQuery['status'];
  os_type?: string;
  site_id?: number;
};

export const devicesKey = (tenantId: number) => ['devices', tenantId] as const;
export const deviceListKey = (tenantId: number, filters: DeviceFilters) =>
  [...devicesKey(tenantId), 'list', filters] as const;

export const getDevices = (filters: DeviceFilters, signal?: AbortSignal) =>
  api.get<DeviceListResponse>('/customer/devices', filters, signal);

export const getDevicesQueryOptions = (tenantId: number, filters: DeviceFilters) =>
  queryOptions({
    queryKey: deviceListKey(tenantId, filters),
    queryFn: ({ signal }) => getDevices(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useDevices(filters: DeviceFilters) {
  const user = useUser();
  return useQuery(getDevicesQueryOptions(user.tenant_id, filters));
}
