import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeleteSitesResponse,
  Site,
  SiteCreateBody,
  SiteListQuery,
  SiteListResponse,
} from '@outpost/contract/sites';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

// docs/product/administration.md#sites Sites, #fields, #calls.

export type { Site } from '@outpost/contract/sites';
export type SiteSaveBody = SiteCreateBody;

export type SiteFilters = SiteListQuery & { page: number; limit: number };

export const sitesKey = (tenantId: number) => ['sites', tenantId] as const;

export const getSites = (filters: SiteFilters, signal?: AbortSignal) =>
  api.get<SiteListResponse>('/customer/sites', filters, signal);

export const getSitesQueryOptions = (tenantId: number, filters: SiteFilters) =>
  queryOptions({
    queryKey: [...sitesKey(tenantId), 'list', filters] as const,
    queryFn: ({ signal }) => getSites(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useSites(filters: SiteFilters) {
  const user = useUser();
  return useQuery(getSitesQueryOptions(user.tenant_id, filters));
}

export const createSite = (body: SiteSaveBody) => api.post<Site>('/customer/sites', body);
export const updateSite = (id: number, body: SiteSaveBody) => api.put<Site>(`/customer/sites/${id}`, body);
export const deleteSite = (id: number) => api.delete<DeleteSitesResponse>(`/customer/sites/${id}`);
export const deleteSites = (ids: number[]) =>
  api.delete<DeleteSitesResponse>('/customer/sites', { site_ids: ids });

// Sites name devices and fill the site pickers: a change refreshes those too. The site options'
// key sits under sitesKey, so invalidating sitesKey covers it.
function useInvalidateSites() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sitesKey(user.tenant_id) }),
      queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
    ]);
}

/** Create (no id) or update (an id) a site. */
export function useSaveSite() {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: SiteSaveBody }) =>
      id === undefined ? createSite(body) : updateSite(id, body),
    onSettled: invalidate,
  });
}

/** One id deletes one site; several use the bulk call. */
export function useDeleteSites() {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: (ids: number[]) => (ids.length === 1 ? deleteSite(ids[0]!) : deleteSites(ids)),
    onSettled: invalidate,
  });
}
