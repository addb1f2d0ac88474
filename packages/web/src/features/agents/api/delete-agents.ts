import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteDevicesResponse } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

export const deleteAgent = (id: number) => api.delete<DeleteDevicesResponse>(`/customer/devices/${id}`);
export const deleteAgents = (ids: number[]) =>
  api.delete<DeleteDevicesResponse>('/customer/devices', { device_ids: ids });

/** One id deletes one agent; several use the bulk call. */
export function useDeleteAgents() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (ids: number[]) => (ids.length === 1 ? deleteAgent(ids[0]!) : deleteAgents(ids)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}
