import { useState } from 'react';
import { UserPlus, Users as UsersIcon } from 'lucide-react';
import type { Role } from '@outpost/contract/auth';
import { adminMessages } from '@outpost/contract/messages';
import { AdminFilterBar } from '../../../components/ui/admin-filter-bar';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { BulkActionBar, DeleteSelectedButton } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { DeleteRowsDialog } from '../../../components/ui/delete-rows-dialog';
import { FilterSelect } from '../../../components/ui/list-toolbar';
import { useDeleteFlow } from '../../../lib/use-delete-flow';
import { useSiteOptions } from '../../../lib/api/devices';
import { useUsers } from '../../../lib/api/users';
import { useDeleteUsers } from '../api/delete-users';
import type { TenantUser } from '../../../lib/api/users';
import { useUser } from '../../../lib/auth';
import { useListState } from '../../../lib/use-list-state';
import { UserDialog } from '../components/user-dialog';
import { userColumns } from '../components/user-columns';
import { useOwnDeleteReason } from '../lib/own-account';

const ROLE_OPTIONS: { value: Role | ''; label: string }[] = [
  { value: '', label: 'All Roles' },
  { value: 'tenant_admin', label: 'Admin' },
  { value: 'user', label: 'User' },
];

const TITLE = 'Users';
const DESCRIPTION = 'Invite people to your organization and choose what they can see.';

// docs/product/administration.md#users Users, #admin-lists filter bar, #calls.
export default function UsersPage() {
  const me = useUser();
  if (me.role !== 'tenant_admin') {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <AdminOnlyState feature="User management" />
      </>
    );
  }
  return <UsersAdmin />;
}

function UsersAdmin() {
  const me = useUser();
  const list = useListState<{ role: Role | '' }>({ filters: { role: '' } });
  const query = useUsers({
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
    role: list.filters.role || undefined,
  });
  const ownDeleteReason = useOwnDeleteReason();
  const siteOptions = useSiteOptions();
  const sites = siteOptions.data ?? [];
  const [editing, setEditing] = useState<TenantUser | null>(null);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const deletion = useDeleteFlow({
    remove: useDeleteUsers(),
    plural: 'users',
    success: (res, rows: TenantUser[]) => ({
      title: rows.length > 1 ? 'Users deleted' : 'User deleted',
      message:
        rows.length > 1
          ? adminMessages.usersDeleted(res.deleted)
          : `${rows[0]!.name || rows[0]!.email} was removed from ${me.tenant_name}`,
    }),
    onDeleted: list.clearSelection,
  });

  const rows = query.data?.data;
  // Your own row cannot be selected or deleted here (see useOwnDeleteReason).
  const selectable = (rows ?? []).filter((u) => u.id !== me.id);
  const selectedRows = selectable.filter((u) => list.isSelected(u.id));

  if (query.isError && isForbidden(query.error)) {
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <AdminOnlyState feature="User management" />
      </>
    );
  }

  const openDialog = (user: TenantUser | null) => {
    setEditing(user);
    setIsDialogOpen(true);
  };

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          <Button variant="primary" icon={<UserPlus className="size-4" />} onClick={() => openDialog(null)}>
            Add User
          </Button>
        }
      />
      <Card>
        <AdminFilterBar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search by name or email..."
          pageSize={list.pageSize}
          onPageSizeChange={list.setPageSize}
          onClear={list.hasActiveFilters ? list.clearFilters : undefined}
          filters={
            <FilterSelect
              label="Role"
              value={list.filters.role}
              onChange={(v) => list.setFilter('role', v)}
              options={ROLE_OPTIONS}
              className="sm:w-36"
            />
          }
        />
        <BulkActionBar count={selectedRows.length} noun={['user', 'users']} onClear={list.clearSelection}>
          <DeleteSelectedButton count={selectedRows.length} onClick={() => deletion.askBulk(selectedRows)} />
        </BulkActionBar>
        <DataList
          query={query}
          paging={list}
          footer="admin"
          errorFallback={adminMessages.usersLoad}
          errorTitle={adminMessages.usersLoad}
          loadingLabel="Loading users"
          empty={{
            icon: <UsersIcon className="size-6" />,
            title: 'No users found',
            message: list.hasActiveFilters
              ? 'Try adjusting your search or role filter.'
              : 'Add the people of your organization to give them access.',
          }}
          columns={userColumns({
            meId: me.id,
            sites,
            ownDeleteReason,
            onEdit: openDialog,
            onDelete: deletion.askOne,
          })}
          selection={{
            allLabel: 'Select all users',
            rowLabel: (u) => `Select ${u.email}`,
            state: list,
            canSelect: (u) => u.id !== me.id,
            rowTitle: (u) => (u.id === me.id ? ownDeleteReason : undefined),
          }}
        />
      </Card>
      {isDialogOpen && (
        <UserDialog
          key={editing?.id ?? 'new'}
          user={editing}
          sites={sites}
          isLoadingSites={siteOptions.isPending}
          onClose={() => setIsDialogOpen(false)}
        />
      )}
      <DeleteRowsDialog
        flow={deletion}
        noun={['user', 'users']}
        message={(rows) => (
          <p>
            {rows.length > 1
              ? `${rows.length} users lose access to ${me.tenant_name}.`
              : `${rows[0]!.name || rows[0]!.email} loses access to ${me.tenant_name}.`}{' '}
            Their past actions stay in the audit log.
          </p>
        )}
      />
    </>
  );
}
