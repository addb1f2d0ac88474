import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileUpdateBody, SessionUser } from '@outpost/contract/auth';
import { api } from '../../../lib/api-client';
import { profileQueryKey } from '../../../lib/auth';
import { tokenStore } from '../../../lib/storage';

export const updateProfile = (body: ProfileUpdateBody) =>
  api.put<SessionUser>('/customer/auth/profile', body);

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => queryClient.setQueryData(profileQueryKey(tokenStore.get()), user),
  });
}
