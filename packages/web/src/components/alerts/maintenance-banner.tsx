import { Wrench } from 'lucide-react';
import type { Maintenance } from '@outpost/contract/alerts';
import { maintenanceText } from '../../lib/alert-view';
import { Button } from '../ui/button';

/** "In maintenance until … (reason, by …)" with End maintenance (docs/product/monitoring.md#maintenance-mode). */
export function MaintenanceBanner({
  maintenance,
  onEnd,
  isEnding,
}: {
  maintenance: Maintenance;
  /** absent: the caller may not end it here (a site's maintenance on a device page) */
  onEnd?: () => void;
  isEnding?: boolean;
}) {
  const { title, detail } = maintenanceText(maintenance);
  return (
    <div
      role="status"
      data-testid="maintenance-banner"
      className="flex flex-col gap-3 rounded-xl border border-violet-200 bg-violet-50 px-4 py-3 sm:flex-row sm:items-center dark:border-violet-500/30 dark:bg-violet-500/10"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-violet-100 text-violet-700 dark:bg-violet-500/20 dark:text-violet-300">
        <Wrench className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-violet-900 dark:text-violet-100">{title}</p>
        <p className="text-sm text-violet-800/80 dark:text-violet-200/80">
          {detail ? `${detail}. ` : ''}Alerts are recorded but no one is told.
        </p>
      </div>
      {onEnd && (
        <Button size="sm" onClick={onEnd} isLoading={isEnding}>
          End maintenance
        </Button>
      )}
    </div>
  );
}
