import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Monitor, Pencil, Plus, Rocket, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ListToolbar } from '../../../components/ui/list-toolbar';
import { PageSpinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeployDialog } from '../../../lib/deploy-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useChangeMembers, useDeleteGroup, useGroup, useGroupMembers } from '../api/groups';
import type { GroupMember } from '../api/groups';
import { AddDevicesDialog } from '../components/add-devices-dialog';
import { GroupConditions } from '../components/group-conditions';
import { KindBadge } from '../components/group-columns';
import { GroupDialog } from '../components/group-dialog';
import { memberColumns } from '../components/member-columns';

// docs/product/device-sets.md#groups: one group, its conditions, and its members the user may see.
export default function GroupDetailPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const toast = useToast();
  const { openDeployDialog } = useDeployDialog();
  const group = useGroup(id);
  const list = useListState<Record<string, never>>({ filters: {} });
  const members = useGroupMembers(id, {
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
  });
  const change = useChangeMembers(id);
  const remove = useDeleteGroup();
  const [dialog, setDialog] = useState<'edit' | 'add' | 'delete' | null>(null);
  const [removing, setRemoving] = useState<GroupMember[] | null>(null);

  if (group.isPending) {
    return <PageSpinner label="Loading group" />;
  }
  if (group.isError) {
    return (
      <ErrorState
        title="Group not available"
        message={errorMessage(group.error, 'Failed to load the group')}
        onRetry={() => void group.refetch()}
      />
    );
  }
  const g = group.data;
  const canChangeMembers = g.kind === 'static' && g.can_edit;
  const rows = members.data?.data ?? [];
  const selected = rows.filter((m) => list.isSelected(m.id));

  const confirmRemove = () => {
    if (!removing) {
      return;
    }
    change.mutate(
      { action: 'remove', deviceIds: removing.map((m) => m.id) },
      {
        onSuccess: (res) => {
          toast.show({
            type: 'success',
            title: 'Devices removed',
            message: `${res.changed} removed from ${g.name}`,
          });
          list.clearSelection();
          setRemoving(null);
        },
        onError: (err) => {
          toast.show({ type: 'error', title: 'Failed to remove', message: errorMessage(err, '') });
          setRemoving(null);
        },
      },
    );
  };

  return (
    <>
      <Link
        to="/groups"
        className="mb-3 inline-flex items-center gap-1.5 text-sm text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200"
      >
        <ArrowLeft className="size-4" aria-hidden /> Groups
      </Link>
      <PageHeader
        title={g.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <KindBadge kind={g.kind} />
            <span>{g.site_name ?? 'All sites'}</span>
            <span aria-hidden>·</span>
            <span data-testid="group-member-count">
              {g.member_count.toLocaleString()} device{g.member_count === 1 ? '' : 's'}
            </span>
            {g.description && (
              <>
                <span aria-hidden>·</span>
                <span>{g.description}</span>
              </>
            )}
          </span>
        }
        actions={
          <>
            <Button
              icon={<Rocket className="size-4" />}
              onClick={() => openDeployDialog({ group: { id: g.id, name: g.name } })}
            >
              Deploy
            </Button>
            {g.can_edit && (
              <>
                <Button icon={<Pencil className="size-4" />} onClick={() => setDialog('edit')}>
                  Edit
                </Button>
                <Button
                  variant="danger"
                  icon={<Trash2 className="size-4" />}
                  onClick={() => setDialog('delete')}
                >
                  Delete
                </Button>
              </>
            )}
          </>
        }
      />
      {g.kind === 'dynamic' && g.filter && <GroupConditions group={g} />}
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search hostname, IP or serial..."
          actions={
            canChangeMembers && (
              <Button
                variant="primary"
                size="sm"
                icon={<Plus className="size-4" />}
                onClick={() => setDialog('add')}
              >
                Add devices
              </Button>
            )
          }
        />
        {canChangeMembers && (
          <BulkActionBar count={selected.length} noun={['device', 'devices']} onClear={list.clearSelection}>
            <Button size="sm" variant="danger" onClick={() => setRemoving(selected)}>
              Remove from group
            </Button>
          </BulkActionBar>
        )}
        <DataList
          query={members}
          paging={list}
          footer="list"
          cards
          errorFallback="Failed to load the members"
          errorTitle="Failed to load the members"
          loadingLabel="Loading members"
          empty={{
            icon: <Monitor className="size-6" />,
            title: list.searchTerm ? 'No devices found' : 'No devices in this group',
            message: list.searchTerm
              ? 'Try adjusting your search.'
              : g.kind === 'dynamic'
                ? 'No device matches the conditions now; devices join as soon as they do.'
                : 'Add devices to this group to act on them together.',
          }}
          columns={memberColumns({ onRemove: canChangeMembers ? (m) => setRemoving([m]) : undefined })}
          selection={
            canChangeMembers
              ? {
                  allLabel: 'Select all devices',
                  rowLabel: (m) => `Select ${m.hostname ?? m.id}`,
                  state: list,
                }
              : undefined
          }
          rowAttributes={(m) => ({ 'data-member': m.hostname ?? String(m.id) })}
        />
      </Card>
      {dialog === 'edit' && <GroupDialog group={g} onClose={() => setDialog(null)} />}
      {dialog === 'add' && <AddDevicesDialog group={g} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        isOpen={dialog === 'delete'}
        title="Delete group"
        message={
          <p>
            Delete <strong>{g.name}</strong>? Its devices stay as they are.
          </p>
        }
        confirmLabel="Delete"
        isBusy={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          remove.mutate(g.id, {
            onSuccess: () => {
              toast.show({ type: 'success', title: 'Group deleted', message: `${g.name} was deleted` });
              void navigate('/groups');
            },
            onError: (err) => {
              toast.show({
                type: 'error',
                title: 'Failed to delete the group',
                message: errorMessage(err, ''),
              });
              setDialog(null);
            },
          })
        }
      />
      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove from group"
        message={
          <p>
            Remove{' '}
            {removing?.length === 1 ? (
              <strong>{removing[0]?.hostname}</strong>
            ) : (
              `${removing?.length} devices`
            )}{' '}
            from <strong>{g.name}</strong>?
          </p>
        }
        confirmLabel="Remove"
        isBusy={change.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
      />
    </>
  );
}
