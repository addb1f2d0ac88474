import { Network } from 'lucide-react';
import type { Device } from '@outpost/contract/devices';
import { INTERFACE_STATUS_UP } from '@outpost/contract/devices';
import { Badge } from '../../../components/ui/badge';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/states';
import { formatMb } from '../../../lib/format';
import { DetailList } from './detail-list';
import { RefreshInventoryButton } from './refresh-button';

const speedLabel = (mbps: number | null) =>
  mbps === null
    ? 'Unknown'
    : mbps >= 1000
      ? `${(mbps / 1000).toFixed(mbps % 1000 === 0 ? 0 : 1)} Gbps`
      : `${mbps} Mbps`;

export function NetworkingTab({ device, onReload }: { device: Device; onReload: () => void }) {
  const net = device.network_info;
  const interfaces = net?.interfaces ?? [];
  const active = interfaces.filter((i) => i.status === INTERFACE_STATUS_UP);
  const primaryIp =
    active.find((i) => i.ipv4Addresses.length > 0)?.ipv4Addresses[0]?.address ?? device.ip_address ?? '—';
  const refresh = (
    <RefreshInventoryButton
      idOrGuid={device.device_guid}
      kind="network"
      onReload={onReload}
      isDisabled={device.status === 'offline'}
    />
  );
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="External Connection" actions={refresh} />
          <DetailList
            items={[
              ['External IP', net?.externalIp ?? 'Unknown'],
              ['DNS Servers', net && net.dnsServers.length > 0 ? net.dnsServers.join(', ') : 'None reported'],
            ]}
          />
        </Card>
        <Card>
          <CardHeader title="Connection Summary" />
          <div className="grid grid-cols-3 divide-x divide-slate-100 dark:divide-slate-800">
            {[
              ['Total interfaces', String(interfaces.length)],
              ['Active interfaces', String(active.length)],
              ['Primary IP', primaryIp],
            ].map(([label, value]) => (
              <div key={label} className="px-5 py-4">
                <div className="text-xs font-medium text-slate-500 uppercase dark:text-slate-400">
                  {label}
                </div>
                <div className="mt-1 truncate text-lg font-semibold text-slate-900 tabular-nums dark:text-white">
                  {value}
                </div>
              </div>
            ))}
          </div>
        </Card>
      </div>
      <Card>
        <CardHeader title="Network Interfaces" />
        {interfaces.length === 0 ? (
          <EmptyState icon={<Network className="size-6" />} title="No interfaces reported" />
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {interfaces.map((i) => (
              <li key={`${i.name}-${i.macAddress}`} className="px-5 py-4">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900 dark:text-white">{i.name}</span>
                  <Badge tone={i.status === INTERFACE_STATUS_UP ? 'green' : 'gray'} dot>
                    {i.status}
                  </Badge>
                  <span className="text-sm text-slate-500 dark:text-slate-400">{i.description}</span>
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-4">
                  {[
                    ['Type', i.type || 'Unknown'],
                    ['Speed', speedLabel(i.speed)],
                    ['MAC address', i.macAddress || '—'],
                    ['Gateway', i.gateway ?? '—'],
                    ['DHCP', i.dhcpEnabled ? 'Enabled' : 'Disabled'],
                    [
                      'IPv4',
                      i.ipv4Addresses.length
                        ? i.ipv4Addresses.map((a) => `${a.address} / ${a.subnetMask}`).join(', ')
                        : '—',
                    ],
                    ['IPv6', i.ipv6Addresses.length ? i.ipv6Addresses.join(', ') : '—'],
                    ['Received / Sent', `${formatMb(i.bytesReceived)} / ${formatMb(i.bytesSent)}`],
                  ].map(([label, value]) => (
                    <div key={label} className="min-w-0">
                      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
                      <dd className="font-medium break-words text-slate-800 tabular-nums dark:text-slate-200">
                        {value}
                      </dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
