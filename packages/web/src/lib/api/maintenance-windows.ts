import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceWindow, MaintenanceWindowBody } from '@outpost/contract/maintenance-windows';
import { api } from '../api-client';
import { useUser } from '../auth';

// Maintenance windows (docs/product/rollouts.md#maintenance-windows) of a site (the Sites page)
// or a group (the group page): one cache entry per owner.

export type { MaintenanceWindow, MaintenanceWindowBody } from '@outpost/contract/maintenance-windows';

/** Whose windows: a site's or a group's. */
export type WindowOwner = { site_id: number } | { group_id: number };

export const windowsKey = (tenantId: number) => ['maintenance-windows', tenantId] as const;

export function useMaintenanceWindows(owner: WindowOwner) {
  const user = useUser();
  return useQuery({
    queryKey: [...windowsKey(user.tenant_id), owner] as const,
    queryFn: ({ signal }) => api.get<MaintenanceWindow[]>('/customer/maintenance-windows', owner, signal),
  });
}

export function useSaveMaintenanceWindow() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: MaintenanceWindowBody }) =>
      id === undefined
        ? api.post<MaintenanceWindow>('/customer/maintenance-windows', body)
        : api.put<MaintenanceWindow>(`/customer/maintenance-windows/${id}`, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: windowsKey(user.tenant_id) }),
  });
}

export function useDeleteMaintenanceWindow() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number }>(`/customer/maintenance-windows/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: windowsKey(user.tenant_id) }),
  });
}
