import { ArrowRight, Box, Package } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DashboardStats } from '@outpost/contract/devices';
import { RECENT_SOFTWARE_DAYS } from '@outpost/contract/devices';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/states';
import { cn } from '../../../lib/cn';
import { formatDate, relativeTime } from '../../../lib/format';

export function Tile({
  label,
  value,
  hint,
  icon,
  accent,
}: {
  label: string;
  value: ReactNode;
  hint: ReactNode;
  icon: ReactNode;
  accent: string;
}) {
  return (
    <Card className="p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</p>
          <p className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">
            {value}
          </p>
        </div>
        <div className={cn('flex size-11 shrink-0 items-center justify-center rounded-xl', accent)}>
          {icon}
        </div>
      </div>
      <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">{hint}</p>
    </Card>
  );
}

export const percent = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 100) : 0);

export function LicensePanel({ tenant, total }: { tenant: DashboardStats['tenant']; total: number }) {
  if (!tenant.license_expiry) {
    return null;
  }
  const max = tenant.max_agents;
  const used = max ? percent(total, max) : 0;
  return (
    <Card>
      <CardHeader title="License Status" />
      <dl className="space-y-4 px-5 py-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-500 dark:text-slate-400">Expires</dt>
          <dd className="font-medium text-slate-900 dark:text-white">{formatDate(tenant.license_expiry)}</dd>
        </div>
        {/* A dl's groups are divs holding dt and dd directly: the usage bar is a second dd. */}
        <div className="flex flex-wrap justify-between gap-x-4 gap-y-2">
          <dt className="text-slate-500 dark:text-slate-400">Device usage</dt>
          <dd className="font-medium text-slate-900 tabular-nums dark:text-white">
            {max ? `${total} / ${max}` : 'Unlimited'}
          </dd>
          {max ? (
            <dd
              className="h-2 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
              aria-hidden
            >
              <div
                className={cn(
                  'h-full rounded-full',
                  used > 90 ? 'bg-red-500' : used > 75 ? 'bg-amber-400' : 'bg-indigo-500',
                )}
                style={{ width: `${Math.min(100, used)}%` }}
              />
            </dd>
          ) : null}
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-500 dark:text-slate-400">Plan</dt>
          <dd className="font-medium text-slate-900 dark:text-white">{tenant.plan || 'Standard'}</dd>
        </div>
      </dl>
    </Card>
  );
}

export function RecentSoftwarePanel({ stats }: { stats: DashboardStats }) {
  return (
    <Card>
      <CardHeader
        title="Recently Discovered Software"
        description={`First seen on your devices in the last ${RECENT_SOFTWARE_DAYS} days`}
      />
      {stats.recentSoftware.length === 0 ? (
        <EmptyState
          icon={<Box className="size-6" />}
          title="No new software"
          message="Nothing new has been installed recently."
        />
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {stats.recentSoftware.map((s) => (
            <li key={s.name} className="flex items-center gap-3 px-5 py-3">
              <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
                <Package className="size-4" />
              </div>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-slate-900 dark:text-white">{s.name}</p>
                <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                  {[s.publisher, s.version].filter(Boolean).join(' · ') || 'Unknown publisher'}
                </p>
              </div>
              <div className="text-right text-xs text-slate-500 dark:text-slate-400">
                <p className="font-medium text-slate-700 dark:text-slate-300">
                  {s.device_count} {s.device_count === 1 ? 'device' : 'devices'}
                </p>
                <p>{relativeTime(s.first_seen_at)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="border-t border-slate-200 px-5 py-3 dark:border-slate-800">
        {/* the fleet's software (docs/product/device-sets.md#fleet-software) */}
        <Link
          to="/software"
          className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium whitespace-nowrap text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
        >
          <ArrowRight className="size-3.5" aria-hidden />
          View All Software
        </Link>
      </div>
    </Card>
  );
}

// docs/product/devices.md#dashboard (load error) relative time bands.
