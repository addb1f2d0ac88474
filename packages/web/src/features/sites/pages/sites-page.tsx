import { useState } from 'react';
import { Building2, MapPin, Pencil, Plus, Trash2 } from 'lucide-react';
import { adminMessages } from '@outpost/contract/messages';
import { timezoneLabel } from '@outpost/contract/sites';
import { AdminFilterBar, AdminListFooter } from '../../../components/ui/admin-filter-bar';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Alert } from '../../../components/ui/alert';
import { BulkActionBar, DeleteSelectedButton } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { Pager } from '../../../components/ui/pager';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteFlow } from '../../../lib/use-delete-flow';
import { useDeleteSites, useSites } from '../../../lib/api/sites';
import type { Site } from '../../../lib/api/sites';
import { useUser } from '../../../lib/auth';
import { formatDateTime, relativeDay } from '../../../lib/format';
import { useListState } from '../../../lib/use-list-state';
import { SiteDialog } from '../components/site-dialog';
import { deleteSitesMessage, deletedSitesMessage } from '../lib/site-delete';

const TITLE = 'Sites';
const DESCRIPTION = 'The locations your devices belong to, and the sites users can be limited to.';

// spec: operations §2.8 Sites, §2.9 filter bar, §5 Site, §8, §9.
export default function SitesPage() {
  const me = useUser();
  const isAdmin = me.role === 'tenant_admin';
  const list = useListState<Record<string, never>>({ filters: {} });
  const query = useSites({ page: list.page, limit: list.pageSize, search: list.searchTerm || undefined });
  const [editing, setEditing] = useState<Site | null>(null);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const deletion = useDeleteFlow({
    remove: useDeleteSites(),
    plural: 'sites',
    success: (res, rows: Site[]) => ({
      title: rows.length > 1 ? 'Sites deleted' : 'Site deleted',
      message: deletedSitesMessage(res),
    }),
    onDeleted: list.clearSelection,
  });

  const rows = query.data?.data;
  const selectedRows = (rows ?? []).filter((s) => list.isSelected(s.id));
  const isAllSelected = Boolean(rows?.length) && selectedRows.length === rows?.length;

  if (query.isError && isForbidden(query.error)) {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <AdminOnlyState feature="Site management" />
      </>
    );
  }

  const openDialog = (site: Site | null) => {
    setEditing(site);
    setIsDialogOpen(true);
  };

  const location = (s: Site) => [s.city, s.state, s.country].filter(Boolean).join(', ');

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          isAdmin && (
            <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => openDialog(null)}>
              Create Site
            </Button>
          )
        }
      />
      {!isAdmin && (
        <Alert tone="info" className="mb-4">
          <strong className="font-semibold">Administrators only:</strong> you can see your sites, but only an
          administrator can create, edit or delete them.
        </Alert>
      )}
      <Card>
        <AdminFilterBar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search by name, code or city..."
          pageSize={list.pageSize}
          onPageSizeChange={list.setPageSize}
          onClear={list.hasActiveFilters ? list.clearFilters : undefined}
        />
        {isAdmin && (
          <BulkActionBar count={selectedRows.length} noun={['site', 'sites']} onClear={list.clearSelection}>
            <DeleteSelectedButton
              count={selectedRows.length}
              onClick={() => deletion.askBulk(selectedRows)}
            />
          </BulkActionBar>
        )}
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, adminMessages.sitesLoad) : null}
          errorTitle={adminMessages.sitesLoad}
          onRetry={() => void query.refetch()}
          isEmpty={rows?.length === 0}
          loadingLabel="Loading sites"
          empty={{
            icon: <Building2 className="size-6" />,
            title: 'No sites found',
            message: list.hasActiveFilters
              ? 'Try adjusting your search.'
              : 'Create a site to group your devices by location.',
          }}
        >
          <Table>
            <THead>
              <tr>
                {isAdmin && (
                  <Th className="w-10">
                    <Checkbox
                      aria-label="Select all sites"
                      checked={isAllSelected}
                      onChange={() => list.toggleAll((rows ?? []).map((s) => s.id))}
                    />
                  </Th>
                )}
                <Th sticky>Site</Th>
                <Th>Code</Th>
                <Th>Location</Th>
                <Th>Timezone</Th>
                <Th className="text-right">Devices</Th>
                <Th>Created</Th>
                {isAdmin && (
                  <Th className="text-right">
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </tr>
            </THead>
            <TBody>
              {rows?.map((s) => (
                <Tr key={s.id} isSelected={list.isSelected(s.id)}>
                  {isAdmin && (
                    <Td>
                      <Checkbox
                        aria-label={`Select ${s.site_name}`}
                        checked={list.isSelected(s.id)}
                        onChange={() => list.toggle(s.id)}
                      />
                    </Td>
                  )}
                  <Td sticky>
                    <div className="font-medium whitespace-nowrap text-slate-900 dark:text-white">
                      {s.site_name}
                    </div>
                    {s.description && (
                      <div
                        title={s.description}
                        className="mt-0.5 max-w-72 truncate text-xs text-slate-500 dark:text-slate-400"
                      >
                        {s.description}
                      </div>
                    )}
                  </Td>
                  <Td>
                    <span className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                      {s.site_code}
                    </span>
                  </Td>
                  <Td className="whitespace-nowrap">
                    {location(s) ? (
                      <span className="inline-flex items-center gap-1.5">
                        <MapPin className="size-3.5 text-slate-400" aria-hidden />
                        {location(s)}
                      </span>
                    ) : (
                      <span className="text-slate-400 dark:text-slate-500">—</span>
                    )}
                  </Td>
                  <Td className="whitespace-nowrap">
                    {s.timezone ? (
                      <span title={s.timezone}>{timezoneLabel(s.timezone)}</span>
                    ) : (
                      <span className="text-slate-400 dark:text-slate-500">—</span>
                    )}
                  </Td>
                  <Td className="text-right tabular-nums">{s.device_count ?? 0}</Td>
                  <Td className="whitespace-nowrap" title={formatDateTime(s.created_at)}>
                    {relativeDay(s.created_at)}
                  </Td>
                  {isAdmin && (
                    <Td className="text-right whitespace-nowrap">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Edit ${s.site_name}`}
                        icon={<Pencil className="size-3.5" />}
                        onClick={() => openDialog(s)}
                      />
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Delete ${s.site_name}`}
                        className="text-red-600 hover:text-red-700 dark:text-red-400"
                        icon={<Trash2 className="size-3.5" />}
                        onClick={() => deletion.askOne(s)}
                      />
                    </Td>
                  )}
                </Tr>
              ))}
            </TBody>
          </Table>
        </QueryState>
        {rows && rows.length > 0 && (
          <AdminListFooter
            page={list.page}
            pageSize={list.pageSize}
            shown={rows.length}
            total={query.data?.pagination.total ?? 0}
            pager={
              <Pager
                page={list.page}
                totalPages={query.data?.pagination.totalPages ?? 1}
                onPageChange={list.setPage}
              />
            }
          />
        )}
      </Card>
      {isAdmin && isDialogOpen && (
        <SiteDialog key={editing?.id ?? 'new'} site={editing} onClose={() => setIsDialogOpen(false)} />
      )}
      <ConfirmDialog
        isOpen={deletion.toDelete !== null}
        title={
          deletion.toDelete && deletion.toDelete.length > 1
            ? `Delete ${deletion.toDelete.length} sites?`
            : 'Delete site?'
        }
        message={deletion.toDelete && <p>{deleteSitesMessage(deletion.toDelete)}</p>}
        confirmLabel="Delete"
        isBusy={deletion.isBusy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </>
  );
}
