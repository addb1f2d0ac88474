import { useState } from 'react';
import type { ReactNode } from 'react';
import { Activity, Plus } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import {
  useDeleteMonitoringPolicy,
  useMonitoringPolicies,
  useSetMonitoringPolicyEnabled,
} from '../api/monitoring-policies';
import type { MonitoringPolicy } from '../api/monitoring-policies';
import { mayManageMonitoringPolicy } from '../lib/policy-access';
import { monitoringColumns } from './monitoring-columns';
import { MonitoringPolicyDialog } from './monitoring-policy-dialog';

// Policies → Monitoring (docs/product/monitoring.md#monitoring-policies): the list, the toggle,
// create, edit, delete. Members read it; administrators change it.
export function MonitoringPoliciesView({ tabs }: { tabs: ReactNode }) {
  const me = useUser();
  const toast = useToast();
  const query = useMonitoringPolicies();
  const toggle = useSetMonitoringPolicyEnabled();
  const remove = useDeleteMonitoringPolicy();
  const [editing, setEditing] = useState<MonitoringPolicy | null>(null);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<MonitoringPolicy | null>(null);
  const rows = query.data ?? [];
  const isAdmin = me.role === 'tenant_admin';

  const openDialog = (p: MonitoringPolicy | null) => {
    setEditing(p);
    setIsDialogOpen(true);
  };
  const onToggle = (p: MonitoringPolicy, enabled: boolean) =>
    toggle.mutate(
      { id: p.id, enabled },
      {
        onSuccess: () =>
          toast.show({
            type: 'success',
            title: enabled ? 'Monitoring policy enabled' : 'Monitoring policy disabled',
            message: p.name,
          }),
        onError: (err) =>
          toast.show({ type: 'error', title: 'Failed to change the policy', message: errorMessage(err, '') }),
      },
    );
  const confirmDelete = () => {
    if (!deleting) {
      return;
    }
    const name = deleting.name;
    remove.mutate(deleting.id, {
      onSuccess: () => toast.show({ type: 'success', title: 'Monitoring policy deleted', message: name }),
      onError: (err) =>
        toast.show({ type: 'error', title: 'Failed to delete the policy', message: errorMessage(err, '') }),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <>
      <PageHeader
        title="Policies"
        description="Watch devices: checks each device runs, and alerts when one stays offline."
        actions={
          isAdmin && (
            <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => openDialog(null)}>
              Create Monitoring Policy
            </Button>
          )
        }
      />
      {tabs}
      <Card>
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, 'Failed to load monitoring policies') : null}
          errorTitle="Failed to load monitoring policies"
          onRetry={() => void query.refetch()}
          isEmpty={rows.length === 0}
          loadingLabel="Loading monitoring policies"
          empty={{
            icon: <Activity className="size-6" />,
            title: 'No monitoring policies yet',
            message: isAdmin
              ? 'Create a monitoring policy to check CPU, disks, services or your own scripts on a site, a group or every device.'
              : 'An administrator creates monitoring policies: checks the devices run and their alerts.',
          }}
        >
          <DataTable
            cards
            rows={rows}
            rowAttributes={(p) => ({ 'data-monitoring-policy-id': p.id })}
            columns={monitoringColumns({
              mayManage: (p) => mayManageMonitoringPolicy(me, p),
              onToggle,
              onEdit: openDialog,
              onDelete: setDeleting,
            })}
          />
        </QueryState>
      </Card>
      {isDialogOpen && (
        <MonitoringPolicyDialog
          key={editing?.id ?? 'new'}
          policy={editing}
          onClose={() => setIsDialogOpen(false)}
        />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete monitoring policy"
        message={
          <p>
            Delete <strong>{deleting?.name}</strong>? Its checks stop on every device of its target, and their
            states are deleted with them.
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
