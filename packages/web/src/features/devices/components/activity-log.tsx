import type { ReactNode } from 'react';
import { LogIn, LogOut, MemoryStick, Power, PowerOff } from 'lucide-react';
import type { ActivityEventType, ActivityLogEntry } from '@outpost/contract/activity';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { shortSessionId } from '../lib/activity-slots';

// docs/product/activity.md#device-activity-tab — a scrollable Recent Activity Log.

const EVENTS: Record<ActivityEventType, { label: string; tone: Tone; icon: ReactNode }> = {
  online: { label: 'Online', tone: 'green', icon: <Power className="size-3" /> },
  offline: { label: 'Offline', tone: 'gray', icon: <PowerOff className="size-3" /> },
  login: { label: 'Login', tone: 'indigo', icon: <LogIn className="size-3" /> },
  logout: { label: 'Logout', tone: 'yellow', icon: <LogOut className="size-3" /> },
  memory_limit: { label: 'Memory limit', tone: 'red', icon: <MemoryStick className="size-3" /> },
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
                {e.detail !== null ? (
                  // a notice of the agent (memory_limit): what it said, across the session columns
                  <td colSpan={3} className={cn(cell, 'text-xs')}>
                    {e.detail}
                  </td>
                ) : (
                  <>
                    <td className={cell}>
                      {e.user_name ?? <span className="text-slate-500 dark:text-slate-400">—</span>}
                    </td>
                    <td className={cn(cell, 'font-mono text-xs')}>
                      {e.ip_address ?? (
                        <span className="font-sans text-slate-500 dark:text-slate-400">—</span>
                      )}
                    </td>
                    <td className={cn(cell, 'font-mono text-xs')} title={e.session_id ?? undefined}>
                      {shortSessionId(e.session_id)}
                    </td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
