import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PackageDetail } from '@outpost/contract/packages';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { packagesKey } from './get-packages';

export class ImportFileError extends Error {}

/** Reads an export file and sends it; a file that is not JSON never reaches the server. */
export async function importPackage(file: File): Promise<PackageDetail> {
  let doc: unknown;
  try {
    doc = JSON.parse(await file.text());
  } catch {
    throw new ImportFileError(`${file.name} is not a JSON file.`);
  }
  return api.post<PackageDetail>('/customer/deployment-packages/import', doc);
}

export function useImportPackage() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: importPackage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: packagesKey(user.tenant_id) }),
  });
}
