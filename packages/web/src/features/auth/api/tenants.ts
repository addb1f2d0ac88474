import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SignInResult, TenantOption } from '@outpost/contract/auth';
import { api } from '../../../lib/api-client';
import { tokenStore } from '../../../lib/storage';

// The key holds the tenant the list was fetched for (STYLE.md: a key holds every argument).
export const getTenantsQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: ['auth', 'tenants', tenantId],
    queryFn: () => api.get<TenantOption[]>('/customer/auth/tenants'),
    staleTime: 5 * 60_000,
  });

export const useTenants = (tenantId: number) => useQuery(getTenantsQueryOptions(tenantId));

// docs/product/sign-in.md#organisations — the new token is stored and the page reloads.
export const switchTenant = (tenantId: number) =>
  api.post<SignInResult>('/customer/auth/switch-tenant', { tenant_id: tenantId });

export const useSwitchTenant = () =>
  useMutation({
    mutationFn: switchTenant,
    onSuccess: (result) => {
      tokenStore.set(result.token);
      window.location.reload();
    },
  });
