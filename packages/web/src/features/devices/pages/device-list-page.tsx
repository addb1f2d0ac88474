import { useCallback, useMemo, useState } from 'react';
import { Monitor, RefreshCw } from 'lucide-react';
import type { DeviceStatusFilter } from '@outpost/contract/devices';
import { DEVICE_STATUS_FILTERS, isDeviceActionable } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { DismissibleAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ExportButton } from '../../../components/ui/export-button';
import { DataList } from '../../../components/ui/data-list';
import { FilterSelect, ListToolbar, osTypeOptions } from '../../../components/ui/list-toolbar';
import { useUser } from '../../../lib/auth';
import { deviceListKey, useDevices, useSiteOptions } from '../../../lib/api/devices';
import type { DeviceFilters } from '../../../lib/api/devices';
import { useListState } from '../../../lib/use-list-state';
import { DeviceBulkBar } from '../components/device-bulk-bar';
import { DeviceActionDialog } from '../components/device-action-dialog';
import { deviceColumns } from '../components/device-columns';
import { useAlertBadges } from '../../../lib/api/alerts';
import { deviceName } from '../lib/device-format';
import { useDeviceActions } from '../lib/use-device-actions';
import { useLiveDeviceRows } from '../lib/use-live-devices';
import { DeviceSetFilters, FieldColumnsMenu } from '../components/device-set-filters';
import { TagDevicesDialog } from '../components/tag-devices-dialog';
import { useFieldOptions } from '../../../lib/api/device-sets';
import { useDeviceSetFilters, useFieldColumns } from '../lib/use-device-set-filters';

// docs/product/devices.md#device-list, docs/product/live-updates.md#live-lists Selection and Device list live updates, docs/product/deployments.md#deploy-dialog-rules, #device-detail.
export default function DeviceListPage() {
  const user = useUser();
  const list = useListState<{ status: DeviceStatusFilter; osType: string; siteId: string }>({
    filters: { status: '', osType: '', siteId: '' },
  });

  const { setPage, clearSelection } = list;
  const sets = useDeviceSetFilters(
    useCallback(() => {
      setPage(1);
      clearSelection();
    }, [setPage, clearSelection]),
  );
  const columns = useFieldColumns();
  const fieldOptions = useFieldOptions();
  const fieldColumns = (fieldOptions.data ?? []).filter((f) => columns.keys.includes(f.key));
  const [isTagging, setIsTagging] = useState(false);

  const filters: DeviceFilters = {
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
    status: list.filters.status || undefined,
    os_type: list.filters.osType || undefined,
    site_id: list.filters.siteId ? Number(list.filters.siteId) : undefined,
    ...sets.filters,
    fields: fieldColumns.length > 0 ? fieldColumns.map((f) => f.key).join(',') : undefined,
  };
  const query = useDevices(filters);
  const sites = useSiteOptions();
  const actions = useDeviceActions(list.clearSelection);
  const rows = query.data?.data;
  const alertBadges = useAlertBadges((rows ?? []).map((d) => d.device_guid));
  useLiveDeviceRows(deviceListKey(user.tenant_id, filters), rows, query.dataUpdatedAt);

  const columnList = useDeviceColumns(actions, fieldColumns, alertBadges.data);

  const actionable = (rows ?? []).filter((d) => isDeviceActionable(d.status));
  const selectedDevices = actionable.filter((d) => list.isSelected(d.id));

  return (
    <>
      <DeviceListHeader
        isFetching={query.isFetching}
        onRefresh={() => void query.refetch()}
        filters={filters}
      />
      <DismissibleAlert message={actions.error} onDismiss={() => actions.setError(null)} />
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search hostname, IP or serial..."
          hasActiveFilters={list.hasActiveFilters || sets.isActive}
          onClear={() => {
            list.clearFilters();
            sets.clear();
          }}
          actions={<FieldColumnsMenu shown={columns.keys} onToggle={columns.toggle} />}
          filters={
            <>
              <FilterSelect
                label="Status"
                value={list.filters.status}
                onChange={(v) => list.setFilter('status', v)}
                options={[...DEVICE_STATUS_FILTERS]}
                className="sm:w-36"
              />
              <FilterSelect
                label="OS type"
                value={list.filters.osType}
                onChange={(v) => list.setFilter('osType', v)}
                options={osTypeOptions(
                  (rows ?? []).map((d) => d.os_type),
                  list.filters.osType,
                )}
              />
              <FilterSelect
                label="Site"
                value={list.filters.siteId}
                onChange={(v) => list.setFilter('siteId', v)}
                options={[
                  { value: '', label: 'All sites' },
                  ...(sites.data ?? []).map((s) => ({ value: String(s.id), label: s.site_name })),
                ]}
                className="sm:w-44"
              />
              <DeviceSetFilters state={sets} />
            </>
          }
        />
        <DeviceBulkBar
          devices={selectedDevices}
          actions={actions}
          onClear={list.clearSelection}
          onTags={() => setIsTagging(true)}
        />
        <DataList
          query={query}
          paging={list}
          footer="list"
          errorFallback={deviceMessages.devicesLoad}
          errorTitle="Error loading devices"
          loadingLabel="Loading devices"
          empty={{
            icon: <Monitor className="size-6" />,
            title: deviceMessages.noDevicesFound,
            message:
              list.hasActiveFilters || sets.isActive
                ? 'Try adjusting your filters to see more devices.'
                : user.site_access_type === 'specific'
                  ? deviceMessages.noDevicesInYourSites
                  : deviceMessages.noDevicesRegistered,
          }}
          cards
          columns={columnList}
          selection={{
            allLabel: 'Select all online devices',
            rowLabel: (d) => `Select ${deviceName(d)}`,
            state: list,
            canSelect: (d) => isDeviceActionable(d.status),
            isAllDisabledWhenNone: true,
          }}
          rowAttributes={(d) => ({ 'data-device-guid': d.device_guid })}
        />
      </Card>
      <TagDevicesDialog
        isOpen={isTagging}
        onClose={() => setIsTagging(false)}
        devices={selectedDevices}
        title={`Tags of ${selectedDevices.length} device${selectedDevices.length === 1 ? '' : 's'}`}
        onApplied={list.clearSelection}
      />
      <DeviceActionDialog
        pending={actions.pending}
        isBusy={actions.isBusy}
        onConfirm={actions.confirm}
        onCancel={actions.cancel}
      />
    </>
  );
}

