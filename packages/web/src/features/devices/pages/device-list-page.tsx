import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Monitor, Power, RefreshCw, RotateCcw, X } from 'lucide-react';
import type { DeviceActionType, DeviceListItem, DeviceStatusFilter } from '@outpost/contract/devices';
import { DEVICE_STATUS_FILTERS, isDeviceActionable, osTypeLabel } from '@outpost/contract/devices';
import { DEFAULT_PAGE_SIZE } from '@outpost/contract/limits';
import { deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Checkbox } from '../../../components/ui/form';
import { FilterSelect, ListFooter, ListToolbar } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { useCreateDeviceAction } from '../api/create-device-action';
import { deviceListKey, useDevices } from '../api/get-devices';
import type { DeviceFilters } from '../api/get-devices';
import { useSiteOptions } from '../api/get-sites';
import { DeployPackageButton } from '../components/deploy-placeholder';
import { deviceHref, deviceName, osParts } from '../lib/device-format';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
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
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<DeviceStatusFilter>('');
  const [osType, setOsType] = useState('');
  const [siteId, setSiteId] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(DEFAULT_PAGE_SIZE);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [pending, setPending] = useState<PendingAction>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim());

  const filters: DeviceFilters = {
    page,
    limit,
    search: debouncedSearch || undefined,
    status: status || undefined,
    os_type: osType || undefined,
    site_id: siteId ? Number(siteId) : undefined,
  };
  const query = useDevices(filters);
  const sites = useSiteOptions();
  const action = useCreateDeviceAction();
  const rows = query.data?.data;
  useLiveDeviceRows(deviceListKey(user.tenant_id, filters), rows, query.dataUpdatedAt);

  // spec: OS options are built from the loaded devices (the chosen one stays offered).
  const osOptions = useMemo(() => {
    const set = new Set((rows ?? []).map((d) => d.os_type).filter((t): t is string => Boolean(t)));
    if (osType) {
      set.add(osType);
    }
    return [...set].sort();
  }, [rows, osType]);

  const hasFilters = Boolean(search || status || osType || siteId);
  const resetPage =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
      setSelected(new Set());
    };
  const clearFilters = () => {
    setSearch('');
    setStatus('');
    setOsType('');
    setSiteId('');
    setPage(1);
    setSelected(new Set());
  };

  const actionable = (rows ?? []).filter((d) => isDeviceActionable(d.status));
  const selectedDevices = actionable.filter((d) => selected.has(d.id));
  const isAllSelected = actionable.length > 0 && selectedDevices.length === actionable.length;
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return next;
    });
  const toggleAll = () => setSelected(isAllSelected ? new Set() : new Set(actionable.map((d) => d.id)));

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
          setSelected(new Set());
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
          search={search}
          onSearchChange={resetPage(setSearch)}
          searchPlaceholder="Search hostname, IP or serial..."
          hasActiveFilters={hasFilters}
          onClear={clearFilters}
          filters={
            <>
              <FilterSelect
                label="Status"
                value={status}
                onChange={resetPage(setStatus)}
                options={[...DEVICE_STATUS_FILTERS]}
                className="sm:w-36"
              />
              <FilterSelect
                label="OS type"
                value={osType}
                onChange={resetPage(setOsType)}
                options={[
                  { value: '', label: 'All OS types' },
                  ...osOptions.map((o) => ({ value: o, label: osTypeLabel(o) })),
                ]}
              />
              <FilterSelect
                label="Site"
                value={siteId}
                onChange={resetPage(setSiteId)}
                options={[
                  { value: '', label: 'All sites' },
                  ...(sites.data ?? []).map((s) => ({ value: String(s.id), label: s.site_name })),
                ]}
                className="sm:w-44"
              />
            </>
          }
        />
        {selectedDevices.length > 0 && (
          <div
            role="region"
            aria-label="Bulk actions"
            className="flex flex-wrap items-center gap-2 border-b border-indigo-100 bg-indigo-50/70 px-4 py-2.5 dark:border-indigo-500/20 dark:bg-indigo-500/10"
          >
            <span className="mr-2 text-sm font-medium text-indigo-900 dark:text-indigo-200">
              {selectedDevices.length} selected
            </span>
            <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
            <div className="ml-auto flex flex-wrap gap-2">
              <DeployPackageButton />
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
            </div>
          </div>
        )}
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-6 text-indigo-600" label="Loading devices" />
          </div>
        ) : query.isError ? (
          <ErrorState
            title="Error loading devices"
            message={errorMessage(query.error, deviceMessages.devicesLoad)}
            onRetry={() => void query.refetch()}
          />
        ) : rows && rows.length === 0 ? (
          <EmptyState
            icon={<Monitor className="size-6" />}
            title={deviceMessages.noDevicesFound}
            message={
              hasFilters
                ? 'Try adjusting your filters to see more devices.'
                : 'No devices have been registered yet.'
            }
          />
        ) : (
          <Table>
            <THead>
              <tr>
                <Th className="w-10">
                  <Checkbox
                    aria-label="Select all online devices"
                    checked={isAllSelected}
                    disabled={actionable.length === 0}
                    onChange={toggleAll}
                  />
                </Th>
                <Th>Device</Th>
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
                return (
                  <Tr key={d.id} isSelected={selected.has(d.id) && canAct} data-device-guid={d.device_guid}>
                    <Td>
                      <Checkbox
                        aria-label={`Select ${deviceName(d)}`}
                        checked={selected.has(d.id) && canAct}
                        disabled={!canAct}
                        onChange={() => toggle(d.id)}
                      />
                    </Td>
                    <Td>
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
                    <Td className="whitespace-nowrap">
                      <div>{osParts(d).name}</div>
                      {osParts(d).build && (
                        <div className="text-xs text-slate-500 dark:text-slate-400">{osParts(d).build}</div>
                      )}
                    </Td>
                    <Td className="whitespace-nowrap">{d.site_name ?? 'No site'}</Td>
                    <Td className="whitespace-nowrap" title={formatDateTime(d.last_seen)}>
                      {relativeTime(d.last_seen)}
                    </Td>
                    <Td className="text-right">
                      {canAct ? (
                        <div className="flex justify-end gap-0.5">
                          <DeployPackageButton iconOnly />
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
                        <span className="text-xs font-medium text-slate-400 dark:text-slate-500">
                          Offline
                        </span>
                      )}
                    </Td>
                  </Tr>
                );
              })}
            </TBody>
          </Table>
        )}
        {rows && rows.length > 0 && (
          <ListFooter
            shown={rows.length}
            total={total}
            page={page}
            totalPages={totalPages}
            pageSize={limit}
            onPageChange={(p) => {
              setPage(p);
              setSelected(new Set());
            }}
            onPageSizeChange={resetPage(setLimit)}
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
