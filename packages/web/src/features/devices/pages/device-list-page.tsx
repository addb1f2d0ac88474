import { useState } from 'react';
import { Link } from 'react-router';
import { Monitor, Power, RefreshCw, RotateCcw, X } from 'lucide-react';
import type { DeviceActionType, DeviceListItem, DeviceStatusFilter } from '@outpost/contract/devices';
import { DEVICE_STATUS_FILTERS, isDeviceActionable } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { BulkActionBar } from '../../../components/ui/bulk-action-bar';
import { FilterSelect, ListFooter, ListToolbar, osTypeOptions } from '../../../components/ui/list-toolbar';
import { QueryState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { deviceListKey, useDevices, useSiteOptions } from '../../../lib/api/devices';
import type { DeviceFilters } from '../../../lib/api/devices';
import { useListState } from '../../../lib/use-list-state';
import { useCreateDeviceAction } from '../api/create-device-action';
import { DeployPackageButton } from '../components/deploy-package-button';
import { deviceHref, deviceName, osParts } from '../lib/device-format';
import { UnavailableActions } from '../components/unavailable-actions';
import { useLiveDeviceRows } from '../lib/use-live-devices';

type PendingAction = { action: DeviceActionType; devices: DeviceListItem[] } | null;

const actionWords: Record<DeviceActionType, { title: string; verb: string; done: string }> = {
  restart: { title: 'Restart', verb: 'restart', done: 'Restart sent' },
  shutdown: { title: 'Shutdown', verb: 'shutdown', done: 'Shutdown sent' },
};

// spec: core §2 Device list, §4 Selection and Device list live updates, §5, §8.
export default function DeviceListPage() {
  const user = useUser();
  const toast = useToast();
  const list = useListState<{ status: DeviceStatusFilter; osType: string; siteId: string }>({
    filters: { status: '', osType: '', siteId: '' },
  });
  const [pending, setPending] = useState<PendingAction>(null);
  const [actionError, setActionError] = useState<string | null>(null);

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
  const action = useCreateDeviceAction();
  const rows = query.data?.data;
  useLiveDeviceRows(deviceListKey(user.tenant_id, filters), rows, query.dataUpdatedAt);

  const actionable = (rows ?? []).filter((d) => isDeviceActionable(d.status));
  const selectedDevices = actionable.filter((d) => list.isSelected(d.id));
  const isAllSelected = actionable.length > 0 && selectedDevices.length === actionable.length;

  const ask = (kind: DeviceActionType, list: DeviceListItem[]) => {
    setActionError(null);
    const targets = list.filter((d) => isDeviceActionable(d.status));
    if (targets.length === 0) {
      setActionError(deviceMessages.selectDevicesFirst);
      return;
    }
    setPending({ action: kind, devices: targets });
  };

  const confirm = () => {
    if (!pending) {
      return;
    }
    const words = actionWords[pending.action];
    action.mutate(
      { device_ids: pending.devices.map((d) => d.id), action_type: pending.action },
      {
        onSuccess: (res) => {
          toast.show({
            type: 'success',
            title: words.done,
            message:
              res.created === 1
                ? `${deviceName(pending.devices[0]!)} will ${words.verb} now.`
                : `${res.created} devices will ${words.verb} now.`,
          });
          list.clearSelection();
          setPending(null);
        },
        onError: (err) => {
          setActionError(deviceMessages.actionFailed(words.verb, errorMessage(err, '')));
          setPending(null);
        },
      },
    );
  };

  const total = query.data?.pagination.total ?? 0;
  const totalPages = query.data?.pagination.totalPages ?? 1;

  return (
    <>
      <PageHeader
        title="Devices"
        description="Every device running the Outpost agent in your organization, live."
        actions={
          <Button
            onClick={() => void query.refetch()}
            icon={<RefreshCw className={query.isFetching ? 'size-4 animate-spin' : 'size-4'} />}
          >
            Refresh
          </Button>
        }
      />
      {actionError && (
        <div className="mb-4 flex items-start gap-2">
          <Alert className="flex-1">{actionError}</Alert>
          <Button variant="ghost" size="sm" aria-label="Dismiss" onClick={() => setActionError(null)}>
            <X className="size-4" />
          </Button>
        </div>
      )}
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
            onNothingSelected={setActionError}
            onDeployed={list.clearSelection}
          />
          <Button
            size="sm"
            icon={<RotateCcw className="size-3.5" />}
            onClick={() => ask('restart', selectedDevices)}
          >
            Restart
          </Button>
          <Button
            size="sm"
            variant="danger"
            icon={<Power className="size-3.5" />}
            onClick={() => ask('shutdown', selectedDevices)}
          >
            Shutdown
          </Button>
        </BulkActionBar>
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, deviceMessages.devicesLoad) : null}
          errorTitle="Error loading devices"
          onRetry={() => void query.refetch()}
          isEmpty={rows?.length === 0}
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
        >
          <Table cards>
            <THead>
              <tr>
                <Th className="w-10">
                  <Checkbox
                    aria-label="Select all online devices"
                    checked={isAllSelected}
                    disabled={actionable.length === 0}
                    onChange={() => list.toggleAll(actionable.map((d) => d.id))}
                  />
                </Th>
                <Th sticky>Device</Th>
                <Th>Status</Th>
                <Th>OS</Th>
                <Th>Site</Th>
                <Th>Last Seen</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody>
              {rows?.map((d) => {
                const canAct = isDeviceActionable(d.status);
                const isChecked = list.isSelected(d.id) && canAct;
                return (
                  <Tr key={d.id} isSelected={isChecked} data-device-guid={d.device_guid}>
                    <Td>
                      <Checkbox
                        aria-label={`Select ${deviceName(d)}`}
                        checked={isChecked}
                        disabled={!canAct}
                        onChange={() => list.toggle(d.id)}
                      />
                    </Td>
                    <Td sticky>
                      <Link
                        to={deviceHref(d)}
                        className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
                      >
                        {deviceName(d)}
                      </Link>
                      <div className="mt-0.5 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">
                        {d.ip_address ?? 'No IP'}
                        {d.agent_version && <span className="ml-2">· Agent {d.agent_version}</span>}
                      </div>
                    </Td>
                    <Td>
                      <StatusBadge status={d.status} />
                    </Td>
                    <Td className="min-w-36" data-label="OS">
                      <div>{osParts(d).name}</div>
                      {osParts(d).build && (
                        <div className="text-xs text-slate-500 dark:text-slate-400">{osParts(d).build}</div>
                      )}
                    </Td>
                    <Td className="whitespace-nowrap" data-label="Site">
                      {d.site_name ?? 'No site'}
                    </Td>
                    <Td
                      className="whitespace-nowrap"
                      title={formatDateTime(d.last_seen)}
                      data-label="Last Seen"
                    >
                      {relativeTime(d.last_seen)}
                    </Td>
                    <Td className="text-right" data-label="Actions">
                      {canAct ? (
                        <div className="flex justify-end gap-0.5">
                          <DeployPackageButton devices={[d]} onNothingSelected={setActionError} iconOnly />
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Restart Device ${deviceName(d)}`}
                            title="Restart Device"
                            icon={<RotateCcw className="size-4" />}
                            onClick={() => ask('restart', [d])}
                          />
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Shutdown Device ${deviceName(d)}`}
                            title="Shutdown Device"
                            className="text-red-600 hover:text-red-700 dark:text-red-400"
                            icon={<Power className="size-4" />}
                            onClick={() => ask('shutdown', [d])}
                          />
                        </div>
                      ) : (
                        <UnavailableActions status={d.status} />
                      )}
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        </QueryState>
        {rows && rows.length > 0 && (
          <ListFooter
            shown={rows.length}
            total={total}
            page={list.page}
            totalPages={totalPages}
            pageSize={list.pageSize}
            onPageChange={list.setPage}
            onPageSizeChange={list.setPageSize}
          />
        )}
      </Card>
      <ConfirmDialog
        isOpen={pending !== null}
        title={
          pending
            ? `${actionWords[pending.action].title} ${pending.devices.length === 1 ? 'device' : 'devices'}?`
            : ''
        }
        message={
          pending && (
            <>
              {pending.devices.length === 1 ? (
                <p>
                  <strong className="text-slate-900 dark:text-white">
                    {deviceName(pending.devices[0]!)}
                  </strong>{' '}
                  will {actionWords[pending.action].verb} now. Anyone signed in on it loses unsaved work.
                </p>
              ) : (
                <p>
                  {pending.devices.length} devices will {actionWords[pending.action].verb} now. Anyone signed
                  in on them loses unsaved work.
                </p>
              )}
            </>
          )
        }
        confirmLabel={pending ? actionWords[pending.action].title : 'Confirm'}
        tone={pending?.action === 'shutdown' ? 'danger' : 'primary'}
        isBusy={action.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </>
  );
}
