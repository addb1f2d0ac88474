import { useState } from 'react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Activity, Plus, Workflow } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { Tabs } from '../../../components/ui/tabs';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useDeletePolicy, usePolicies, useSetPolicyEnabled } from '../api/policies';
import type { Policy } from '../api/policies';
import { PolicyDialog } from '../components/policy-dialog';
import { policyColumns } from '../components/policy-columns';
import { mayManagePolicy } from '../lib/policy-access';
import { MonitoringPoliciesView } from '../components/monitoring-policies-view';

const TITLE = 'Policies';
const DESCRIPTION =
  'Deploy packages automatically: on a schedule in each site’s local time, or as devices join.';

type PolicyTab = 'automation' | 'monitoring';

// docs/product/device-sets.md#automation-policies: the list, the toggle, create, edit, delete.
// The Monitoring tab (?tab=monitoring) holds the monitoring policies (docs/product/monitoring.md).
export default function PoliciesPage() {
  const [params, setParams] = useSearchParams();
  const tab: PolicyTab = params.get('tab') === 'monitoring' ? 'monitoring' : 'automation';
  const tabs = (
    <div className="mb-6">
      <Tabs<PolicyTab>
        active={tab}
        onChange={(key) => setParams(key === 'automation' ? {} : { tab: key }, { replace: true })}
        tabs={[
          { key: 'automation', label: 'Automation', icon: <Workflow className="size-4" /> },
          { key: 'monitoring', label: 'Monitoring', icon: <Activity className="size-4" /> },
        ]}
      />
    </div>
  );
  return tab === 'monitoring' ? <MonitoringPoliciesView tabs={tabs} /> : <AutomationPolicies tabs={tabs} />;
}

function AutomationPolicies({ tabs }: { tabs: ReactNode }) {
  const me = useUser();
  const toast = useToast();
  const query = usePolicies();
  const toggle = useSetPolicyEnabled();
  const remove = useDeletePolicy();
  const [editing, setEditing] = useState<Policy | null>(null);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Policy | null>(null);
  const rows = query.data ?? [];

  const openDialog = (p: Policy | null) => {
    setEditing(p);
    setIsDialogOpen(true);
  };
  const onToggle = (p: Policy, enabled: boolean) =>
    toggle.mutate(
      { id: p.id, enabled },
      {
        onSuccess: () =>
          toast.show({
            type: 'success',
            title: enabled ? 'Policy enabled' : 'Policy disabled',
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
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.show({ type: 'success', title: 'Policy deleted', message: deleting.name });
        setDeleting(null);
      },
      onError: (err) => {
        toast.show({ type: 'error', title: 'Failed to delete the policy', message: errorMessage(err, '') });
        setDeleting(null);
      },
    });
  };

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => openDialog(null)}>
            Create Policy
          </Button>
        }
      />
      {tabs}
      <Card>
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, 'Failed to load policies') : null}
          errorTitle="Failed to load policies"
          onRetry={() => void query.refetch()}
          isEmpty={rows.length === 0}
          loadingLabel="Loading policies"
          empty={{
            icon: <Workflow className="size-6" />,
            title: 'No policies yet',
            message: 'Create a policy to deploy a package on a schedule or to each new device.',
          }}
        >
          <DataTable
            cards
            rows={rows}
            rowAttributes={(p) => ({ 'data-policy-id': p.id })}
            columns={policyColumns({
              mayManage: (p) => mayManagePolicy(me, p),
              onToggle,
              onEdit: openDialog,
              onDelete: setDeleting,
            })}
          />
        </QueryState>
      </Card>
      {isDialogOpen && (
        <PolicyDialog key={editing?.id ?? 'new'} policy={editing} onClose={() => setIsDialogOpen(false)} />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete policy"
        message={
          <p>
            Delete <strong>{deleting?.name}</strong>? It runs no more; the deployments it created stay in the
            history.
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
