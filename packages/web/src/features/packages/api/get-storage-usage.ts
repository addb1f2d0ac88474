import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorageUsage } from '@outpost/contract/files';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// GET /customer/files/usage: the organisation's uploads against its storage quota (SECURITY.md
// R2-14), shown where files are uploaded.

export const storageUsageKey = (tenantId: number) => ['files', tenantId, 'usage'] as const;

export const getStorageUsage = (signal?: AbortSignal) =>
  api.get<StorageUsage>('/customer/files/usage', undefined, signal);

export const getStorageUsageQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: storageUsageKey(tenantId),
    queryFn: ({ signal }) => getStorageUsage(signal),
  });

export function useStorageUsage() {
  const user = useUser();
  return useQuery(getStorageUsageQueryOptions(user.tenant_id));
}

/** After an upload or a delete: the usage shown is read again. */
export function useInvalidateStorageUsage() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: storageUsageKey(user.tenant_id) });
}
