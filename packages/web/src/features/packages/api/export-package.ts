import { useMutation } from '@tanstack/react-query';
import type { PackageExportDocument } from '@outpost/contract/packages';
import { api } from '../../../lib/api-client';

export const exportPackage = (id: number) =>
  api.get<PackageExportDocument>(`/customer/deployment-packages/${id}/export`);

/** Fetches the export and hands it to the browser as a .json download. */
export async function downloadPackageExport(id: number): Promise<void> {
  const doc = await exportPackage(id);
  const blob = new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${doc.package.name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'package'}.outpost-package.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function useExportPackage() {
  return useMutation({ mutationFn: downloadPackageExport });
}
