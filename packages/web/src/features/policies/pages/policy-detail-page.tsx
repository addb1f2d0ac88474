import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Pencil, Rocket, Workflow } from 'lucide-react';
import { policyMessages } from '@outpost/contract/policies';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { usePolicy, useSetPolicyEnabled } from '../api/policies';
import type { PolicyDetail } from '../api/policies';
import { EnabledToggle } from '../components/enabled-toggle';
import { PolicyDialog } from '../components/policy-dialog';
import { TargetLabel, TriggerLabel } from '../components/policy-columns';
import { PolicyJobsTable } from '../components/policy-jobs-table';
import { mayManagePolicy } from '../lib/policy-access';

// docs/product/device-sets.md#automation-policies: a policy's settings, its next run in each time
// zone its devices are in, and the deployments it created.

function BackLink() {
  return (
    <Link
      to="/policies"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Back to policies
    </Link>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm text-slate-900 sm:col-span-2 dark:text-slate-100">{children}</dd>
    </div>
  );
}

function Details({ policy }: { policy: PolicyDetail }) {
  const me = useUser();
  const toast = useToast();
  const toggle = useSetPolicyEnabled();
  const [isEditing, setIsEditing] = useState(false);
  const mayManage = mayManagePolicy(me, policy);
  const onToggle = (enabled: boolean) =>
    toggle.mutate(
      { id: policy.id, enabled },
      {
        onError: (err) =>
          toast.show({ type: 'error', title: 'Failed to change the policy', message: errorMessage(err, '') }),
      },
    );
  return (
    <>
      <BackLink />
      <PageHeader
        title={policy.name}
        description={policy.description ?? undefined}
        actions={
          <>
            <span className="mr-1 inline-flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
              <EnabledToggle
                name={policy.name}
                isEnabled={policy.enabled}
                isDisabled={!mayManage || toggle.isPending}
                onChange={onToggle}
              />
              {policy.enabled ? 'Enabled' : 'Disabled'}
            </span>
            {mayManage && (
              <Button icon={<Pencil className="size-4" />} onClick={() => setIsEditing(true)}>
                Edit
              </Button>
            )}
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-1">
          <CardHeader title="Settings" />
          <dl className="divide-y divide-slate-100 px-5 py-1 dark:divide-slate-800">
            <Row label="Target">
              <TargetLabel target={policy.target} />
            </Row>
            <Row label="Package">{policy.package_name ?? 'Package deleted'}</Row>
            <Row label="Trigger">
              <TriggerLabel policy={policy} />
            </Row>
            <Row label="Active since">{policy.active_since ? formatDateTime(policy.active_since) : '—'}</Row>
            <Row label="Last run">{policy.last_run_at ? formatDateTime(policy.last_run_at) : 'Not yet'}</Row>
            {policy.trigger === 'schedule' && (
              <Row label="Next run">
                {policy.next_runs.length === 0 ? (
                  '—'
                ) : (
                  <ul className="space-y-1">
                    {policy.next_runs.map((n) => (
                      <li key={n.time_zone}>
                        {formatDateTime(n.next_run_at)}{' '}
                        <span className="text-xs text-slate-500 dark:text-slate-400">({n.time_zone})</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Row>
            )}
            <Row label="Created by">{policy.created_by_name ?? '—'}</Row>
          </dl>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader title="Deployments created" description="The most recent 50, newest first." />
          {policy.jobs.length === 0 ? (
            <EmptyState
              icon={<Rocket className="size-6" />}
              title="No deployments yet"
              message="Deployments appear here when the policy runs."
            />
          ) : (
            <PolicyJobsTable jobs={policy.jobs} />
          )}
        </Card>
      </div>
      {isEditing && <PolicyDialog policy={policy} onClose={() => setIsEditing(false)} />}
    </>
  );
}

export default function PolicyDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const query = usePolicy(id);
  const isNotFound =
    !Number.isInteger(id) || id <= 0 || (query.error instanceof ApiError && query.error.status === 404);

  useEffect(() => {
    document.title = `${query.data?.name ?? 'Policy'} · Outpost`;
  }, [query.data?.name]);

  if (isNotFound) {
    return (
      <>
        <BackLink />
        <Card>
          <EmptyState
            icon={<Workflow className="size-6" />}
            title={policyMessages.notFound}
            message="It may have been deleted, or it belongs to another organization."
          />
        </Card>
      </>
    );
  }
  if (query.isPending) {
    return <PageSpinner label="Loading policy..." />;
  }
  if (query.isError) {
    return (
      <>
        <BackLink />
        <Card>
          <ErrorState
            title="Failed to load the policy"
            message={errorMessage(query.error, 'Failed to load the policy')}
            onRetry={() => void query.refetch()}
          />
        </Card>
      </>
    );
  }
  return <Details policy={query.data} />;
}
