import { Link } from 'react-router';
import { ArrowRight, ChevronRight, Loader, Monitor, Package, Wifi } from 'lucide-react';
import { deviceMessages } from '@outpost/contract/messages';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { relativeTime } from '../../../lib/format';
import { useDashboardStats } from '../api/get-dashboard-stats';

import { OpenAlertsTile } from '../components/open-alerts-tile';
import { LicensePanel, RecentSoftwarePanel, Tile, percent } from '../components/dashboard-panels';

export default function DashboardPage() {
  const query = useDashboardStats();
  const header = (
    <PageHeader title="Dashboard" description="Your fleet, deployments and licence at a glance." />
  );
  if (query.isPending) {
    return (
      <>
        {header}
        <PageSpinner label="Loading dashboard..." />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {header}
        <Card>
          <ErrorState
            title="Error loading dashboard"
            message={errorMessage(query.error, deviceMessages.dashboardLoad)}
            onRetry={() => void query.refetch()}
          />
        </Card>
      </>
    );
  }
  const s = query.data;
  const { total, online } = s.deviceCounts;
  return (
    <>
      {header}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Tile
          label="Total Devices"
          value={total}
          hint={s.tenant.max_agents ? `of ${s.tenant.max_agents} max` : 'No device limit'}
          icon={<Monitor className="size-5" />}
          accent="bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400"
        />
        <Tile
          label="Online Devices"
          value={online}
          hint={`${percent(online, total)}% of all devices`}
          icon={<Wifi className="size-5" />}
          accent="bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400"
        />
        <Tile
          label="Running Deployments"
          value={s.runningDeployments}
          hint="Currently installing"
          icon={<Loader className="size-5" />}
          accent="bg-sky-50 text-sky-600 dark:bg-sky-500/10 dark:text-sky-400"
        />
        <Tile
          label="Deployment Packages"
          value={s.totalPackages}
          hint="Available for install"
          icon={<Package className="size-5" />}
          accent="bg-violet-50 text-violet-600 dark:bg-violet-500/10 dark:text-violet-400"
        />
      </div>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="min-w-0 self-start lg:col-span-2">
          <CardHeader
            title="Recent Device Activity"
            actions={
              <Link to="/devices">
                <Button size="sm" variant="ghost" icon={<ArrowRight className="size-3.5" />}>
                  View All Devices
                </Button>
              </Link>
            }
          />
          {s.recentDevices.length === 0 ? (
            <EmptyState icon={<Monitor className="size-6" />} title={deviceMessages.noDevicesFound} />
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {s.recentDevices.map((d) => (
                <li key={d.id}>
                  <Link
                    to={`/devices/${d.device_guid}`}
                    className="flex items-center gap-3 px-5 py-3 transition-colors hover:bg-slate-50 dark:hover:bg-slate-800/40"
                  >
                    <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
                      <Monitor className="size-4" />
                    </div>
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
                        {d.hostname || `Device ${d.id}`}
                      </p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        {relativeTime(d.last_seen)}
                      </p>
                    </div>
                    <StatusBadge status={d.status} />
                    <ChevronRight className="size-4 text-slate-300 dark:text-slate-600" />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <div className="min-w-0 space-y-6">
          <OpenAlertsTile />
          <LicensePanel tenant={s.tenant} total={total} />
          <RecentSoftwarePanel stats={s} />
        </div>
      </div>
    </>
  );
}
