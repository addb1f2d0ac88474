import type { WeeklySummaryRow } from '@outpost/contract/activity';
import { cn } from '../../../lib/cn';

// docs/product/activity.md#device-activity-tab — a 7-day login summary table (Day, Sessions, Hours Logged In).

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