/** The page's title, Refresh and Export CSV (every device the filters match). */
function DeviceListHeader({
  isFetching,
  onRefresh,
  filters,
}: {
  isFetching: boolean;
  onRefresh: () => void;
  filters: DeviceFilters;
}) {
  return (
    <PageHeader
      title="Devices"
      description="Every device running the Outpost agent in your organization, live."
      actions={
        <>
          <Button
            onClick={onRefresh}
            icon={<RefreshCw className={isFetching ? 'size-4 animate-spin' : 'size-4'} />}
          >
            Refresh
          </Button>
          {/* every device the current filters match (docs/product/device-sets.md#exports) */}
          <ExportButton
            path="/customer/devices"
            query={{ ...filters, page: undefined, limit: undefined }}
            filename="devices.csv"
          />
        </>
      }
    />
  );
}

// The columns keep their identity while nothing they show changes, so a live update redraws only
// the rows it changed (DataTable's rows are memoised).
function useDeviceColumns(
  actions: Pick<ReturnType<typeof useDeviceActions>, 'ask' | 'setError'>,
  fieldColumns: { key: string; name: string }[],
  alertBadges: Parameters<typeof deviceColumns>[0]['alertBadges'],
) {
  const fieldKey = fieldColumns.map((f) => `${f.key}\u0000${f.name}`).join('\u0001');
  return useMemo(
    () =>
      deviceColumns({
        onAsk: actions.ask,
        onNothingSelected: actions.setError,
        fieldColumns,
        alertBadges,
      }),
    // fieldColumns is rebuilt each render; fieldKey says when it changed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [actions.ask, actions.setError, fieldKey, alertBadges],
  );
}
