import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PackageListResponse } from '@outpost/contract/packages';
import type { Policy, PolicyCreateBody, PolicyDetail } from '@outpost/contract/policies';
import { ApiError, api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/device-sets.md#automation-policies: /api/customer/policies, and the packages and
// groups the dialog offers.

export type { Policy, PolicyDetail } from '@outpost/contract/policies';

export const policiesKey = (tenantId: number) => ['policies', tenantId] as const;

export function usePolicies() {
  const user = useUser();
  return useQuery(
    queryOptions({
      queryKey: [...policiesKey(user.tenant_id), 'list'] as const,
      queryFn: ({ signal }) => api.get<Policy[]>('/customer/policies', undefined, signal),
    }),
  );
}

export function usePolicy(id: number) {
  const user = useUser();
  return useQuery({
    queryKey: [...policiesKey(user.tenant_id), 'detail', id] as const,
    queryFn: ({ signal }) => api.get<PolicyDetail>(`/customer/policies/${id}`, undefined, signal),
  });
}

function useInvalidatePolicies() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: policiesKey(user.tenant_id) });
}

/** Create (no id) or update (an id) a policy. */
export function useSavePolicy() {
  const invalidate = useInvalidatePolicies();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: PolicyCreateBody }) =>
      id === undefined
        ? api.post<PolicyDetail>('/customer/policies', body)
        : api.put<PolicyDetail>(`/customer/policies/${id}`, body),
    onSettled: invalidate,
  });
}

export function useSetPolicyEnabled() {
  const invalidate = useInvalidatePolicies();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      api.post<PolicyDetail>(`/customer/policies/${id}/${enabled ? 'enable' : 'disable'}`, {}),
    onSettled: invalidate,
  });
}

export function useDeletePolicy() {
  const invalidate = useInvalidatePolicies();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number }>(`/customer/policies/${id}`),
    onSettled: invalidate,
  });
}

export type GroupOption = { id: number; name: string };

/**
 * The groups a policy may target, from GET /customer/groups; null when the server offers no
 * groups (the dialog then hides the group target).
 */
async function getGroupOptions(signal?: AbortSignal): Promise<GroupOption[] | null> {
  try {
    const res = await api.get<unknown>('/customer/groups', { page: 1, limit: 100 }, signal);
    const rows = Array.isArray(res) ? res : ((res as { data?: unknown }).data ?? []);
    return (Array.isArray(rows) ? rows : []).flatMap((g: unknown) => {
      const row = g as { id?: unknown; name?: unknown };
      return typeof row.id === 'number' && typeof row.name === 'string'
        ? [{ id: row.id, name: row.name }]
        : [];
    });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
      return null;
    }
    throw err;
  }
}

/** The packages and groups the policy dialog offers. */
export function usePolicyOptions() {
  const user = useUser();
  return useQuery({
    queryKey: [...policiesKey(user.tenant_id), 'options'] as const,
    queryFn: async ({ signal }) => {
      const [packages, groups] = await Promise.all([
        api.get<PackageListResponse>('/customer/deployment-packages', { page: 1, limit: 100 }, signal),
        getGroupOptions(signal),
      ]);
      return { packages: packages.data, groups };
    },
    staleTime: 0,
    retry: false,
  });
}
