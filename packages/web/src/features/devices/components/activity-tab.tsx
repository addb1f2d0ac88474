import { CalendarDays, Clock, History } from 'lucide-react';
import { activityMessages } from '@outpost/contract/activity';
import type { Device } from '@outpost/contract/devices';
import { Card, CardHeader } from '../../../components/ui/card';
import { QueryState } from '../../../components/ui/states';
import {
  activityErrorText,
  useDeviceActivityChart,
  useDeviceActivityLog,
  useDeviceWeeklySummary,
} from '../../../lib/api/activity';
import { ActivityChart } from './activity-chart';
import { ActivityLog } from './activity-log';
import { WeeklyTable } from './weekly-table';

// docs/product/devices.md#device-detail, Device Activity tab: a 12-hour chart with one row per hourly slot
// (slots beyond the current hour marked as future), a 7-day login summary table (Day, Sessions,
// Hours Logged In) and a scrollable Recent Activity Log; docs/product/activity.md#device-activity-tab 'Failed to load device activity'.

const loadError = (error: unknown) => {
  if (!error) {
    return null;
  }
  // The title already says 'Failed to load device activity'; below it, the server's text if any.
  const text = activityErrorText(error, activityMessages.deviceActivityLoad);
  return text === activityMessages.deviceActivityLoad ? '' : text;
};

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
