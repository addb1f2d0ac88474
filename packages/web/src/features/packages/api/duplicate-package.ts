import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PackageDetail, PackageDuplicateBody } from '@outpost/contract/packages';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { packagesKey } from './get-packages';

// Beyond the original product description: a copy with the same steps, or the same saved as a template.
export const duplicatePackage = ({ id, ...body }: PackageDuplicateBody & { id: number }) =>
  api.post<PackageDetail>(`/customer/deployment-packages/${id}/duplicate`, body);

export function useDuplicatePackage() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: duplicatePackage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: packagesKey(user.tenant_id) }),
  });
}
