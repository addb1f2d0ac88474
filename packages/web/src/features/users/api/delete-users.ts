import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteUsersResponse } from '@outpost/contract/users';
import { api } from '../../../lib/api-client';
import { usersKey } from '../../../lib/api/users';
import { useUser } from '../../../lib/auth';

// docs/product/administration.md#calls — delete one user, or several in one call.

export const deleteUser = (id: number) => api.delete<DeleteUsersResponse>(`/customer/users/${id}`);
export const deleteUsers = (ids: number[]) =>
  api.delete<DeleteUsersResponse>('/customer/users', { user_ids: ids });

/** One id deletes one user; several use the bulk call. */
export function useDeleteUsers() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (ids: number[]) => (ids.length === 1 ? deleteUser(ids[0]!) : deleteUsers(ids)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey(user.tenant_id) }),
  });
}
