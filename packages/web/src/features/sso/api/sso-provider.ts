import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SsoProviderBody, SsoProviderResponse } from '@outpost/contract/sso';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// The organisation's own single sign-on provider (docs/product/sign-in.md#the-sso-screen):
// administrators of all sites read and change it; the secret is never answered.

export const ssoProviderKey = (tenantId: number) => ['sso-provider', tenantId] as const;

export const getSsoProviderQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: ssoProviderKey(tenantId),
    queryFn: ({ signal }) => api.get<SsoProviderResponse>('/customer/sso-provider', undefined, signal),
    retry: (count, err) => (err as { status?: number }).status !== 403 && count < 2,
  });

export function useSsoProvider() {
  const user = useUser();
  return useQuery(getSsoProviderQueryOptions(user.tenant_id));
}

export function useSaveSsoProvider() {
  const user = useUser();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoProviderBody) => api.put<SsoProviderResponse>('/customer/sso-provider', body),
    onSuccess: (saved) => client.setQueryData(ssoProviderKey(user.tenant_id), saved),
  });
}

export function useDeleteSsoProvider() {
  const user = useUser();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ deleted: true }>('/customer/sso-provider'),
    onSuccess: () => client.invalidateQueries({ queryKey: ssoProviderKey(user.tenant_id) }),
  });
}
