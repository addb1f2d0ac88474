import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Boxes, Plus } from 'lucide-react';
import type { GroupKind } from '@outpost/contract/groups';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { FilterSelect, ListToolbar } from '../../../components/ui/list-toolbar';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeployDialog } from '../../../lib/deploy-dialog';
import { useListState } from '../../../lib/use-list-state';
import { getGroup, useDeleteGroup, useGroups } from '../api/groups';
import type { GroupDetail, GroupSummary } from '../api/groups';
import { GroupDialog } from '../components/group-dialog';
import { groupColumns } from '../components/group-columns';

const kindOptions = [
  { value: '' as const, label: 'All kinds' },
  { value: 'dynamic' as const, label: 'Dynamic' },
  { value: 'static' as const, label: 'Static' },
];

// docs/product/device-sets.md#groups: the groups the user may see, with their kind, owner and
// the number of their devices the user may see.
export default function GroupsPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { openDeployDialog } = useDeployDialog();
  const list = useListState<{ kind: GroupKind | '' }>({ filters: { kind: '' } });
  const query = useGroups({
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
    kind: list.filters.kind || undefined,
  });
  const [editing, setEditing] = useState<GroupDetail | null | 'new'>(null);
  const [deleting, setDeleting] = useState<GroupSummary | null>(null);
  const remove = useDeleteGroup();

  const edit = async (g: GroupSummary) => {
    try {
      setEditing(await getGroup(g.id));
    } catch (err) {
      toast.show({ type: 'error', title: 'Failed to load the group', message: errorMessage(err, '') });
    }
  };

  const confirmDelete = () => {
    if (!deleting) {
      return;
    }
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.show({ type: 'success', title: 'Group deleted', message: `${deleting.name} was deleted` });
        setDeleting(null);
      },
      onError: (err) => {
        toast.show({ type: 'error', title: 'Failed to delete the group', message: errorMessage(err, '') });
        setDeleting(null);
      },
    });
  };

  return (
    <>
      <PageHeader
        title="Groups"
        description="Sets of devices to deploy to and report on: chosen by hand, or kept up to date from conditions."
        actions={
          <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => setEditing('new')}>
            Create Group
          </Button>
        }
      />
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search groups..."
          hasActiveFilters={list.hasActiveFilters}
          onClear={list.clearFilters}
          filters={
            <FilterSelect
              label="Kind"
              value={list.filters.kind}
              options={kindOptions}
              onChange={(v) => list.setFilter('kind', v)}
            />
          }
        />
        <DataList
          query={query}
          paging={list}
          footer="list"
          cards
          errorFallback="Failed to load groups"
          errorTitle="Failed to load groups"
          loadingLabel="Loading groups"
          empty={{
            icon: <Boxes className="size-6" />,
            title: list.hasActiveFilters ? 'No groups found' : 'No groups yet',
            message: list.hasActiveFilters
              ? 'Try adjusting your search.'
              : 'Create a group to deploy to a set of devices at once.',
          }}
          columns={groupColumns({
            onEdit: (g) => void edit(g),
            onDelete: setDeleting,
            onDeploy: (g) => openDeployDialog({ group: { id: g.id, name: g.name } }),
          })}
          rowAttributes={(g) => ({ 'data-group': g.name })}
        />
      </Card>
      {editing !== null && (
        <GroupDialog
          key={editing === 'new' ? 'new' : editing.id}
          group={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(g) => {
            if (editing === 'new') {
              void navigate(`/groups/${g.id}`);
            }
          }}
        />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete group"
        message={
          <p>
            Delete <strong>{deleting?.name}</strong>? Its devices stay as they are; deployments made to it
            keep their devices.
          </p>
        }
        confirmLabel="Delete"
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
