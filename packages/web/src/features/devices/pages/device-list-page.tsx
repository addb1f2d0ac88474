import { Monitor, Power, RefreshCw, RotateCcw } from 'lucide-react';
import type { DeviceStatusFilter } from '@outpost/contract/devices';
import { DEVICE_STATUS_FILTERS, isDeviceActionable } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { DismissibleAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ExportButton } from '../../../components/ui/export-button';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { DataList } from '../../../components/ui/data-list';
import { FilterSelect, ListToolbar, osTypeOptions } from '../../../components/ui/list-toolbar';
import { useUser } from '../../../lib/auth';
import { deviceListKey, useDevices, useSiteOptions } from '../../../lib/api/devices';
import type { DeviceFilters } from '../../../lib/api/devices';
import { useListState } from '../../../lib/use-list-state';
import { DeployPackageButton } from '../components/deploy-package-button';
import { DeviceActionDialog } from '../components/device-action-dialog';
import { deviceColumns } from '../components/device-columns';
import { SetFieldButton } from '../components/set-field-button';
import { deviceName } from '../lib/device-format';
import { useDeviceActions } from '../lib/use-device-actions';
import { useLiveDeviceRows } from '../lib/use-live-devices';

// docs/product/devices.md#device-list, docs/product/live-updates.md#live-lists Selection and Device list live updates, docs/product/deployments.md#deploy-dialog-rules, #device-detail.
export default function DeviceListPage() {
  const user = useUser();
  const list = useListState<{ status: DeviceStatusFilter; osType: string; siteId: string }>({
    filters: { status: '', osType: '', siteId: '' },
  });

  const filters: DeviceFilters = {
    page: list.page,
    limit: list.pageSize,
    search: list.searchTerm || undefined,
    status: list.filters.status || undefined,
    os_type: list.filters.osType || undefined,
    site_id: list.filters.siteId ? Number(list.filters.siteId) : undefined,
  };
  const query = useDevices(filters);
  const sites = useSiteOptions();
  const actions = useDeviceActions(list.clearSelection);
  const rows = query.data?.data;
  useLiveDeviceRows(deviceListKey(user.tenant_id, filters), rows, query.dataUpdatedAt);

  const actionable = (rows ?? []).filter((d) => isDeviceActionable(d.status));
  const selectedDevices = actionable.filter((d) => list.isSelected(d.id));

  return (
    <>
      <PageHeader
        title="Devices"
        description="Every device running the Outpost agent in your organization, live."
        actions={
          <>
            <Button
              onClick={() => void query.refetch()}
              icon={<RefreshCw className={query.isFetching ? 'size-4 animate-spin' : 'size-4'} />}
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
      <DismissibleAlert message={actions.error} onDismiss={() => actions.setError(null)} />
      <Card>
        <ListToolbar
          search={list.search}
          onSearchChange={list.setSearch}
          searchPlaceholder="Search hostname, IP or serial..."
          hasActiveFilters={list.hasActiveFilters}
          onClear={list.clearFilters}
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
            </>
          }
        />
        <BulkActionBar
          count={selectedDevices.length}
          noun={['device', 'devices']}
          onClear={list.clearSelection}
        >
          <DeployPackageButton
            devices={selectedDevices}
            onNothingSelected={actions.setError}
            onDeployed={list.clearSelection}
          />
          <SetFieldButton devices={selectedDevices} onDone={list.clearSelection} />
          <Button
            size="sm"
            icon={<RotateCcw className="size-3.5" />}
            onClick={() => actions.ask('restart', selectedDevices)}
          >
            Restart
          </Button>
          <Button
            size="sm"
            variant="danger"
            icon={<Power className="size-3.5" />}
            onClick={() => actions.ask('shutdown', selectedDevices)}
          >
            Shutdown
          </Button>
        </BulkActionBar>
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
            message: list.hasActiveFilters
              ? 'Try adjusting your filters to see more devices.'
              : user.site_access_type === 'specific'
                ? deviceMessages.noDevicesInYourSites
                : deviceMessages.noDevicesRegistered,
          }}
          cards
          columns={deviceColumns({ onAsk: actions.ask, onNothingSelected: actions.setError })}
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
      <DeviceActionDialog
        pending={actions.pending}
        isBusy={actions.isBusy}
        onConfirm={actions.confirm}
        onCancel={actions.cancel}
      />
    </>
  );
}
