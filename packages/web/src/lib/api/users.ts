import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeleteUsersResponse,
  User,
  UserCreateBody,
  UserListQuery,
  UserListResponse,
} from '@outpost/contract/users';
import { api } from '../api-client';
import { useUser } from '../auth';

// spec: operations §2.6 Users, §3 User, §7 Users. One fetcher, its query options and its hook
// per call; the users list is shared by the Users screen and the audit log's user filter.

export type { User as TenantUser } from '@outpost/contract/users';
/** The Add and Edit dialogs send every field (spec §7: the same fields for both). */
export type UserSaveBody = UserCreateBody;

export type UserFilters = UserListQuery & { page: number; limit: number };

export const usersKey = (tenantId: number) => ['users', tenantId] as const;

export const getUsers = (filters: UserFilters, signal?: AbortSignal) =>
  api.get<UserListResponse>('/customer/users', filters, signal);

export const getUsersQueryOptions = (tenantId: number, filters: UserFilters) =>
  queryOptions({
    queryKey: [...usersKey(tenantId), 'list', filters] as const,
    queryFn: ({ signal }) => getUsers(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useUsers(filters: UserFilters, options: { enabled?: boolean } = {}) {
  const user = useUser();
  return useQuery({ ...getUsersQueryOptions(user.tenant_id, filters), enabled: options.enabled ?? true });
}

export const createUser = (body: UserSaveBody) => api.post<User>('/customer/users', body);
export const updateUser = (id: number, body: UserSaveBody) => api.put<User>(`/customer/users/${id}`, body);
export const deleteUser = (id: number) => api.delete<DeleteUsersResponse>(`/customer/users/${id}`);
export const deleteUsers = (ids: number[]) =>
  api.delete<DeleteUsersResponse>('/customer/users', { user_ids: ids });

/** Create (no id) or update (an id) a user. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: UserSaveBody }) =>
      id === undefined ? createUser(body) : updateUser(id, body),
    // Editing yourself may change your own role or sites: the session is read again.
    onSuccess: (_saved, { id }) =>
      id === user.id ? queryClient.invalidateQueries({ queryKey: ['auth', 'profile'] }) : undefined,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey(user.tenant_id) }),
  });
}

/** One id deletes one user; several use the bulk call. */
export function useDeleteUsers() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (ids: number[]) => (ids.length === 1 ? deleteUser(ids[0]!) : deleteUsers(ids)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey(user.tenant_id) }),
  });
}
