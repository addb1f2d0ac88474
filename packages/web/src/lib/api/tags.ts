import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeviceTag,
  DeviceTagsBulkBody,
  DeviceTagsBulkResponse,
  Tag,
  TagCreateBody,
  TagUpdateBody,
} from '@outpost/contract/tags';
import { api } from '../api-client';
import { useUser } from '../auth';
import { devicesKey } from './devices';

// Tags (docs/product/device-sets.md#tags), shared by the device list, the device detail and the
// Tags page: one cache entry per tenant for the tag list, one per device for its tags.

export type { DeviceTag, Tag } from '@outpost/contract/tags';

export const tagsKey = (tenantId: number) => ['tags', tenantId] as const;
export const deviceTagsKey = (tenantId: number, deviceId: number | string) =>
  [...devicesKey(tenantId), 'tags', String(deviceId)] as const;

export const getTags = (signal?: AbortSignal) => api.get<Tag[]>('/customer/tags', undefined, signal);

export const getTagsQueryOptions = (tenantId: number) =>
  queryOptions({ queryKey: tagsKey(tenantId), queryFn: ({ signal }) => getTags(signal), staleTime: 30_000 });

export function useTags() {
  const user = useUser();
  return useQuery(getTagsQueryOptions(user.tenant_id));
}

export function useDeviceTags(deviceId: number | string | undefined) {
  const user = useUser();
  return useQuery({
    queryKey: deviceTagsKey(user.tenant_id, deviceId ?? ''),
    queryFn: ({ signal }) => api.get<DeviceTag[]>(`/customer/devices/${deviceId}/tags`, undefined, signal),
    enabled: deviceId !== undefined,
  });
}

/** A tag change shows in the tag list, its counts and every device list. */
function useInvalidateTags() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: tagsKey(user.tenant_id) }),
      queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
    ]);
}

export function useCreateTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (body: TagCreateBody) => api.post<Tag>('/customer/tags', body),
    onSettled: invalidate,
  });
}

export function useUpdateTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TagUpdateBody }) =>
      api.put<Tag>(`/customer/tags/${id}`, body),
    onSettled: invalidate,
  });
}

export function useDeleteTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number; devices_untagged: number }>(`/customer/tags/${id}`),
    onSettled: invalidate,
  });
}

/** Adds and removes tags on the given devices. */
export function useBulkTagDevices() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (body: DeviceTagsBulkBody) =>
      api.post<DeviceTagsBulkResponse>('/customer/devices/tags', body),
    onSettled: invalidate,
  });
}
