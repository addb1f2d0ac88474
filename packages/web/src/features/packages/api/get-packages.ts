import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListData } from '@outpost/contract/envelope';
import type { PackageSummary, TargetOs } from '@outpost/contract/packages';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

export type PackageListParams = {
  page: number;
  limit: number;
  search: string;
  targetOs: TargetOs | '';
  /** '' = all types, 'false' = packages, 'true' = templates (docs/product/packages.md#calls: true, false or omitted). */
  isTemplate: '' | 'true' | 'false';
};

export const packagesKey = (tenantId: number) => ['packages', tenantId] as const;

export const getPackages = (params: PackageListParams, signal?: AbortSignal) =>
  api.get<ListData<PackageSummary>>(
    '/customer/deployment-packages',
    {
      page: params.page,
      limit: params.limit,
      search: params.search.trim(),
      target_os: params.targetOs,
      is_template: params.isTemplate,
    },
    signal,
  );

// The key holds every argument the fetcher sends, the tenant included (STYLE.md, Fleet).
export const getPackagesQueryOptions = (tenantId: number, params: PackageListParams) =>
  queryOptions({
    queryKey: [...packagesKey(tenantId), 'list', params] as const,
    queryFn: ({ signal }) => getPackages(params, signal),
    placeholderData: keepPreviousData,
  });

export function usePackages(params: PackageListParams) {
  const user = useUser();
  return useQuery(getPackagesQueryOptions(user.tenant_id, params));
}
