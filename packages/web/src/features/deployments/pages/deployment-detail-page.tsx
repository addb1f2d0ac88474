import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, RefreshCw, Rocket, XCircle } from 'lucide-react';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { DismissibleAlert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { ExportButton } from '../../../components/ui/export-button';
import { PageSpinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDeployment } from '../api/get-deployment';
import { noteJobs } from '../../../lib/deployment-status';
import { CancelDeploymentDialog } from '../components/cancel-deployment-dialog';
import { ConnectionIndicator } from '../components/connection-indicator';
import { DeviceDeploymentTable } from '../components/device-deployment-table';
import { JobDetailsCard, JobStepsCard } from '../components/job-details-card';
import { JobProgressCard } from '../components/job-progress-card';
import { JobTimeline } from '../components/job-timeline';
import { RolloutCard } from '../components/rollout-card';
import { WaitingDevicesSummary } from '../components/offline-waits';
import { StepLogDialog } from '../components/step-log-dialog';
import { useLiveDetail } from '../lib/use-live-detail';
import { useTicker } from '../lib/use-ticker';

// docs/product/deployments.md#details Deployment details, #job-statuses (cancel with confirmation while pending or running,
// live subscriptions), docs/product/deployments.md#deploy-dialog (errors), #job-statuses (progress rounded, pending count, whole minutes).

export default function DeploymentDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const query = useDeployment(id);
  const isNotFound =
    !Number.isInteger(id) || id <= 0 || (query.error instanceof ApiError && query.error.status === 404);

  useEffect(() => {
    document.title = `${query.data?.name ?? 'Deployment'} · Outpost`;
  }, [query.data?.name]);

  if (isNotFound) {
    return (
      <>
        <BackLink />
        <Card>
          <EmptyState
            icon={<Rocket className="size-6" />}
            title={messages.notFound}
            message="It may have been removed, or it belongs to another organization."
            action={
              <Link
                to="/deployments"
                className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
              >
                Back to deployments
              </Link>
            }
          />
        </Card>
      </>
    );
  }
  if (query.isPending) {
    return <PageSpinner label="Loading deployment..." />;
  }
  if (query.isError) {
    return (
      <>
        <BackLink />
        <Card>
          <ErrorState
            title={messages.detailLoad}
            message={errorMessage(query.error, messages.detailLoad)}
            onRetry={() => void query.refetch()}
          />
        </Card>
      </>
    );
  }
  return <Details job={query.data} isFetching={query.isFetching} onRefresh={() => void query.refetch()} />;
}

function BackLink() {
  return (
    <Link
      to="/deployments"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Back to deployments
    </Link>
  );
}

function Details({
  job,
  isFetching,
  onRefresh,
}: {
  job: DeploymentJobDetail;
  isFetching: boolean;
  onRefresh: () => void;
}) {
  const [toCancel, setToCancel] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [logsFor, setLogsFor] = useState<number | null>(null);
  useLiveDetail(job, onRefresh);
  useTicker();
  useEffect(() => {
    noteJobs([job]);
  }, [job]);

  const canCancel = isJobActive(job.status);
  const logsDevice = job.deployments.find((d) => d.id === logsFor) ?? null;
  // Stable, so live re-renders do not make the dialogs move focus.
  const closeLogs = useCallback(() => setLogsFor(null), []);
  const closeCancel = useCallback(() => setToCancel(false), []);

  return (
    <>
      <BackLink />
      <PageHeader
        title={job.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={job.status} />
            <span>
              #{job.id} · {job.package_name}
            </span>
          </span>
        }
        actions={
          <>
            <ConnectionIndicator />
            <Button
              onClick={onRefresh}
              icon={<RefreshCw className={isFetching ? 'size-4 animate-spin' : 'size-4'} />}
            >
              Refresh
            </Button>
            {/* the per-device results (docs/product/device-sets.md#exports) */}
            <ExportButton
              path={`/customer/deployments/${job.id}`}
              filename={`deployment-${job.id}-results.csv`}
            />
            {canCancel && (
              <Button
                variant="danger"
                icon={<XCircle className="size-4" />}
                onClick={() => {
                  setCancelError(null);
                  setToCancel(true);
                }}
              >
                Cancel Deployment
              </Button>
            )}
          </>
        }
      />
      <DismissibleAlert message={cancelError} onDismiss={() => setCancelError(null)} />

      <WaitingDevicesSummary job={job} onChanged={onRefresh} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="xl:col-span-2">
          <JobProgressCard job={job} />
        </div>
        <div>
          <Card className="h-full">
            <CardHeader title="Timeline" />
            <JobTimeline job={job} />
          </Card>
        </div>
        {job.rollout && (
          <div className="xl:col-span-3">
            <RolloutCard job={job} rollout={job.rollout} />
          </div>
        )}
        <div className="xl:col-span-3">
          <Card>
            <CardHeader
              title="Devices"
              description={`${job.deployments.length} device${job.deployments.length === 1 ? '' : 's'} in this deployment`}
            />
            <DeviceDeploymentTable
              jobId={job.id}
              deployments={job.deployments}
              onLogs={setLogsFor}
              rollout={job.rollout ?? null}
            />
          </Card>
        </div>
        <div className="xl:col-span-2">
          <JobDetailsCard job={job} />
        </div>
        <div>
          <JobStepsCard job={job} />
        </div>
      </div>

      <CancelDeploymentDialog
        job={toCancel ? job : null}
        onClose={closeCancel}
        onCancelled={onRefresh}
        onError={setCancelError}
      />
      <StepLogDialog
        key={logsFor ?? 'closed'}
        jobId={job.id}
        deviceDeployment={logsDevice}
        steps={job.steps}
        onClose={closeLogs}
      />
    </>
  );
}
