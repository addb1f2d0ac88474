import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  FleetSoftwareQuery,
  FleetSoftwareResponse,
  SoftwareDevicesQuery,
  SoftwareDevicesResponse,
} from '@outpost/contract/software';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/device-sets.md#fleet-software: the titles across the fleet and a title's devices.

export type { FleetSoftwareTitle, SoftwareDevice } from '@outpost/contract/software';

export type SoftwareFilters = FleetSoftwareQuery & { page: number; limit: number };
export type SoftwareDevicesFilters = SoftwareDevicesQuery & { page: number; limit: number };

export const softwareKey = (tenantId: number) => ['software', tenantId] as const;

export const getSoftware = (filters: SoftwareFilters, signal?: AbortSignal) =>
  api.get<FleetSoftwareResponse>('/customer/software', filters, signal);

export const getSoftwareQueryOptions = (tenantId: number, filters: SoftwareFilters) =>
  queryOptions({
    queryKey: [...softwareKey(tenantId), 'list', filters] as const,
    queryFn: ({ signal }) => getSoftware(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useSoftware(filters: SoftwareFilters) {
  const user = useUser();
  return useQuery(getSoftwareQueryOptions(user.tenant_id, filters));
}

export const getSoftwareDevices = (filters: SoftwareDevicesFilters, signal?: AbortSignal) =>
  api.get<SoftwareDevicesResponse>('/customer/software/devices', filters, signal);

export const getSoftwareDevicesQueryOptions = (tenantId: number, filters: SoftwareDevicesFilters) =>
  queryOptions({
    queryKey: [...softwareKey(tenantId), 'devices', filters] as const,
    queryFn: ({ signal }) => getSoftwareDevices(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useSoftwareDevices(filters: SoftwareDevicesFilters) {
  const user = useUser();
  return useQuery(getSoftwareDevicesQueryOptions(user.tenant_id, filters));
}
