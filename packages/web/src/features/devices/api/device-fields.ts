import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkFieldValuesBody,
  BulkFieldValuesResponse,
  DeviceFieldsResponse,
  FieldValuesBody,
} from '@outpost/contract/custom-fields';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

// docs/product/device-sets.md#custom-fields: one device's fields, setting them, and the bulk set
// from the device list's selection.

export const deviceFieldsKey = (tenantId: number, idOrGuid: string) =>
  [...devicesKey(tenantId), 'fields', idOrGuid] as const;

export const getDeviceFields = (idOrGuid: string, signal?: AbortSignal) =>
  api.get<DeviceFieldsResponse>(
    `/customer/devices/${encodeURIComponent(idOrGuid)}/fields`,
    undefined,
    signal,
  );

export const getDeviceFieldsQueryOptions = (tenantId: number, idOrGuid: string) =>
  queryOptions({
    queryKey: deviceFieldsKey(tenantId, idOrGuid),
    queryFn: ({ signal }) => getDeviceFields(idOrGuid, signal),
  });

export function useDeviceFields(idOrGuid: string) {
  const user = useUser();
  return useQuery(getDeviceFieldsQueryOptions(user.tenant_id, idOrGuid));
}

export const setDeviceFields = (idOrGuid: string, values: FieldValuesBody) =>
  api.put<DeviceFieldsResponse>(`/customer/devices/${encodeURIComponent(idOrGuid)}/fields`, values);

export function useSetDeviceFields(idOrGuid: string) {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (values: FieldValuesBody) => setDeviceFields(idOrGuid, values),
    onSuccess: (data) => queryClient.setQueryData(deviceFieldsKey(user.tenant_id, idOrGuid), data),
    // the list may show field columns: refresh the devices too
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}

export const bulkSetFields = (body: BulkFieldValuesBody) =>
  api.post<BulkFieldValuesResponse>('/customer/devices/fields', body);

export function useBulkSetFields() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: bulkSetFields,
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}
