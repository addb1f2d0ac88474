import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RemoteAccessUpdate, RemoteAccessView } from '@outpost/contract/remote-access';
import { api } from '../api-client';
import { useUser } from '../auth';

// Remote access settings (docs/product/remote-access.md#settings): every member reads them (the
// device detail shows its Files and Terminal tabs by them); the settings page changes them.

export const remoteAccessKey = (tenantId: number) => ['remote-access', tenantId] as const;

export const remoteAccessQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: remoteAccessKey(tenantId),
    queryFn: ({ signal }) => api.get<RemoteAccessView>('/customer/settings/remote-access', undefined, signal),
    staleTime: 30_000,
  });

export function useRemoteAccess() {
  const user = useUser();
  return useQuery(remoteAccessQueryOptions(user.tenant_id));
}

export function useSaveRemoteAccess() {
  const user = useUser();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: RemoteAccessUpdate) =>
      api.put<RemoteAccessView>('/customer/settings/remote-access', update),
    onSuccess: (saved) => client.setQueryData(remoteAccessKey(user.tenant_id), saved),
  });
}

/** Whether the caller may use file transfer (the Files tab): the switch is on and their role allowed. */
export function useMayMoveFiles(): boolean {
  const { data } = useRemoteAccess();
  return Boolean(data?.files_enabled && data.caller_allowed);
}
