import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  Activity,
  AppWindow,
  ArrowLeft,
  Cog,
  FolderOpen,
  Gauge,
  LayoutDashboard,
  Monitor,
  Network,
  SquareTerminal,
} from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import { deviceKey as channelKey } from '@outpost/contract/live';
import { deviceMessages } from '@outpost/contract/messages';
import { StatusBadge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { Tabs } from '../../../components/ui/tabs';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { relativeTime } from '../../../lib/format';
import { noteDeviceStatuses } from '../../../lib/device-presence';
import { deviceActivityKey } from '../../../lib/api/activity';
import { useLiveMessages, useLiveSocket, useSubscriptions } from '../../../lib/socket';
import { deviceKey, useDevice } from '../api/get-device';
import { deviceServicesKey } from '../api/get-device-services';
import { deviceSoftwareKey } from '../api/get-device-software';
import { ActivityTab } from '../components/activity-tab';
import {
  DeviceAlertsBadge,
  DeviceMaintenanceBanner,
  DeviceHeaderActions,
} from '../components/device-monitoring';
import { DeviceTags } from '../components/device-tags';
import { NetworkingTab } from '../components/networking-tab';
import { OverviewTab } from '../components/overview-tab';
import { LazyMonitoringTab } from '../components/monitoring/lazy-monitoring-tab';
import { ServicesTab } from '../components/services-tab';
import { LazyTerminalTab, useTerminalTabAllowed } from '../components/terminal/lazy-terminal-tab';
import { SoftwareTab } from '../components/software-tab';
import { FilesTab } from '../components/files-tab';
import { useMayMoveFiles } from '../../../lib/api/remote-access';
import { deviceName, osLabel } from '../lib/device-format';
import { applyDeviceUpdate, asDeviceUpdate } from '../lib/use-live-devices';

const TABS = [
  'overview',
  'activity',
  'networking',
  'software',
  'services',
  'monitoring',
  'terminal',
  'files',
] as const;
type TabKey = (typeof TABS)[number];
const isTab = (v: string | null): v is TabKey => TABS.includes(v as TabKey);
/** The tabs every device has; the Terminal and Files tabs follow the remote access settings. */
const DEVICE_TABS = [
  { key: 'overview' as const, label: 'Overview', icon: <LayoutDashboard className="size-4" /> },
  { key: 'activity' as const, label: 'Device Activity', icon: <Activity className="size-4" /> },
  { key: 'networking' as const, label: 'Networking', icon: <Network className="size-4" /> },
  { key: 'software' as const, label: 'Software', icon: <AppWindow className="size-4" /> },
  { key: 'services' as const, label: 'Services', icon: <Cog className="size-4" /> },
  { key: 'monitoring' as const, label: 'Monitoring', icon: <Gauge className="size-4" /> },
];
const TERMINAL_TAB = {
  key: 'terminal' as const,
  label: 'Terminal',
  icon: <SquareTerminal className="size-4" />,
};
// the Files tab shows when the organisation lets the caller move files (docs/product/remote-access.md)
const FILES_TAB = { key: 'files' as const, label: 'Files', icon: <FolderOpen className="size-4" /> };
const pickTab = (asked: string | null, mayMoveFiles: boolean): TabKey =>
  !isTab(asked) || (asked === 'files' && !mayMoveFiles) ? 'overview' : asked;

// docs/product/devices.md#device-detail Device detail (/devices/{guid}).
export default function DeviceDetailPage() {
  const { deviceGuid = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const mayMoveFiles = useMayMoveFiles();
  const tab = pickTab(params.get('tab'), mayMoveFiles);
  const user = useUser();
  const queryClient = useQueryClient();
  const query = useDevice(deviceGuid);
  const device = query.data;
  const terminalAllowed = useTerminalTabAllowed(); // docs/product/remote-access.md#terminal
  const { status } = useLiveSocket();
  useSubscriptions(status === 'connected' && device ? [channelKey(device.device_guid)] : []);
  useEffect(() => {
    if (device) {
      noteDeviceStatuses([device]);
    }
  }, [device]);
  useLiveMessages((message) => {
    const update = asDeviceUpdate(message);
    if (!update || !device || update.deviceId !== device.device_guid) {
      return;
    }
    queryClient.setQueryData(deviceKey(user.tenant_id, deviceGuid), (old: Device | undefined) =>
      old ? applyDeviceUpdate(old, update) : old,
    );
    // Going online or offline is an activity event (and closes open sessions).
    if (update.status !== device.status) {
      void queryClient.invalidateQueries({ queryKey: deviceActivityKey(user.tenant_id, device.device_guid) });
    }
    // New inventory arrived: reload what changed.
    if (update.inventory?.some((k) => k === 'hardware' || k === 'network')) {
      void queryClient.invalidateQueries({ queryKey: deviceKey(user.tenant_id, deviceGuid) });
    }
    if (update.inventory?.includes('services')) {
      void queryClient.invalidateQueries({ queryKey: deviceServicesKey(user.tenant_id, device.device_guid) });
    }
    if (update.inventory?.includes('software')) {
      void queryClient.invalidateQueries({ queryKey: deviceSoftwareKey(user.tenant_id, device.device_guid) });
    }
  });

  const reloadAll = () => {
    void query.refetch();
    if (device) {
      void queryClient.invalidateQueries({ queryKey: deviceServicesKey(user.tenant_id, device.device_guid) });
      void queryClient.invalidateQueries({ queryKey: deviceSoftwareKey(user.tenant_id, device.device_guid) });
      void queryClient.invalidateQueries({ queryKey: deviceActivityKey(user.tenant_id, device.device_guid) });
    }
  };

  const back = (
    <Link
      to="/devices"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200"
    >
      <ArrowLeft className="size-4" />
      Back to Devices
    </Link>
  );

  // Also while Try Again reloads a device that failed to load.
  if (query.isPending || (query.isFetching && !device)) {
    return (
      <>
        {back}
        <div className="flex justify-center py-24">
          <Spinner className="size-8 text-indigo-600" label="Loading device" />
        </div>
      </>
    );
  }
  // "Device not found" only when the server says so (a 404); a 5xx, a timeout or no network is a
  // failure to load, with Try Again (docs/product/devices.md#device-detail 'Failed to load device').
  const isMissing =
    (query.isError && query.error instanceof ApiError && query.error.status === 404) ||
    (query.isSuccess && !device);
  if (isMissing || query.isError || !device) {
    return (
      <>
        {back}
        <Card>
          {isMissing ? (
            <EmptyState
              icon={<Monitor className="size-6" />}
              title={deviceMessages.deviceNotFound}
              message="It may have been removed, or it belongs to a site you cannot see."
            />
          ) : (
            <ErrorState
              title={deviceMessages.deviceLoad}
              message={errorMessage(query.error, deviceMessages.deviceLoad)}
              onRetry={() => void query.refetch()}
            />
          )}
        </Card>
      </>
    );
  }

  return (
    <>
      {back}
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-4">
          <div className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400">
            <Monitor className="size-6" />
          </div>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">
                {deviceName(device)}
              </h1>
              <StatusBadge status={device.status} />
              <DeviceAlertsBadge guid={device.device_guid} />
            </div>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
              {osLabel(device)} · {device.ip_address ?? 'No IP'} · {device.site_name ?? 'No site'} · Last seen{' '}
              {relativeTime(device.last_seen).toLowerCase()}
            </p>
            <DeviceTags deviceId={device.id} name={deviceName(device)} />
          </div>
        </div>
        <DeviceHeaderActions device={device} isFetching={query.isFetching} onRefresh={reloadAll} />
      </div>
      <DeviceMaintenanceBanner guid={device.device_guid} />
      <div className="mb-6">
        <Tabs<TabKey>
          active={tab}
          onChange={(key) => setParams(key === 'overview' ? {} : { tab: key }, { replace: true })}
          tabs={[
            ...DEVICE_TABS,
            ...(terminalAllowed ? [TERMINAL_TAB] : []),
            ...(mayMoveFiles ? [FILES_TAB] : []),
          ]}
        />
      </div>
      {tab === 'overview' && <OverviewTab device={device} onReload={() => void query.refetch()} />}
      {tab === 'activity' && <ActivityTab device={device} />}
      {tab === 'networking' && <NetworkingTab device={device} onReload={() => void query.refetch()} />}
      {tab === 'software' && <SoftwareTab device={device} />}
      {tab === 'services' && <ServicesTab device={device} />}
      {tab === 'monitoring' && <LazyMonitoringTab device={device} />}
      {tab === 'terminal' && terminalAllowed && <LazyTerminalTab device={device} />}
      {tab === 'files' && <FilesTab device={device} />}
    </>
  );
}
