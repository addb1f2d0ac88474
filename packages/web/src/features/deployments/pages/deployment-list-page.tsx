import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Eye, Package, Plus, RefreshCw, Rocket, X, XCircle } from 'lucide-react';
import type { DeploymentListResponse, JobStatus } from '@outpost/contract/deployments';
import { isJobActive, JOB_STATUSES } from '@outpost/contract/deployments';
import { deploymentKey } from '@outpost/contract/live';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { FilterSelect, ListFooter, ListToolbar } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { deploymentListKey, useDeployments } from '../../../lib/api/deployments';
import type { DeploymentListParams } from '../../../lib/api/deployments';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useDeployDialog } from '../../../lib/deploy-dialog';
import { noteJobs } from '../../../lib/deployment-status';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { useLiveMessages, useSubscriptions } from '../../../lib/socket';
import { useListState } from '../../../lib/use-list-state';
import { CancelDeploymentDialog } from '../components/cancel-deployment-dialog';
import { ConnectionIndicator } from '../components/connection-indicator';
import { JobProgress } from '../components/job-progress';
import { applyJobUpdate } from '../lib/live-jobs';
import { useTicker } from '../lib/use-ticker';

// spec: operations §2.4 Deployment history, §4 (live subscriptions, cancel), §8, §9 (page size
// 20, relative time Just now / minutes / hours / days).

const statusOptions = [
  { value: '' as const, label: 'All statuses' },
  ...JOB_STATUSES.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) })),
];

type CancelTarget = { id: number; name: string; total_devices: number };

