import type { ReactNode } from 'react';
import { Activity, CalendarDays, PencilLine, PlusCircle, Trophy, Users } from 'lucide-react';
import { AUDIT_ACTIVITY_DAYS_SHOWN, AUDIT_TOP_USERS_SHOWN } from '@outpost/contract/audit';
import { roleLabel } from '@outpost/contract/auth';
import { Card, CardHeader } from '../../../components/ui/card';
import type { AuditStats } from '../api/audit';
import { initials } from '../../../lib/format';
import { dayLabel } from '../lib/audit-format';

function StatCard({
  label,
  value,
  icon,
  tint,
}: {
  label: string;
  value: number;
  icon: ReactNode;
  tint: string;
}) {
  return (
    <Card className="p-5">
      <div className="flex items-center justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</p>
          <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums dark:text-white">
            {value.toLocaleString()}
          </p>
        </div>
        <div className={`flex size-10 items-center justify-center rounded-lg ${tint}`}>{icon}</div>
      </div>
    </Card>
  );
}

/** docs/product/activity.md#audit-log — four summary cards, each 0 when the stats leave it out. */
export function AuditSummaryCards({ stats }: { stats: AuditStats }) {
  const s: Partial<AuditStats['summary']> = stats.summary ?? {};
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        label="Total Actions"
        value={s.total_actions ?? 0}
        icon={<Activity className="size-5" />}
        tint="bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400"
      />
      <StatCard
        label="Create Actions"
        value={s.create_actions ?? 0}
        icon={<PlusCircle className="size-5" />}
        tint="bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400"
      />
      <StatCard
        label="Update Actions"
        value={s.update_actions ?? 0}
        icon={<PencilLine className="size-5" />}
        tint="bg-sky-50 text-sky-600 dark:bg-sky-500/10 dark:text-sky-400"
      />
      <StatCard
        label="Active Users"
        value={s.active_users ?? 0}
        icon={<Users className="size-5" />}
        tint="bg-violet-50 text-violet-600 dark:bg-violet-500/10 dark:text-violet-400"
      />
    </div>
  );
}

/** docs/product/activity.md#audit-log — Activity by Day (first 7 entries) and Most Active Users (first 5). */
export function AuditActivityPanels({ stats }: { stats: AuditStats }) {
  const days = (stats.activity_by_day ?? []).slice(0, AUDIT_ACTIVITY_DAYS_SHOWN);
  const users = (stats.top_users ?? []).slice(0, AUDIT_TOP_USERS_SHOWN);
  const maxDay = Math.max(1, ...days.map((d) => d.activity_count));
  const maxUser = Math.max(1, ...users.map((u) => u.action_count));
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-2">
      <Card className="min-w-0">
        <CardHeader title={`Activity by Day (Last ${stats.period_days} Days)`} />
        {days.length === 0 ? (
          <p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">
            No activity in this period.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {days.map((d) => (
              <li key={d.date} className="flex items-center gap-4 px-5 py-3">
                <CalendarDays className="size-4 shrink-0 text-slate-400" aria-hidden />
                <span className="w-28 shrink-0 text-sm font-medium text-slate-900 dark:text-white">
                  {dayLabel(d.date)}
                </span>
                <div className="hidden h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100 sm:block dark:bg-slate-800">
                  <div
                    className="h-full rounded-full bg-indigo-500"
                    style={{ width: `${(d.activity_count / maxDay) * 100}%` }}
                  />
                </div>
                <span className="ml-auto text-sm whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-300">
                  {d.activity_count} {d.activity_count === 1 ? 'action' : 'actions'}
                </span>
                <span className="w-16 text-right text-sm whitespace-nowrap text-slate-500 tabular-nums dark:text-slate-400">
                  {d.unique_users} {d.unique_users === 1 ? 'user' : 'users'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card className="min-w-0">
        <CardHeader title={`Most Active Users (Last ${stats.period_days} Days)`} />
        {users.length === 0 ? (
          <p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">
            No activity in this period.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {users.map((u, i) => (
              <li key={`${u.user_email ?? ''}-${i}`} className="flex items-center gap-3 px-5 py-3">
                <span
                  aria-hidden
                  className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700 dark:bg-indigo-500/20 dark:text-indigo-300"
                >
                  {i === 0 ? <Trophy className="size-4" /> : initials(u.user_name, u.user_email)}
                </span>
                <div className="min-w-0 flex-1">
                  <p
                    title={u.user_name ?? undefined}
                    className="truncate text-sm font-medium text-slate-900 dark:text-white"
                  >
                    {u.user_name || 'Unknown'}
                    {u.user_role && (
                      <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">
                        {roleLabel(u.user_role, true)}
                      </span>
                    )}
                  </p>
                  <p
                    title={u.user_email ?? undefined}
                    className="truncate text-xs text-slate-500 dark:text-slate-400"
                  >
                    {u.user_email}
                  </p>
                  <div className="mt-1.5 h-1 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
                    <div
                      className="h-full rounded-full bg-violet-500"
                      style={{ width: `${(u.action_count / maxUser) * 100}%` }}
                    />
                  </div>
                </div>
                <span className="text-sm font-semibold whitespace-nowrap text-slate-900 tabular-nums dark:text-white">
                  {u.action_count}
                  <span className="ml-1 font-normal text-slate-500 dark:text-slate-400">
                    {u.action_count === 1 ? 'action' : 'actions'}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
