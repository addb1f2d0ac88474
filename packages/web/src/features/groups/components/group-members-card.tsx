import { useState } from 'react';
import { Monitor, Plus } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { Card } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { ListToolbar } from '../../../components/ui/list-toolbar';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useListState } from '../../../lib/use-list-state';
import { useChangeMembers, useGroupMembers } from '../api/groups';
import type { GroupDetail, GroupMember } from '../api/groups';
import { AddDevicesDialog } from './add-devices-dialog';
import { memberColumns } from './member-columns';

/**
 * A group's members the user may see, paged and searchable (docs/product/device-sets.md#groups
 * "Members"); a static group's editors add devices and remove them, one or several at once.
 */
export function GroupMembersCard({ group: g }: { group: GroupDetail }) {
  const toast = useToast();
  const list = useListState<Record<string, never>>({ filters: {} });
  const members = useGroupMembers(g.id, {
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
  });
  const change = useChangeMembers(g.id);
  const [isAdding, setIsAdding] = useState(false);
  const [removing, setRemoving] = useState<GroupMember[] | null>(null);
  const canChangeMembers = g.kind === 'static' && g.can_edit;
  const selected = (members.data?.data ?? []).filter((m) => list.isSelected(m.id));

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
              onClick={() => setIsAdding(true)}
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
            ? { allLabel: 'Select all devices', rowLabel: (m) => `Select ${m.hostname ?? m.id}`, state: list }
            : undefined
        }
        rowAttributes={(m) => ({ 'data-member': m.hostname ?? String(m.id) })}
      />
      {isAdding && <AddDevicesDialog group={g} onClose={() => setIsAdding(false)} />}
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
    </Card>
  );
}
