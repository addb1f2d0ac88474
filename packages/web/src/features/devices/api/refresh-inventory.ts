import { useMutation } from '@tanstack/react-query';
import type { InventoryKind, RefreshResponse } from '@outpost/contract/devices';
import { api } from '../../../lib/api-client';

export const refreshInventory = ({ idOrGuid, kind }: { idOrGuid: string; kind: InventoryKind }) =>
  api.post<RefreshResponse>(`/customer/devices/${encodeURIComponent(idOrGuid)}/refresh/${kind}`);

/** Reloading the data is the caller's (docs/product/devices.md — after about 2 s). */
export function useRefreshInventory() {
  return useMutation({ mutationFn: refreshInventory });
}
