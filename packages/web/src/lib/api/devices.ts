import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceListQuery, DeviceListResponse, SiteOption } from '@outpost/contract/devices';
import { api } from '../api-client';
import { useUser } from '../auth';

// The device list and the site options, shared by the screens that list devices (Devices, Agents;
// deployments' device picker next): one fetcher, one cache entry per tenant and filters.

export type DeviceFilters = {
  page: number;
  limit: number;
  search?: string;
  status?: DeviceListQuery['status'];
  os_type?: string;
  site_id?: number;
  // docs/product/device-sets.md#device-list-filters
  tag_id?: number;
  group_id?: number;
  field_key?: string;
  field_value?: string;
  field_op?: 'eq' | 'lt' | 'gt';
  /** custom fields to return with each row, comma-separated keys */
  fields?: string;
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

export const siteOptionsKey = (tenantId: number) => ['sites', tenantId, 'options'] as const;

export const getSiteOptions = (signal?: AbortSignal) =>
  api.get<SiteOption[]>('/customer/devices/sites/list', undefined, signal);

export const getSiteOptionsQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: siteOptionsKey(tenantId),
    queryFn: ({ signal }) => getSiteOptions(signal),
    staleTime: 60_000,
  });

export function useSiteOptions() {
  const user = useUser();
  return useQuery(getSiteOptionsQueryOptions(user.tenant_id));
}
