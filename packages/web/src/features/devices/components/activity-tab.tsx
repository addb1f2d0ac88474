import type { ReactNode } from 'react';
import { CalendarDays, Clock, History, LogIn, LogOut, Power, PowerOff } from 'lucide-react';
import type { ActivityLogEntry, ActivityEventType, WeeklySummaryRow } from '@outpost/contract/activity';
import { activityMessages } from '@outpost/contract/activity';
import type { Device } from '@outpost/contract/devices';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { Card, CardHeader } from '../../../components/ui/card';
import { ActivityChart } from './activity-chart';
import { QueryState } from '../../../components/ui/states';
import {
  activityErrorText,
  useDeviceActivityChart,
  useDeviceActivityLog,
  useDeviceWeeklySummary,
} from '../../../lib/api/activity';
import { cn } from '../../../lib/cn';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { shortSessionId } from '../lib/activity-slots';

// spec: core §2 Device detail, Device Activity tab: a 12-hour chart with one row per hourly slot
// (slots beyond the current hour marked as future), a 7-day login summary table (Day, Sessions,
// Hours Logged In) and a scrollable Recent Activity Log; §8 'Failed to load device activity'.

const loadError = (error: unknown) => {
  if (!error) {
    return null;
  }
  // The title already says 'Failed to load device activity'; below it, the server's text if any.
  const text = activityErrorText(error, activityMessages.deviceActivityLoad);
  return text === activityMessages.deviceActivityLoad ? '' : text;
};

