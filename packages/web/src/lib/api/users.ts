import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UserCreateBody, UserListQuery, UserListResponse } from '@outpost/contract/users';
import { api } from '../api-client';
import { useUser } from '../auth';

// docs/product/administration.md#users Users, #fields, #calls. The users list, shared by the Users screen and
// the audit log's user filter; saving and deleting users live in the users feature.

export type { User as TenantUser } from '@outpost/contract/users';
/** The Add and Edit dialogs send every field (docs/product/administration.md#calls: the same fields for both). */
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
