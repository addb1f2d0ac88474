import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiToken, CreateApiTokenBody, CreatedApiToken } from '@outpost/contract/api-tokens';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/administration.md#api-tokens: the tenant's API tokens (administrators only).

export const apiTokensKey = (tenantId: number) => ['api-tokens', tenantId] as const;

export const getApiTokens = (signal?: AbortSignal) =>
  api.get<ApiToken[]>('/customer/api-tokens', undefined, signal);

export const getApiTokensQueryOptions = (tenantId: number) =>
  queryOptions({ queryKey: apiTokensKey(tenantId), queryFn: ({ signal }) => getApiTokens(signal) });

export function useApiTokens() {
  const user = useUser();
  return useQuery(getApiTokensQueryOptions(user.tenant_id));
}

export const createApiToken = (body: CreateApiTokenBody) =>
  api.post<CreatedApiToken>('/customer/api-tokens', body);

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensKey(user.tenant_id) }),
  });
}

export const revokeApiToken = (id: number) => api.delete<ApiToken>(`/customer/api-tokens/${id}`);

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensKey(user.tenant_id) }),
  });
}
