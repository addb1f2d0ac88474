import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Pencil, Rocket, Trash2 } from 'lucide-react';
import { MaintenanceWindowsCard } from '../../../components/maintenance-windows/maintenance-windows-panel';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/card';
import { ExportButton } from '../../../components/ui/export-button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { PageSpinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeployDialog } from '../../../lib/deploy-dialog';
import { useDeleteGroup, useGroup } from '../api/groups';
import type { GroupDetail } from '../api/groups';
import { GroupConditions } from '../components/group-conditions';
import { KindBadge } from '../components/group-columns';
import { GroupDialog } from '../components/group-dialog';
import { GroupMembersCard } from '../components/group-members-card';

/** The group's kind, owner, member count and description, under its name. */
function GroupFacts({ group: g }: { group: GroupDetail }) {
  return (
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
  );
}

// docs/product/device-sets.md#groups: one group, its conditions, and its members the user may see.
export default function GroupDetailPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const toast = useToast();
  const { openDeployDialog } = useDeployDialog();
  const group = useGroup(id);
  const remove = useDeleteGroup();
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);

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
  const confirmDelete = () =>
    remove.mutate(g.id, {
      onSuccess: () => {
        toast.show({ type: 'success', title: 'Group deleted', message: `${g.name} was deleted` });
        void navigate('/groups');
      },
      onError: (err) => {
        toast.show({ type: 'error', title: 'Failed to delete the group', message: errorMessage(err, '') });
        setDialog(null);
      },
    });

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
        description={<GroupFacts group={g} />}
        actions={
          <>
            <Button
              icon={<Rocket className="size-4" />}
              onClick={() => openDeployDialog({ group: { id: g.id, name: g.name } })}
            >
              Deploy
            </Button>
            <ExportButton path={`/customer/groups/${g.id}/members`} filename={`group-${g.name}.csv`} />
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
      <GroupMembersCard group={g} />
      <MaintenanceWindowsCard
        owner={{ group_id: g.id }}
        timezone={g.site_id === null ? null : undefined}
        canEdit={g.can_edit}
      />
      {dialog === 'edit' && <GroupDialog group={g} onClose={() => setDialog(null)} />}
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
        onConfirm={confirmDelete}
      />
    </>
  );
}
