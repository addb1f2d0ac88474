import { useState } from 'react';
import { packageMessages as messages } from '@outpost/contract/messages';
import type { PackageSummary } from '@outpost/contract/packages';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeletePackage } from '../api/delete-package';
import { useDuplicatePackage } from '../api/duplicate-package';
import { useExportPackage } from '../api/export-package';
import { useImportPackage } from '../api/import-package';

/**
 * What the package list does to its packages (docs/product/packages.md#package-list, #saving): delete after a
 * confirmation (a failure shows on the page), duplicate, save as template, export and import
 * (each said in a toast).
 */
export function usePackageListActions(selection: {
  selected: ReadonlySet<number>;
  toggle: (id: number) => void;
}) {
  const toast = useToast();
  const [toDelete, setToDelete] = useState<PackageSummary | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const remove = useDeletePackage();
  const duplicate = useDuplicatePackage();
  const exporter = useExportPackage();
  const importer = useImportPackage();

  async function confirmDelete() {
    if (!toDelete) {
      return;
    }
    try {
      await remove.mutateAsync(toDelete.id);
      if (selection.selected.has(toDelete.id)) {
        selection.toggle(toDelete.id);
      }
      toast.show({ type: 'success', title: 'Package deleted', message: toDelete.name });
      setPageError(null);
    } catch (err) {
      setPageError(messages.packageDeleteFailed(err instanceof Error ? err.message : undefined));
    }
    setToDelete(null);
  }

  async function onDuplicate(pkg: PackageSummary, asTemplate: boolean) {
    try {
      const copy = await duplicate.mutateAsync({ id: pkg.id, ...(asTemplate && { is_template: true }) });
      toast.show({
        type: 'success',
        title: asTemplate ? 'Saved as template' : 'Package duplicated',
        message: copy.name,
      });
    } catch (err) {
      toast.show({
        type: 'error',
        title: 'Could not copy the package',
        message: errorMessage(err, ''),
      });
    }
  }

  async function onExport(pkg: PackageSummary) {
    try {
      await exporter.mutateAsync(pkg.id);
    } catch (err) {
      toast.show({ type: 'error', title: 'Export failed', message: errorMessage(err, '') });
    }
  }

  async function onImport(file: File | undefined) {
    if (!file) {
      return;
    }
    try {
      const created = await importer.mutateAsync(file);
      toast.show({ type: 'success', title: 'Package imported', message: created.name });
    } catch (err) {
      toast.show({ type: 'error', title: 'Import failed', message: errorMessage(err, '') });
    }
  }

  return {
    toDelete,
    askDelete: setToDelete,
    cancelDelete: () => setToDelete(null),
    confirmDelete,
    isDeleting: remove.isPending,
    pageError,
    setPageError,
    duplicate: (pkg: PackageSummary, asTemplate: boolean) => void onDuplicate(pkg, asTemplate),
    exportJson: (pkg: PackageSummary) => void onExport(pkg),
    /** the file chosen for Import (none when the choice was cancelled) */
    importFile: (file: File | undefined) => void onImport(file),
    isImporting: importer.isPending,
  };
}
