import { useState } from 'react';
import { Pencil, Trash2, UserPlus, Users as UsersIcon } from 'lucide-react';
import type { Role } from '@outpost/contract/auth';
import { roleLabel } from '@outpost/contract/auth';
import { adminMessages } from '@outpost/contract/messages';
import { AdminFilterBar, AdminListFooter } from '../../../components/ui/admin-filter-bar';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Badge } from '../../../components/ui/badge';
import { BulkActionBar, DeleteSelectedButton } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { FilterSelect } from '../../../components/ui/list-toolbar';
import { Pager } from '../../../components/ui/pager';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteFlow } from '../../../lib/use-delete-flow';
import { useSiteOptions } from '../../../lib/api/devices';
import { useDeleteUsers, useUsers } from '../../../lib/api/users';
import type { TenantUser } from '../../../lib/api/users';
import { useUser } from '../../../lib/auth';
import { formatDateTime, initials, relativeDay } from '../../../lib/format';
import { useListState } from '../../../lib/use-list-state';
import { UserDialog } from '../components/user-dialog';
import { useOwnDeleteReason } from '../lib/own-account';
import { parseSiteIds } from '../lib/user-form';

const ROLE_OPTIONS: { value: Role | ''; label: string }[] = [
  { value: '', label: 'All Roles' },
  { value: 'tenant_admin', label: 'Admin' },
  { value: 'user', label: 'User' },
];

const TITLE = 'Users';
const DESCRIPTION = 'Invite people to your organization and choose what they can see.';

// spec: operations §2.6 Users, §2.9 filter bar, §5 User, §8, §9.
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
  const siteName = (id: number) => sites.find((s) => s.id === id);
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
  const isAllSelected = selectable.length > 0 && selectedRows.length === selectable.length;

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

  const siteAccessCell = (u: TenantUser) => {
    if (u.site_access_type === 'all') {
      return <span className="text-slate-600 dark:text-slate-300">All Sites</span>;
    }
    const ids = parseSiteIds(u.assigned_site_ids);
    if (ids.length === 0) {
      return <span className="text-slate-500 dark:text-slate-400">No sites</span>;
    }
    return (
      <div className="flex max-w-64 flex-wrap gap-1">
        {ids.map((id) => {
          const site = siteName(id);
          return (
            <Badge key={id} tone="gray" className="font-normal">
              <span title={site?.site_code}>{site ? site.site_name : `Site ${id}`}</span>
            </Badge>
          );
        })}
      </div>
    );
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
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, adminMessages.usersLoad) : null}
          errorTitle={adminMessages.usersLoad}
          onRetry={() => void query.refetch()}
          isEmpty={rows?.length === 0}
          loadingLabel="Loading users"
          empty={{
            icon: <UsersIcon className="size-6" />,
            title: 'No users found',
            message: list.hasActiveFilters
              ? 'Try adjusting your search or role filter.'
              : 'Add the people of your organization to give them access.',
          }}
        >
          <Table>
            <THead>
              <tr>
                <Th className="w-10">
                  <Checkbox
                    aria-label="Select all users"
                    checked={isAllSelected}
                    onChange={() => list.toggleAll(selectable.map((u) => u.id))}
                  />
                </Th>
                <Th sticky>User</Th>
                <Th>Role</Th>
                <Th>Site Access</Th>
                <Th>Created</Th>
                <Th className="text-right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows?.map((u) => (
                <Tr key={u.id} isSelected={list.isSelected(u.id)}>
                  <Td>
                    <Checkbox
                      aria-label={`Select ${u.email}`}
                      checked={u.id !== me.id && list.isSelected(u.id)}
                      disabled={u.id === me.id}
                      title={u.id === me.id ? ownDeleteReason : undefined}
                      onChange={() => list.toggle(u.id)}
                    />
                  </Td>
                  <Td sticky className="whitespace-nowrap">
                    <div className="flex items-center gap-3">
                      <span
                        aria-hidden
                        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700 dark:bg-indigo-500/20 dark:text-indigo-300"
                      >
                        {initials(u.name, u.email)}
                      </span>
                      <div className="min-w-0">
                        <div className="flex items-center gap-2 font-medium text-slate-900 dark:text-white">
                          {u.name || u.email}
                          {u.id === me.id && <Badge tone="indigo">You</Badge>}
                          {u.status === 'invited' && <Badge tone="yellow">Invited</Badge>}
                        </div>
                        <div className="text-xs text-slate-500 dark:text-slate-400">{u.email}</div>
                      </div>
                    </div>
                  </Td>
                  <Td>
                    <Badge tone={u.role === 'tenant_admin' ? 'purple' : 'gray'}>
                      {roleLabel(u.role, true)}
                    </Badge>
                  </Td>
                  <Td>{siteAccessCell(u)}</Td>
                  <Td className="whitespace-nowrap" title={formatDateTime(u.created_at)}>
                    {relativeDay(u.created_at)}
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Edit ${u.email}`}
                      icon={<Pencil className="size-3.5" />}
                      onClick={() => openDialog(u)}
                    />
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete ${u.email}`}
                      className="text-red-600 hover:text-red-700 dark:text-red-400"
                      icon={<Trash2 className="size-3.5" />}
                      disabled={u.id === me.id}
                      disabledReason={ownDeleteReason}
                      onClick={() => deletion.askOne(u)}
                    />
                  </Td>
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
      {isDialogOpen && (
        <UserDialog
          key={editing?.id ?? 'new'}
          user={editing}
          sites={sites}
          isLoadingSites={siteOptions.isPending}
          onClose={() => setIsDialogOpen(false)}
        />
      )}
      <ConfirmDialog
        isOpen={deletion.toDelete !== null}
        title={
          deletion.toDelete && deletion.toDelete.length > 1
            ? `Delete ${deletion.toDelete.length} users?`
            : 'Delete user?'
        }
        message={
          deletion.toDelete && (
            <p>
              {deletion.toDelete.length > 1
                ? `${deletion.toDelete.length} users lose access to ${me.tenant_name}.`
                : `${deletion.toDelete[0]!.name || deletion.toDelete[0]!.email} loses access to ${me.tenant_name}.`}{' '}
              Their past actions stay in the audit log.
            </p>
          )
        }
        confirmLabel="Delete"
        isBusy={deletion.isBusy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </>
  );
}
