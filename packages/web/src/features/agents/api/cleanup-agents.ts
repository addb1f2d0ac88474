import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CleanupBody, CleanupPlan, CleanupResult } from '@outpost/contract/device-cleanup';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { devicesKey } from '../../../lib/api/devices';

export const cleanupAgents = (body: CleanupBody) =>
  api.post<CleanupResult>('/customer/devices/cleanup', body);

/** What a cleanup would do, before the administrator confirms it (changes nothing). */
export const previewCleanup = (body: CleanupBody) =>
  api.post<CleanupPlan>('/customer/devices/cleanup/preview', body);

export function useCleanupAgents() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: cleanupAgents,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
  });
}

/** A preview is asked for on demand and never cached: each one reads the fleet as it is now. */
export function useCleanupPreview() {
  return useMutation({ mutationFn: previewCleanup });
}
