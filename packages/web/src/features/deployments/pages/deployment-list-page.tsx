import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Package, Plus, RefreshCw, Rocket } from 'lucide-react';
import type { JobStatus } from '@outpost/contract/deployments';
import { JOB_STATUSES } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { DismissibleAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { FilterSelect, ListToolbar } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { deploymentListKey, useDeployments } from '../../../lib/api/deployments';
import type { DeploymentListParams } from '../../../lib/api/deployments';
import { useUser } from '../../../lib/auth';
import { useDeployDialog } from '../../../lib/deploy-dialog';
import { useListState } from '../../../lib/use-list-state';
import { CancelDeploymentDialog } from '../components/cancel-deployment-dialog';
import { ConnectionIndicator } from '../components/connection-indicator';
import { deploymentColumns } from '../components/deployment-columns';
import { useLiveDeploymentRows } from '../lib/use-live-deployment-rows';
import { useTicker } from '../lib/use-ticker';

// docs/product/deployments.md#history Deployment history, docs/product/live-updates.md#live-lists (live subscriptions, cancel), #details, docs/product/devices.md#lists (page size
// 20, relative time Just now / minutes / hours / days).

const statusOptions = [
  { value: '' as const, label: 'All statuses' },
  ...JOB_STATUSES.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) })),
];

type CancelTarget = { id: number; name: string; total_devices: number };

export default function DeploymentListPage() {
  const user = useUser();
  const navigate = useNavigate();
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
  useLiveDeploymentRows(key, rows);

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
      <DismissibleAlert message={cancelError} onDismiss={() => setCancelError(null)} />
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
        <DataList
          query={query}
          paging={list}
          footer="list"
          errorFallback={messages.listLoad}
          errorTitle={messages.listLoad}
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
          cards
          columns={deploymentColumns({
            onCancel: (job) => {
              setCancelError(null);
              setToCancel(job);
            },
            onView: (job) => void navigate(`/deployments/${job.id}`),
          })}
          rowAttributes={(job) => ({ 'data-testid': 'deployment-row', 'data-deployment-id': job.id })}
        />
      </Card>
      <CancelDeploymentDialog job={toCancel} onClose={closeCancel} onError={setCancelError} />
    </>
  );
}
