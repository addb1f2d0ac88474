import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { FileUp, Package as PackageIcon, Plus } from 'lucide-react';
import { osTypeLabel } from '@outpost/contract/devices';
import { packageMessages as messages } from '@outpost/contract/messages';
import { TARGET_OSES } from '@outpost/contract/packages';
import type { TargetOs } from '@outpost/contract/packages';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { FilterSelect, ListToolbar } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { useListState } from '../../../lib/use-list-state';
import { usePackages } from '../api/get-packages';
import type { PackageListParams } from '../api/get-packages';
import { DeployButton } from '../components/deploy-button';
import { packageColumns } from '../components/package-columns';
import { StorageUsageLabel } from '../components/storage-usage';
import { usePackageListActions } from '../lib/use-package-list-actions';

// docs/product/packages.md#package-list Package list, #validation (deploy without selection), #saving (load and delete errors).

/** docs/product/packages.md#package-list OS filter: Windows, and macOS marked as future (packages target Windows for now). */
const targetOsOptions = [
  { value: '' as const, label: 'All OS' },
  ...TARGET_OSES.map((os) => ({
    value: os,
    label: os === 'windows' ? osTypeLabel(os) : `${osTypeLabel(os)} (Future)`,
  })),
];

export default function PackageListPage() {
  const navigate = useNavigate();
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
  const actions = usePackageListActions(listState);

  useEffect(() => {
    document.title = 'Deployment Packages · Outpost';
  }, []);

  const hasFilters = listState.hasActiveFilters;
  const selected = listState.selected;

  return (
    <>
      <PackageListHeader onImport={actions.importFile} isImporting={actions.isImporting} />

      {actions.pageError && (
        <Alert className="mb-4">
          <div className="flex items-start justify-between gap-3">
            <span>{actions.pageError}</span>
            <button
              type="button"
              className="text-xs font-medium underline"
              onClick={() => actions.setPageError(null)}
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
            onNothingSelected={actions.setPageError}
            onDeployed={listState.clearSelection}
          />
        </BulkActionBar>

        <DataList
          query={list}
          paging={listState}
          footer="list"
          errorFallback={messages.packagesLoad}
          errorTitle={messages.packagesLoad}
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
          columns={packageColumns({
            onDelete: actions.askDelete,
            onDuplicate: actions.duplicate,
            onExport: actions.exportJson,
          })}
          selection={{
            allLabel: 'Select all packages on this page',
            rowLabel: (pkg) => `Select ${pkg.name}`,
            state: listState,
          }}
          rowAttributes={() => ({ 'data-testid': 'package-row' })}
        />
      </Card>

      <ConfirmDialog
        isOpen={actions.toDelete !== null}
        title="Delete package"
        message={actions.toDelete ? messages.packageDeleteConfirm(actions.toDelete.name) : ''}
        confirmLabel="Delete"
        isBusy={actions.isDeleting}
        onConfirm={() => void actions.confirmDelete()}
        onCancel={actions.cancelDelete}
      />
    </>
  );
}

/** The title with the storage used, Import (a JSON file) and Create Package. */
function PackageListHeader({
  onImport,
  isImporting,
}: {
  onImport: (file: File | undefined) => void;
  isImporting: boolean;
}) {
  const importInput = useRef<HTMLInputElement>(null);
  return (
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
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              onImport(file);
            }}
          />
          <Button
            icon={<FileUp className="size-4" />}
            isLoading={isImporting}
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
  );
}
