import { useState } from 'react';
import { Building2, Plus } from 'lucide-react';
import { adminMessages } from '@outpost/contract/messages';
import { AdminFilterBar } from '../../../components/ui/admin-filter-bar';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Alert } from '../../../components/ui/alert';
import { BulkActionBar, DeleteSelectedButton } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { DeleteRowsDialog } from '../../../components/ui/delete-rows-dialog';
import { useDeleteFlow } from '../../../lib/use-delete-flow';
import { useUser } from '../../../lib/auth';
import { useListState } from '../../../lib/use-list-state';
import { useDeleteSites, useSites } from '../api/sites';
import type { Site } from '../api/sites';
import { SiteDialog } from '../components/site-dialog';
import { siteColumns } from '../components/site-columns';
import { SiteMaintenanceDialog } from '../components/site-maintenance-dialog';
import { SiteWindowsDialog } from '../components/site-windows-dialog';
import { deleteSitesMessage, deletedSitesMessage } from '../lib/site-delete';

const TITLE = 'Sites';
const DESCRIPTION = 'The locations your devices belong to, and the sites users can be limited to.';

// docs/product/administration.md#sites Sites, #admin-lists filter bar, #calls.
export default function SitesPage() {
  const me = useUser();
  const isAdmin = me.role === 'tenant_admin';
  const list = useListState<Record<string, never>>({ filters: {} });
  const query = useSites({ page: list.page, limit: list.pageSize, search: list.searchTerm || undefined });
  const [editing, setEditing] = useState<Site | null>(null);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [windowsOf, setWindowsOf] = useState<Site | null>(null);
  const [maintenanceOf, setMaintenanceOf] = useState<Site | null>(null);
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
        <DataList
          query={query}
          paging={list}
          footer="admin"
          errorFallback={adminMessages.sitesLoad}
          errorTitle={adminMessages.sitesLoad}
          loadingLabel="Loading sites"
          empty={{
            icon: <Building2 className="size-6" />,
            title: 'No sites found',
            message: list.hasActiveFilters
              ? 'Try adjusting your search.'
              : 'Create a site to group your devices by location.',
          }}
          columns={siteColumns({
            isAdmin,
            onEdit: openDialog,
            onDelete: deletion.askOne,
            onWindows: setWindowsOf,
            onMaintenance: isAdmin ? setMaintenanceOf : undefined,
          })}
          selection={
            isAdmin
              ? { allLabel: 'Select all sites', rowLabel: (s) => `Select ${s.site_name}`, state: list }
              : undefined
          }
        />
      </Card>
      {isAdmin && isDialogOpen && (
        <SiteDialog key={editing?.id ?? 'new'} site={editing} onClose={() => setIsDialogOpen(false)} />
      )}
      {windowsOf && (
        <SiteWindowsDialog site={windowsOf} canEdit={isAdmin} onClose={() => setWindowsOf(null)} />
      )}
      <SiteMaintenanceDialog site={maintenanceOf} onClose={() => setMaintenanceOf(null)} />
      <DeleteRowsDialog
        flow={deletion}
        noun={['site', 'sites']}
        message={(rows) => <p>{deleteSitesMessage(rows)}</p>}
      />
    </>
  );
}
