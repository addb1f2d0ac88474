import { useEffect } from 'react';
import { RefreshCw } from 'lucide-react';
import { activityMessages } from '@outpost/contract/activity';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { ErrorState, RetryingState } from '../../../components/ui/states';
import { activityErrorText, useActivityOverviewPage } from '../../../lib/api/activity';
import { DeviceActivityOverview } from '../components/device-activity-overview';
import { useOverviewState } from '../lib/use-overview-state';

// docs/product/activity.md#device-activity-overview Device activity (/device-activity); #utilisation states loading, error (with
// retry), loaded; docs/product/activity.md#device-activity-overview 'Failed to load device activity overview' or the server's text. The server
// filters, sorts and pages (docs/decisions/2026-11-26-device-activity-overview.md).
export default function DeviceActivityPage() {
  const state = useOverviewState();
  const query = useActivityOverviewPage(state.query);
  const isRefreshing = query.isFetching && !query.isPending && !query.isPlaceholderData;

  // a page past the last (devices went away since it was chosen): show the last one
  const totalPages = query.data?.pagination.totalPages;
  const { page, setPage } = state.list;
  useEffect(() => {
    if (totalPages !== undefined && !query.isPlaceholderData && page > totalPages) {
      setPage(totalPages);
    }
  }, [totalPages, page, setPage, query.isPlaceholderData]);

  return (
    <>
      <PageHeader
        title="Device Activity"
        description="Monitor device utilization and login activity across your organization."
        actions={
          <Button
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
            icon={<RefreshCw className={isRefreshing ? 'size-4 animate-spin' : 'size-4'} aria-hidden />}
          >
            Refresh
          </Button>
        }
      />
      {query.isPending && query.failureCount > 0 ? (
        <Card>
          <RetryingState failures={query} />
        </Card>
      ) : query.isPending ? (
        <PageSpinner label={activityMessages.overviewLoadingText} />
      ) : query.isError ? (
        <Card>
          <ErrorState
            title={activityMessages.overviewErrorTitle}
            message={activityErrorText(query.error, activityMessages.overviewLoad)}
            onRetry={() => void query.refetch()}
          />
        </Card>
      ) : (
        <DeviceActivityOverview view={query.data} state={state} isUpdating={query.isPlaceholderData} />
      )}
    </>
  );
}