export default function DeploymentListPage() {
  const user = useUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { openDeployDialog } = useDeployDialog();
  const list = useListState<{ status: JobStatus | '' }>({ filters: { status: '' } });
  const [toCancel, setToCancel] = useState<CancelTarget | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);
  useTicker();

  const params: DeploymentListParams = {
    page: list.page,
    limit: list.pageSize,
    status: list.filters.status || undefined,
    search: list.searchTerm || undefined,
  };
  const query = useDeployments(params);
  const rows = query.data?.data;
  const key = deploymentListKey(user.tenant_id, params);

  useEffect(() => {
    document.title = 'Deployments · Outpost';
  }, []);
  useEffect(() => {
    if (rows) {
      noteJobs(rows);
    }
  }, [rows]);

  // spec: operations §4 — the list subscribes to 'deployment:{id}' for each pending or running job
  // and changes the row in place.
  useSubscriptions((rows ?? []).filter((j) => isJobActive(j.status)).map((j) => deploymentKey(j.id)));
  useLiveMessages((event) => {
    if (event.type !== 'deployment_update') {
      return;
    }
    queryClient.setQueryData(key, (old: DeploymentListResponse | undefined) =>
      old ? { ...old, data: old.data.map((j) => applyJobUpdate(j, event.payload)) } : old,
    );
  });

  const hasFilters = list.hasActiveFilters;
  const closeCancel = useCallback(() => setToCancel(null), []);

  return (
    <>
      <PageHeader
        title="Deployments"
        description="Every deployment job, its progress on each device, live."
        actions={
          <>
            <ConnectionIndicator />
            <Button
              onClick={() => void query.refetch()}
              icon={<RefreshCw className={query.isFetching ? 'size-4 animate-spin' : 'size-4'} />}
            >
              Refresh
            </Button>
            <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => openDeployDialog({})}>
              New Deployment
            </Button>
          </>
        }
      />
      {cancelError && (
        <div className="mb-4 flex items-start gap-2">
          <Alert className="flex-1">{cancelError}</Alert>
          <Button variant="ghost" size="sm" aria-label="Dismiss" onClick={() => setCancelError(null)}>
            <X className="size-4" />
          </Button>
        </div>
      )}
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search job or package..."
          hasActiveFilters={hasFilters}
          onClear={list.clearFilters}
          filters={
            <>
              <FilterSelect
                label="Status"
                value={list.filters.status}
                onChange={(v) => list.setFilter('status', v)}
                options={statusOptions}
                className="sm:w-40"
              />
              {query.isFetching && !query.isPending && <Spinner className="size-4 text-slate-400" />}
            </>
          }
        />
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, messages.listLoad) : null}
          errorTitle={messages.listLoad}
          onRetry={() => void query.refetch()}
          isEmpty={rows?.length === 0}
          loadingLabel="Loading deployments"
          empty={{
            icon: <Rocket className="size-6" />,
            title: 'No deployments found',
            message: hasFilters
              ? 'Try another search or status.'
              : 'Deploy a package to your devices and follow its progress here.',
            action: !hasFilters && (
              <Link
                to="/packages"
                className="inline-flex h-9 items-center gap-2 rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              >
                <Package className="size-4" aria-hidden />
                Deploy Package
              </Link>
            ),
          }}
        >
          <Table cards>
            <THead>
              <tr>
                <Th sticky>Job Details</Th>
                <Th>Status &amp; Progress</Th>
                <Th>Package</Th>
                <Th>Created</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody>
              {rows?.map((job) => {
                const canCancel = isJobActive(job.status);
                return (
                  <Tr key={job.id} data-testid="deployment-row" data-deployment-id={job.id}>
                    <Td sticky className="max-w-sm min-w-56">
                      <Link
                        to={`/deployments/${job.id}`}
                        className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
                      >
                        {job.name}
                      </Link>
                      {job.description && (
                        <p className="mt-0.5 line-clamp-1 text-xs text-slate-500 dark:text-slate-400">
                          {job.description}
                        </p>
                      )}
                      <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                        #{job.id} · {job.total_devices} device{job.total_devices === 1 ? '' : 's'}
                      </p>
                    </Td>
                    <Td className="min-w-64" data-full>
                      <div className="mb-1.5 flex items-center gap-2">
                        <StatusBadge status={job.status} />
                        {job.status === 'pending' && job.scheduled_at && (
                          <span
                            className="inline-flex items-center gap-1 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400"
                            title="Scheduled"
                          >
                            <CalendarClock className="size-3.5" aria-hidden />
                            {formatDateTime(job.scheduled_at)}
                          </span>
                        )}
                      </div>
                      <JobProgress job={job} />
                    </Td>
                    <Td className="max-w-56" data-label="Package">
                      <span className="line-clamp-2">{job.package_name}</span>
                    </Td>
                    <Td className="whitespace-nowrap" data-label="Created">
                      <div title={formatDateTime(job.created_at)}>{relativeTime(job.created_at)}</div>
                      <div className="text-xs text-slate-500 dark:text-slate-400">
                        by {job.created_by_name ?? 'Unknown'}
                      </div>
                    </Td>
                    <Td data-label="Actions">
                      <div className="flex items-center justify-end gap-1.5">
                        {canCancel && (
                          <Button
                            size="sm"
                            variant="ghost"
                            className="text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10"
                            icon={<XCircle className="size-3.5" />}
                            aria-label={`Cancel ${job.name}`}
                            onClick={() => {
                              setCancelError(null);
                              setToCancel(job);
                            }}
                          >
                            Cancel
                          </Button>
                        )}
                        <Button
                          size="sm"
                          icon={<Eye className="size-3.5" />}
                          aria-label={`View ${job.name}`}
                          onClick={() => void navigate(`/deployments/${job.id}`)}
                        >
                          View
                        </Button>
                      </div>
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        </QueryState>
        {rows && rows.length > 0 && query.data && (
          <ListFooter
            shown={rows.length}
            total={query.data.pagination.total}
            page={list.page}
            totalPages={query.data.pagination.totalPages}
            pageSize={list.pageSize}
            onPageChange={list.setPage}
            onPageSizeChange={list.setPageSize}
          />
        )}
      </Card>
      <CancelDeploymentDialog job={toCancel} onClose={closeCancel} onError={setCancelError} />
    </>
  );
}
