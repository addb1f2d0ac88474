import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { packagesKey } from './get-packages';

export const deletePackage = (id: number) =>
  api.delete<{ message: string }>(`/customer/deployment-packages/${id}`);

export function useDeletePackage() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: deletePackage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: packagesKey(user.tenant_id) }),
  });
}
