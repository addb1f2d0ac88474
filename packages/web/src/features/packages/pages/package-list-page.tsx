import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  Copy,
  FileDown,
  FileUp,
  LayoutTemplate,
  MoreHorizontal,
  Package as PackageIcon,
  Plus,
} from 'lucide-react';
import { osTypeLabel } from '@outpost/contract/devices';
import { packageMessages as messages } from '@outpost/contract/messages';
import { TARGET_OSES } from '@outpost/contract/packages';
import type { PackageSummary, TargetOs } from '@outpost/contract/packages';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { StorageUsageLabel } from '../components/storage-usage';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { FilterSelect, ListFooter, ListToolbar } from '../../../components/ui/list-toolbar';
import { Menu, MenuItem } from '../../../components/ui/menu';
import { Spinner } from '../../../components/ui/spinner';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useListState } from '../../../lib/use-list-state';
import { useDeletePackage } from '../api/delete-package';
import { useDuplicatePackage } from '../api/duplicate-package';
import { useExportPackage } from '../api/export-package';
import { usePackages } from '../api/get-packages';
import type { PackageListParams } from '../api/get-packages';
import { useImportPackage } from '../api/import-package';
import { DeployButton } from '../components/deploy-button';
import { PackageRowActions } from '../components/package-row-actions';

// spec: operations §2.2 Package list, §5 (deploy without selection), §8 (load and delete errors).

/** spec §2.2 OS filter: Windows, and macOS marked as future (packages target Windows for now). */
const targetOsOptions = [
  { value: '' as const, label: 'All OS' },
  ...TARGET_OSES.map((os) => ({
    value: os,
    label: os === 'windows' ? osTypeLabel(os) : `${osTypeLabel(os)} (Future)`,
  })),
];

