import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListData } from '@outpost/contract/envelope';
import type { Role, SiteAccessType } from '@outpost/contract/auth';
import { api } from '../api-client';
import { useUser } from '../auth';

// spec: operations §2.6 Users, §3 User, §7 Users. One fetcher, its query options and its hook
// per call; the users list is shared by the Users screen and the audit log's user filter.

export type TenantUser = {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  site_access_type: SiteAccessType | 'none';
  /** comma-separated site ids */
  assigned_site_ids: string | null;
  created_at: string;
};

export type UserSaveBody = {
  email: string;
  name: string;
  role: Role;
  site_access_type: SiteAccessType;
  site_ids: number[];
};

export type UserFilters = { page: number; limit: number; search?: string; role?: Role | '' };

export const usersKey = (tenantId: number) => ['users', tenantId] as const;

export const getUsers = (filters: UserFilters, signal?: AbortSignal) =>
  api.get<ListData<TenantUser>>('/customer/users', filters, signal);

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

export const createUser = (body: UserSaveBody) => api.post<TenantUser>('/customer/users', body);
export const updateUser = (id: number, body: UserSaveBody) =>
  api.put<TenantUser>(`/customer/users/${id}`, body);
export const deleteUser = (id: number) => api.delete<unknown>(`/customer/users/${id}`);
export const deleteUsers = (ids: number[]) => api.delete<unknown>('/customer/users', { user_ids: ids });

/** Create (no id) or update (an id) a user. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: UserSaveBody }) =>
      id === undefined ? createUser(body) : updateUser(id, body),
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
