import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CleanupBody, CleanupResult } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

export const cleanupAgents = (body: CleanupBody) =>
  api.post<CleanupResult>('/customer/devices/cleanup', body);

export function useCleanupAgents() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: cleanupAgents,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}
