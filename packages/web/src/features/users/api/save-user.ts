import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@outpost/contract/users';
import { api } from '../../../lib/api-client';
import { usersKey } from '../../../lib/api/users';
import type { UserSaveBody } from '../../../lib/api/users';
import { useUser } from '../../../lib/auth';

// docs/product/administration.md#calls — Add and Edit send the same fields.

export const createUser = (body: UserSaveBody) => api.post<User>('/customer/users', body);
export const updateUser = (id: number, body: UserSaveBody) => api.put<User>(`/customer/users/${id}`, body);

/** Create (no id) or update (an id) a user. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: UserSaveBody }) =>
      id === undefined ? createUser(body) : updateUser(id, body),
    // Editing yourself may change your own role or sites: the session is read again.
    onSuccess: (_saved, { id }) =>
      id === user.id ? queryClient.invalidateQueries({ queryKey: ['auth', 'profile'] }) : undefined,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey(user.tenant_id) }),
  });
}
