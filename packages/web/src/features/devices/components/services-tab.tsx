import { useState } from 'react';
import { Cog } from 'lucide-react';
import type { Device, ServiceAction } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/form';
import { SearchInput } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useControlService } from '../api/control-service';
import { useDeviceServices } from '../api/get-device-services';
import { RefreshInventoryButton } from './refresh-button';
import { ServicesTable } from './services-table';

const FILTERS = ['Running', 'Stopped', 'Paused', 'Other'] as const;
const KNOWN = new Set(['Running', 'Stopped', 'Paused']);

// docs/product/devices.md#services Service control (Start only when Stopped; Stop and Restart only when
// Running; the list reloads after an action), docs/product/devices.md#device-detail messages.
export function ServicesTab({ device }: { device: Device }) {
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const query = useDeviceServices(device.device_guid);
  const control = useControlService();
  const [busy, setBusy] = useState<string | null>(null);
  const isOffline = device.status === 'offline';

  const term = search.trim().toLowerCase();
  const list = (query.data ?? []).filter(
    (s) =>
      (!term || s.serviceName.toLowerCase().includes(term) || s.displayName.toLowerCase().includes(term)) &&
      (!status || (status === 'Other' ? !KNOWN.has(s.status) : s.status === status)),
  );

  const run = (serviceName: string, action: ServiceAction) => {
    setBusy(`${serviceName}:${action}`);
    control.mutate(
      { idOrGuid: device.device_guid, serviceName, action },
      {
        onSuccess: () =>
          toast.show({
            type: 'success',
            title: deviceMessages.serviceActionDone(action),
            message: serviceName,
          }),
        onError: (err) =>
          toast.show({
            type: 'error',
            title: deviceMessages.serviceActionFailed(action),
            message: errorMessage(err, deviceMessages.serviceActionFailed(action)),
          }),
        onSettled: () => setBusy(null),
      },
    );
  };

  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center dark:border-slate-800">
        <SearchInput
          value={search}
          onChange={setSearch}
          placeholder="Search services..."
          label="Search services"
        />
        <div className="w-full sm:w-40">
          <Select
            aria-label="Service status"

            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            <option value="">All statuses</option>
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-1 items-center justify-end gap-3">
          {query.data && (
            <span className="text-sm text-slate-500 dark:text-slate-400">
              {list.length} of {query.data.length}
            </span>
          )}
          <RefreshInventoryButton
            idOrGuid={device.device_guid}
            kind="services"
            onReload={() => void query.refetch()}
            isDisabled={isOffline}
          />
        </div>
      </div>
      {isOffline && (
        <p className="border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-500 dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400">
          The device is offline: services show what it last reported and cannot be controlled until it
          reconnects.
        </p>
      )}
      {query.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-6 text-indigo-600" label="Loading services" />
        </div>
      ) : query.isError ? (
        <ErrorState
          title={deviceMessages.servicesLoad}
          message={errorMessage(query.error, deviceMessages.servicesLoad)}
          onRetry={() => void query.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Cog className="size-6" />}
          title="No services found"
          message={
            query.data.length
              ? 'No service matches your filters.'
              : 'The agent has not reported services yet.'
          }
        />
      ) : (
        <ServicesTable services={list} busy={busy} isOffline={isOffline} onRun={run} />
      )}
    </Card>
  );
}
