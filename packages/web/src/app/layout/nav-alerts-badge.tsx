import { navBadgeOf } from '../../lib/alert-view';
import { useAlertCounts } from '../../lib/api/alerts';
import { cn } from '../../lib/cn';

/** The Alerts entry's count of open alerts, red while one is critical (docs/product/monitoring.md#the-alerts-page). */
export function NavAlertsBadge({ isMinimized }: { isMinimized: boolean }) {
  const counts = useAlertCounts();
  const badge = navBadgeOf(counts.data);
  if (!badge) {
    return null;
  }
  const text = badge.count > 99 ? '99+' : String(badge.count);
  return (
    <span
      data-testid="nav-alerts-badge"
      data-critical={badge.isCritical}
      className={cn(
        'rounded-full px-1.5 py-px text-[11px] leading-4 font-semibold tabular-nums',
        isMinimized ? 'absolute top-0.5 right-1 min-w-4 text-center' : 'ml-auto',
        badge.isCritical
          ? 'bg-red-600 text-white'
          : 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200',
      )}
    >
      <span aria-hidden>{text}</span>
      <span className="sr-only">
        {`, ${badge.count} open${badge.isCritical ? ', critical among them' : ''}`}
      </span>
    </span>
  );
}