export default function PackageListPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const listState = useListState<{ targetOs: TargetOs | ''; isTemplate: '' | 'true' | 'false' }>({
    filters: { targetOs: '', isTemplate: '' },
  });
  const params: PackageListParams = {
    page: listState.page,
    limit: listState.pageSize,
    search: listState.searchTerm,
    ...listState.filters,
  };

  const list = usePackages(params);
  const rows = list.data?.data ?? [];
  const pagination = list.data?.pagination;
  const [toDelete, setToDelete] = useState<PackageSummary | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const remove = useDeletePackage();
  const duplicate = useDuplicatePackage();
  const exporter = useExportPackage();
  const importer = useImportPackage();
  const importInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Deployment Packages · Outpost';
  }, []);

  const hasFilters = listState.hasActiveFilters;
  const selected = listState.selected;
  const allOnPageSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));

  async function confirmDelete() {
    if (!toDelete) {
      return;
    }
    try {
      await remove.mutateAsync(toDelete.id);
      if (selected.has(toDelete.id)) {
        listState.toggle(toDelete.id);
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
    if (importInput.current) {
      importInput.current.value = '';
    }
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

  return (
    <>
      <PageHeader
        title="Deployment Packages"
        description={
          <>
            Software and configuration packages built from ordered installation steps.
            <span className="mt-1.5 block">
              <StorageUsageLabel />
            </span>
          </>
        }
        actions={
          <>
            <input
              ref={importInput}
              type="file"
              accept=".json,application/json"
              className="sr-only"
              aria-label="Import package file"
              onChange={(e) => void onImport(e.target.files?.[0])}
            />
            <Button
              icon={<FileUp className="size-4" />}
              isLoading={importer.isPending}
              onClick={() => importInput.current?.click()}
            >
              Import
            </Button>
            <Link
              to="/packages/builder"
              className="inline-flex h-9 items-center gap-2 rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              <Plus className="size-4" aria-hidden />
              Create Package
            </Link>
          </>
        }
      />

      {pageError && (
        <Alert className="mb-4">
          <div className="flex items-start justify-between gap-3">
            <span>{pageError}</span>
            <button
              type="button"
              className="text-xs font-medium underline"
              onClick={() => setPageError(null)}
            >
              Dismiss
            </button>
          </div>
        </Alert>
      )}

      <Card>
        <ListToolbar
          search={listState.search}
          onSearchChange={listState.setSearch}
          searchPlaceholder="Search packages..."
          hasActiveFilters={hasFilters}
          onClear={listState.clearFilters}
          filters={
            <>
              <FilterSelect
                label="Operating system"
                value={params.targetOs}
                onChange={(v) => listState.setFilter('targetOs', v)}
                options={targetOsOptions}
              />
              <FilterSelect
                label="Package type"
                value={params.isTemplate}
                onChange={(v) => listState.setFilter('isTemplate', v)}
                options={[
                  { value: '', label: 'All Types' },
                  { value: 'false', label: 'Packages' },
                  { value: 'true', label: 'Templates' },
                ]}
              />
              {list.isFetching && !list.isPending && <Spinner className="size-4 text-slate-400" />}
            </>
          }
        />

        <BulkActionBar
          count={selected.size}
          noun={['package', 'packages']}
          onClear={listState.clearSelection}
        >
          <DeployButton
            label="Deploy Selected"
            packages={rows.filter((r) => selected.has(r.id))}
            onNothingSelected={setPageError}
            onDeployed={listState.clearSelection}
          />
        </BulkActionBar>

        <QueryState
          isPending={list.isPending}
          failures={list}
          error={list.isError ? errorMessage(list.error, messages.packagesLoad) : null}
          errorTitle={messages.packagesLoad}
          onRetry={() => void list.refetch()}
          isEmpty={rows.length === 0}
          loadingLabel="Loading packages"
          empty={{
            icon: <PackageIcon className="size-6" />,
            title: messages.noPackagesFound,
            message: hasFilters
              ? 'Try another search or filter.'
              : 'Build your first package from installation steps.',
            action: !hasFilters && (
              <Button
                variant="primary"
                icon={<Plus className="size-4" />}
                onClick={() => void navigate('/packages/builder')}
              >
                Create Package
              </Button>
            ),
          }}
        >
          <Table>
            <THead>
              <tr>
                <Th className="w-10">
                  <Checkbox
                    aria-label="Select all packages on this page"
                    checked={allOnPageSelected}
                    onChange={() => listState.toggleAll(rows.map((r) => r.id))}
                  />
                </Th>
                <Th sticky>Package</Th>
                <Th>OS &amp; Type</Th>
                <Th>Steps &amp; Version</Th>
                <Th>Created</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((pkg) => (
                <Tr key={pkg.id} isSelected={selected.has(pkg.id)} data-testid="package-row">
                  <Td>
                    <Checkbox
                      aria-label={`Select ${pkg.name}`}
                      checked={selected.has(pkg.id)}
                      onChange={() => listState.toggle(pkg.id)}
                    />
                  </Td>
                  <Td sticky className="max-w-md">
                    <Link
                      to={`/packages/${pkg.id}/edit`}
                      className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
                    >
                      {pkg.name}
                    </Link>
                    {pkg.description && (
                      <p className="mt-0.5 line-clamp-2 text-xs text-slate-500 dark:text-slate-400">
                        {pkg.description}
                      </p>
                    )}
                  </Td>
                  <Td>
                    <div className="flex flex-col items-start gap-1">
                      <span className="text-sm">
                        {osTypeLabel(pkg.target_os)}{' '}
                        <span className="text-xs text-slate-500 dark:text-slate-400">{pkg.architecture}</span>
                      </span>
                      {pkg.is_template ? (
                        <Badge tone="purple">Template</Badge>
                      ) : (
                        <Badge tone="blue">Package</Badge>
                      )}
                    </div>
                  </Td>
                  <Td>
                    <div className="text-sm">
                      {pkg.step_count} step{pkg.step_count === 1 ? '' : 's'}
                    </div>
                    <div className="text-xs text-slate-500 dark:text-slate-400">v{pkg.package_version}</div>
                  </Td>
                  <Td>
                    <div className="text-sm whitespace-nowrap">{formatDate(pkg.created_at)}</div>
                    <div className="text-xs text-slate-500 dark:text-slate-400">
                      by {pkg.created_by_name ?? 'Unknown'}
                    </div>
                  </Td>
                  <Td>
                    <div className="flex items-center justify-end gap-1.5">
                      <PackageRowActions pkg={pkg} onDelete={setToDelete} />
                      <Menu
                        label={`More actions for ${pkg.name}`}
                        trigger={() => (
                          <span className="inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-700 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-200">
                            <MoreHorizontal className="size-4" aria-hidden />
                          </span>
                        )}
                      >
                        {(close) => (
                          <>
                            <MenuItem
                              icon={<Copy className="size-4" />}
                              onClick={() => {
                                close();
                                void onDuplicate(pkg, false);
                              }}
                            >
                              Duplicate
                            </MenuItem>
                            {!pkg.is_template && (
                              <MenuItem
                                icon={<LayoutTemplate className="size-4" />}
                                onClick={() => {
                                  close();
                                  void onDuplicate(pkg, true);
                                }}
                              >
                                Save as template
                              </MenuItem>
                            )}
                            <MenuItem
                              icon={<FileDown className="size-4" />}
                              onClick={() => {
                                close();
                                void onExport(pkg);
                              }}
                            >
                              Export JSON
                            </MenuItem>
                          </>
                        )}
                      </Menu>
                    </div>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </QueryState>

        {pagination && rows.length > 0 && (
          <ListFooter
            shown={rows.length}
            total={pagination.total}
            page={pagination.page}
            totalPages={pagination.totalPages}
            pageSize={params.limit}
            onPageChange={listState.setPage}
            onPageSizeChange={listState.setPageSize}
          />
        )}
      </Card>

      <ConfirmDialog
        isOpen={toDelete !== null}
        title="Delete package"
        message={toDelete ? messages.packageDeleteConfirm(toDelete.name) : ''}
        confirmLabel="Delete"
        isBusy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </>
  );
}