export function WeeklyTable({ rows }: { rows: WeeklySummaryRow[] }) {
  const last = rows.length - 1;
  const max = Math.max(1, ...rows.map((r) => r.total_login_hours));
  return (
    <div className="@container overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="7-day login summary">
        <thead className="bg-slate-50/80 dark:bg-slate-900/60">
          <tr className="text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
            <th scope="col" className="px-4 py-2 sm:px-5.5">
              Day
            </th>
            <th scope="col" className="px-3 py-2.5 text-right">
              Sessions
            </th>
            <th scope="col" className="py-2.5 pr-5 pl-3 text-right @sm:whitespace-nowrap">
              Hours Logged In
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800/80">
          {rows.map((r, i) => (
            <tr key={r.activity_date} className={cn(i === last && 'bg-indigo-50/40 dark:bg-indigo-500/5')}>
              <td className="px-4 py-2 sm:px-5.5">
                {/* a flex row, so that a narrow card puts Today under a long day name (there is no
                    space between them to break at) instead of pushing the hours out of the card */}
                <div className="flex flex-wrap items-baseline gap-x-2 font-medium text-slate-900 dark:text-white">
                  {r.day_name}
                  {i === last && (
                    <span className="text-[11px] font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
                      Today
                    </span>
                  )}
                </div>
                <div className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
                  {r.activity_date}
                </div>
              </td>
              <td className="px-3 py-2.5 text-right text-slate-700 tabular-nums dark:text-slate-300">
                {r.total_sessions}
              </td>
              <td className="py-2.5 pr-5 pl-3">
                <div className="flex items-center justify-end gap-2">
                  <div className="hidden h-1.5 w-16 overflow-hidden rounded-full bg-slate-100 @sm:block dark:bg-slate-800">
                    <div
                      className="h-full rounded-full bg-indigo-500"
                      style={{ width: `${(r.total_login_hours / max) * 100}%` }}
                    />
                  </div>
                  <span className="w-12 text-right font-medium text-slate-900 tabular-nums dark:text-white">
                    {r.total_login_hours.toFixed(1)}
                  </span>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// ---------- the log ----------

const EVENTS: Record<ActivityEventType, { label: string; tone: Tone; icon: ReactNode }> = {
  online: { label: 'Online', tone: 'green', icon: <Power className="size-3" /> },
  offline: { label: 'Offline', tone: 'gray', icon: <PowerOff className="size-3" /> },
  login: { label: 'Login', tone: 'indigo', icon: <LogIn className="size-3" /> },
  logout: { label: 'Logout', tone: 'yellow', icon: <LogOut className="size-3" /> },
};

const headCell =
  'sticky top-0 z-[1] bg-slate-50 px-3 py-2.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase first:pl-5 last:pr-5 dark:bg-slate-900 dark:text-slate-400';
const cell = 'px-3 py-2.5 text-slate-700 first:pl-5 last:pr-5 dark:text-slate-300';

export function ActivityLog({ entries }: { entries: ActivityLogEntry[] }) {
  return (
    // The log scrolls inside its card; it takes focus so keyboard users can scroll it.
    <div className="max-h-[26rem] overflow-auto" tabIndex={0} role="region" aria-label="Recent activity log">
      <table className="min-w-full text-sm">
        <thead>
          <tr>
            <th scope="col" className={headCell}>
              Event
            </th>
            <th scope="col" className={headCell}>
              Time
            </th>
            <th scope="col" className={headCell}>
              User
            </th>
            <th scope="col" className={headCell}>
              IP Address
            </th>
            <th scope="col" className={headCell}>
              Session
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800/80">
          {entries.map((e) => {
            const ev = EVENTS[e.event_type];
            return (
              <tr key={e.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
                <td className={cell}>
                  <Badge tone={ev.tone} className="gap-1">
                    {ev.icon}
                    {ev.label}
                  </Badge>
                </td>
                <td className={cn(cell, 'whitespace-nowrap')}>
                  <div className="tabular-nums">{formatDateTime(e.event_timestamp)}</div>
                  <div className="text-xs text-slate-500 dark:text-slate-400">
                    {relativeTime(e.event_timestamp)}
                  </div>
                </td>
                <td className={cell}>
                  {e.user_name ?? <span className="text-slate-500 dark:text-slate-400">—</span>}
                </td>
                <td className={cn(cell, 'font-mono text-xs')}>
                  {e.ip_address ?? <span className="font-sans text-slate-500 dark:text-slate-400">—</span>}
                </td>
                <td className={cn(cell, 'font-mono text-xs')} title={e.session_id ?? undefined}>
                  {shortSessionId(e.session_id)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

// ---------- the tab ----------

export function ActivityTab({ device }: { device: Device }) {
  const chart = useDeviceActivityChart(device.device_guid);
  const weekly = useDeviceWeeklySummary(device.device_guid);
  const log = useDeviceActivityLog(device.device_guid);
  const retry = (q: { refetch: () => Promise<unknown> }) => () => void q.refetch();

  return (
    <div className="space-y-6">
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <Card>
          <CardHeader
            title={
              <span className="flex items-center gap-2">
                <Clock className="size-4 text-slate-400" aria-hidden />
                Last 12 Hours
              </span>
            }
            description="User sessions and online time per hour"
          />
          <QueryState
            isPending={chart.isPending}
            failures={chart}
            error={loadError(chart.error)}
            errorTitle={activityMessages.deviceActivityLoad}
            onRetry={retry(chart)}
            isEmpty={(chart.data ?? []).length === 0}
            empty={{ title: 'No activity in the last 12 hours' }}
            loadingLabel="Loading activity chart"
          >
            {/* now is when the chart was read, so the current hour's passed part matches its figures */}
            <ActivityChart slots={chart.data ?? []} now={chart.dataUpdatedAt} />
          </QueryState>
        </Card>
        <Card className="self-start">
          <CardHeader
            title={
              <span className="flex items-center gap-2">
                <CalendarDays className="size-4 text-slate-400" aria-hidden />
                Last 7 Days
              </span>
            }
            description="Logins per day (UTC)"
          />
          <QueryState
            isPending={weekly.isPending}
            failures={weekly}
            error={loadError(weekly.error)}
            errorTitle={activityMessages.deviceActivityLoad}
            onRetry={retry(weekly)}
            isEmpty={(weekly.data ?? []).length === 0}
            empty={{ title: 'No logins in the last 7 days' }}
            loadingLabel="Loading weekly summary"
          >
            <WeeklyTable rows={weekly.data ?? []} />
          </QueryState>
        </Card>
      </div>
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              <History className="size-4 text-slate-400" aria-hidden />
              Recent Activity Log
            </span>
          }
          description="Online, offline, login and logout events of the last 7 days, newest first"
          actions={
            log.data ? (
              <span className="text-sm text-slate-500 dark:text-slate-400">
                {log.data.length} {log.data.length === 1 ? 'event' : 'events'}
              </span>
            ) : undefined
          }
        />
        <QueryState
          isPending={log.isPending}
          failures={log}
          error={loadError(log.error)}
          errorTitle={activityMessages.deviceActivityLoad}
          onRetry={retry(log)}
          isEmpty={(log.data ?? []).length === 0}
          empty={{
            icon: <History className="size-6" />,
            title: 'No activity recorded',
            message: 'Presence changes and user logins of this device will appear here.',
          }}
          loadingLabel="Loading activity log"
        >
          <ActivityLog entries={log.data ?? []} />
        </QueryState>
      </Card>
    </div>
  );
}
