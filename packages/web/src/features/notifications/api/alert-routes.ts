import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertRoute, AlertRouteBody } from '@outpost/contract/alerts';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// Routing rules (docs/product/monitoring.md#routing-rules): administrators of all sites.

const routesKey = (tenantId: number) => ['alert-routes', tenantId] as const;

export function useAlertRoutes() {
  const user = useUser();
  return useQuery({
    queryKey: routesKey(user.tenant_id),
    queryFn: ({ signal }) => api.get<{ data: AlertRoute[] }>('/customer/alert-routes', undefined, signal),
    select: (r) => r.data,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: routesKey(user.tenant_id) });
}

export function useSaveAlertRoute() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: AlertRouteBody }) =>
      id === null
        ? api.post<AlertRoute>('/customer/alert-routes', body)
        : api.put<AlertRoute>(`/customer/alert-routes/${id}`, body),
    onSettled: invalidate,
  });
}

export function useDeleteAlertRoute() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number }>(`/customer/alert-routes/${id}`),
    onSettled: invalidate,
  });
}
