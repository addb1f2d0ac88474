import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PackageDetail } from '@outpost/contract/packages';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { packagesKey } from './get-packages';

export const getPackage = (id: number, signal?: AbortSignal) =>
  api.get<PackageDetail>(`/customer/deployment-packages/${id}`, undefined, signal);

export const getPackageQueryOptions = (tenantId: number, id: number) =>
  queryOptions({
    queryKey: [...packagesKey(tenantId), 'detail', id] as const,
    queryFn: ({ signal }) => getPackage(id, signal),
    // The builder edits a copy; it loads the package fresh each time it opens.
    staleTime: 0,
    gcTime: 0,
  });

export function usePackage(id: number | null) {
  const user = useUser();
  return useQuery({ ...getPackageQueryOptions(user.tenant_id, id ?? 0), enabled: id !== null });
}
