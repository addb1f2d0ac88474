import { useEffect, useMemo } from 'react';
import { CheckCheck, RefreshCw, ShieldCheck, Siren } from 'lucide-react';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import { alertListParams } from '../../../lib/alert-view';
import type { AlertFilters } from '../../../lib/alert-view';
import { useAlerts } from '../../../lib/api/alerts';
import { useSiteOptions } from '../../../lib/api/devices';
import { useListState } from '../../../lib/use-list-state';
import { alertColumns } from '../components/alert-columns';
import { AlertDetailDialog } from '../components/alert-detail-dialog';
import { NoteDialog } from '../components/note-dialog';
import { AlertFilterBar } from '../components/alert-filter-bar';
import { useAlertActions } from '../lib/use-alert-actions';
import { useAlertFilters } from '../lib/use-alert-filters';

// docs/product/monitoring.md#the-alerts-page — the organisation's alerts (within the caller's
// sites), live through the shell's `alerts` subscription (app/alerts-watch.tsx).

const NO_FILTERS = {};

export default function AlertsPage() {
  const { filters, setFilter, clear, hasActiveFilters } = useAlertFilters();
  const list = useListState<Record<string, string>>({ filters: NO_FILTERS, pageSize: 50 });
  const query = useAlerts(alertListParams(filters, list.page, list.pageSize));
  const sites = useSiteOptions();
  const {
    viewing,
    setViewing,
    action,
    act: actOn,
    detailError,
    setDetailError,
    bulk,
    isBulkOpen,
    setIsBulkOpen,
    bulkError,
    setBulkError,
    acknowledgeSelected,
  } = useAlertActions(list);

  useEffect(() => {
    document.title = 'Alerts · Outpost';
  }, []);

  const rows = query.data?.data;
  // the viewed alert as the list now has it (live updates), else as it was opened
  const shown = viewing ? (rows?.find((r) => r.id === viewing.id) ?? viewing) : null;
  const act = async (kind: 'acknowledge' | 'resolve', note: string) =>
    shown ? actOn(shown, kind, note) : undefined;
  const siteNames = useMemo(() => new Map((sites.data ?? []).map((s) => [s.id, s.site_name])), [sites.data]);
  const siteName = (id: number | null) => (id === null ? '—' : (siteNames.get(id) ?? `Site ${id}`));
  const deviceName = rows?.find((r) => r.device?.guid === filters.device)?.device?.hostname ?? filters.device;
  const change = <K extends keyof AlertFilters>(k: K, v: AlertFilters[K]) => {
    setFilter(k, v);
    list.setPage(1);
  };

  const isFilteredOut = hasActiveFilters || filters.state === 'resolved';
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What needs attention across your fleet, live: failing checks, offline devices, failed deployments."
        actions={
          <Button
            onClick={() => void query.refetch()}
            icon={<RefreshCw className={query.isFetching ? 'size-4 animate-spin' : 'size-4'} />}
          >
            Refresh
          </Button>
        }
      />
      <Card>
        <AlertFilterBar
          filters={filters}
          onChange={change}
          onClear={() => {
            clear();
            list.setPage(1);
          }}
          hasActiveFilters={hasActiveFilters}
          deviceName={deviceName}
          isFetching={query.isFetching && !query.isPending}
        />
        <BulkActionBar count={list.selected.size} noun={['alert', 'alerts']} onClear={list.clearSelection}>
          <Button
            size="sm"
            variant="primary"
            icon={<CheckCheck className="size-3.5" />}
            onClick={() => {
              setBulkError(null);
              setIsBulkOpen(true);
            }}
          >
            Acknowledge
          </Button>
        </BulkActionBar>
        <DataList
          query={query}
          paging={list}
          footer="list"
          errorFallback="Failed to load the alerts"
          errorTitle="Error loading alerts"
          loadingLabel="Loading alerts"
          empty={
            isFilteredOut
              ? {
                  icon: <Siren className="size-6" />,
                  title: 'No alerts found',
                  message: 'Try another state or filter.',
                }
              : {
                  icon: <ShieldCheck className="size-6 text-emerald-600 dark:text-emerald-400" />,
                  title: 'No active alerts — everything is healthy',
                  message: 'New alerts appear here as they open, without reloading.',
                }
          }
          cards
          selection={{
            allLabel: 'Select all open alerts on this page',
            rowLabel: (a) => `Select ${a.title}${a.device ? ` on ${a.device.hostname}` : ''}`,
            state: list,
            canSelect: (a) => a.state === 'open',
            rowTitle: (a) => (a.state === 'open' ? undefined : 'Only open alerts can be acknowledged'),
            isAllDisabledWhenNone: true,
          }}
          columns={alertColumns({
            siteName,
            onView: (a) => {
              setDetailError(null);
              setViewing(a);
            },
          })}
          rowAttributes={(a) => ({
            'data-testid': 'alert-row',
            'data-alert-id': a.id,
            'data-state': a.state,
          })}
        />
      </Card>
      <AlertDetailDialog
        alert={shown}
        siteName={siteName}
        busy={action.isPending ? (action.variables?.action ?? null) : null}
        error={detailError}
        onAction={(kind, note) => void act(kind, note)}
        onClose={() => setViewing(null)}
      />
      <NoteDialog
        isOpen={isBulkOpen}
        title={`Acknowledge ${list.selected.size} alert${list.selected.size === 1 ? '' : 's'}`}
        description="Acknowledged alerts stay active until they resolve."
        confirmLabel="Acknowledge"
        isBusy={bulk.isPending}
        error={bulkError}
        onConfirm={(note) => void acknowledgeSelected(note)}
        onClose={() => setIsBulkOpen(false)}
      />
    </>
  );
}
