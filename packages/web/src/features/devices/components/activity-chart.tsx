import type { ChartSlot } from '@outpost/contract/activity';
import { cn } from '../../../lib/cn';
import type { SlotState } from '../lib/activity-slots';
import { formatMinutes, minutesElapsed, sessionPosition, slotLabel, slotState } from '../lib/activity-slots';

// docs/product/activity.md#device-activity-tab — a 12-hour chart with one row per hourly slot (slots beyond
// the current hour marked as future).

const futureStripes =
  'bg-[repeating-linear-gradient(135deg,var(--color-slate-200)_0_4px,transparent_4px_8px)] dark:bg-[repeating-linear-gradient(135deg,var(--color-slate-700)_0_4px,transparent_4px_8px)]';

function SlotRow({ slot, now }: { slot: ChartSlot; now: number }) {
  const state: SlotState = slotState(slot, now);
  const elapsed = state === 'current' ? minutesElapsed(slot, now) : 60;
  const isFuture = state === 'future';
  // A passed hour the device spent wholly offline, with nobody logged in.
  const isOffline = !isFuture && slot.online_percentage === 0 && slot.login_minutes === 0;
  return (
    <li
      data-slot-state={state}
      className={cn(
        'grid grid-cols-[3.5rem_1fr_6rem] sm:grid-cols-[4.5rem_1fr_7.5rem] items-center gap-3 px-4 py-2 sm:px-5',
        state === 'current' && 'bg-indigo-50/50 dark:bg-indigo-500/5',
      )}
    >
      <div className="flex flex-col">
        <span
          className={cn(
            'text-sm font-medium tabular-nums',
            isFuture ? 'text-slate-500 dark:text-slate-400' : 'text-slate-700 dark:text-slate-200',
          )}
        >
          {slotLabel(slot)}
        </span>
        {state === 'current' && (
          <span className="text-[11px] font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
            Now
          </span>
        )}
        {isFuture && (
          <span className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
            Future
          </span>
        )}
      </div>
      <div>
        <div className="relative h-6 overflow-hidden rounded-md bg-slate-100 dark:bg-slate-800">
          {isFuture ? (
            <div className={cn('absolute inset-0', futureStripes)} aria-hidden />
          ) : (
            <>
              {slot.sessions.map((s, i) => {
                const pos = sessionPosition(s);
                return (
                  <div
                    key={`${s.user}-${s.start_offset}-${i}`}
                    className="absolute inset-y-0.5 flex items-center overflow-hidden rounded bg-indigo-500 px-1.5 text-[11px] font-medium whitespace-nowrap text-white dark:bg-indigo-500/90"
                    style={{ left: `${pos.left}%`, width: `max(${pos.width}%, 3px)` }}
                    title={`${s.user}: ${formatMinutes(s.duration)} from :${String(Math.round(s.start_offset)).padStart(2, '0')}`}
                    data-testid="chart-session"
                  >
                    {pos.width >= 25 ? s.user : null}
                  </div>
                );
              })}
              {elapsed < 60 && (
                <div
                  className={cn('absolute inset-y-0 right-0 border-l-2 border-indigo-400', futureStripes)}
                  style={{ left: `${(elapsed / 60) * 100}%` }}
                  aria-hidden
                />
              )}
            </>
          )}
        </div>
        <div className="mt-1 h-1 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden>
          {!isFuture && (
            <div
              className="h-full rounded-full bg-emerald-500"
              style={{ width: `${Math.min(100, Math.max(0, slot.online_percentage))}%` }}
            />
          )}
        </div>
      </div>
      <div className="text-right text-xs leading-5 tabular-nums">
        {isFuture ? (
          <span className="text-slate-500 dark:text-slate-400">Not yet</span>
        ) : isOffline ? (
          <span className="text-slate-500 dark:text-slate-400">Offline</span>
        ) : (
          <>
            <div className="font-medium text-slate-700 dark:text-slate-200">
              {formatMinutes(slot.login_minutes)}{' '}
              <span className="hidden font-normal text-slate-500 sm:inline dark:text-slate-400">
                logged in
              </span>
            </div>
            <div className="text-slate-500 dark:text-slate-400">
              {Math.round(slot.online_percentage)}% online
            </div>
          </>
        )}
      </div>
    </li>
  );
}

function Legend() {
  const item = (swatch: string, label: string) => (
    <span className="flex items-center gap-1.5">
      <span className={cn('inline-block h-2.5 w-4 rounded-sm', swatch)} aria-hidden />
      {label}
    </span>
  );
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
      {item('bg-indigo-500', 'User session')}
      {item('bg-emerald-500', 'Online')}
      {item(cn('bg-slate-100 dark:bg-slate-800', futureStripes), 'Future')}
    </div>
  );
}

export function ActivityChart({ slots, now }: { slots: ChartSlot[]; now: number }) {
  return (
    <div>
      <div
        className="grid grid-cols-[3.5rem_1fr_6rem] sm:grid-cols-[4.5rem_1fr_7.5rem] gap-3 px-4 pt-3 pb-1 sm:px-5 text-[11px] text-slate-500 tabular-nums dark:text-slate-400"
        aria-hidden
      >
        <span />
        <div className="flex justify-between">
          <span>:00</span>
          <span className="hidden sm:inline">:15</span>
          <span>:30</span>
          <span className="hidden sm:inline">:45</span>
          <span>:60</span>
        </div>
        <span />
      </div>
      <ol aria-label="Hourly activity, last 12 hours" className="pb-2">
        {slots.map((slot) => (
          <SlotRow key={slot.hour_slot} slot={slot} now={now} />
        ))}
      </ol>
      <div className="border-t border-slate-200 px-5 py-3 dark:border-slate-800">
        <Legend />
      </div>
    </div>
  );
}
