import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GroupCreateBody,
  GroupDetail,
  GroupListQuery,
  GroupListResponse,
  GroupMembersChangeResponse,
  GroupMembersQuery,
  GroupMembersResponse,
  GroupPreviewBody,
  GroupPreviewResponse,
  GroupUpdateBody,
} from '@outpost/contract/groups';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/device-sets.md#groups "Calls": the groups, one group, its members, the live preview.

export type { GroupDetail, GroupSummary, GroupMember } from '@outpost/contract/groups';

export type GroupFilters = GroupListQuery & { page: number; limit: number };
export type MemberFilters = GroupMembersQuery & { page: number; limit: number };

export const groupsKey = (tenantId: number) => ['groups', tenantId] as const;

export const getGroups = (filters: GroupFilters, signal?: AbortSignal) =>
  api.get<GroupListResponse>('/customer/groups', filters, signal);
export const getGroup = (id: number, signal?: AbortSignal) =>
  api.get<GroupDetail>(`/customer/groups/${id}`, undefined, signal);
export const getMembers = (id: number, filters: MemberFilters, signal?: AbortSignal) =>
  api.get<GroupMembersResponse>(`/customer/groups/${id}/members`, filters, signal);
export const previewGroup = (body: GroupPreviewBody) =>
  api.post<GroupPreviewResponse>('/customer/groups/preview', body);

export const getGroupsQueryOptions = (tenantId: number, filters: GroupFilters) =>
  queryOptions({
    queryKey: [...groupsKey(tenantId), 'list', filters] as const,
    queryFn: ({ signal }) => getGroups(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useGroups(filters: GroupFilters) {
  const user = useUser();
  return useQuery(getGroupsQueryOptions(user.tenant_id, filters));
}

export function useGroup(id: number) {
  const user = useUser();
  return useQuery({
    queryKey: [...groupsKey(user.tenant_id), 'detail', id] as const,
    queryFn: ({ signal }) => getGroup(id, signal),
  });
}

export function useGroupMembers(id: number, filters: MemberFilters) {
  const user = useUser();
  return useQuery({
    queryKey: [...groupsKey(user.tenant_id), 'members', id, filters] as const,
    queryFn: ({ signal }) => getMembers(id, filters, signal),
    placeholderData: keepPreviousData,
  });
}

/** The live preview of a filter (debounced by the caller); off while the filter is incomplete. */
export function useGroupPreview(body: GroupPreviewBody | null) {
  const user = useUser();
  return useQuery({
    queryKey: [...groupsKey(user.tenant_id), 'preview', body] as const,
    queryFn: () => previewGroup(body!),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

function useInvalidateGroups() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: groupsKey(user.tenant_id) });
}

/** Create (no id) or update (an id) a group. */
export function useSaveGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (input: { id?: number; body: GroupCreateBody | GroupUpdateBody }) =>
      input.id === undefined
        ? api.post<GroupDetail>('/customer/groups', input.body)
        : api.put<GroupDetail>(`/customer/groups/${input.id}`, input.body),
    onSettled: invalidate,
  });
}

export function useDeleteGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/customer/groups/${id}`),
    onSettled: invalidate,
  });
}

/** Add devices to, or remove them from, a static group. */
export function useChangeMembers(id: number) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ action, deviceIds }: { action: 'add' | 'remove'; deviceIds: number[] }) =>
      (action === 'add' ? api.post : api.delete)<GroupMembersChangeResponse>(
        `/customer/groups/${id}/members`,
        {
          device_ids: deviceIds,
        },
      ),
    onSettled: invalidate,
  });
}
