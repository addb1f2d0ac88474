import { Link } from 'react-router';
import { AlertTriangle, Info, OctagonAlert } from 'lucide-react';
import type { Severity } from '@outpost/contract/checks';
import { SEVERITY_LABELS } from '@outpost/contract/checks';
import { SEVERITY_TONES } from '../../lib/alert-view';
import { cn } from '../../lib/cn';
import { Badge } from '../ui/badge';

const icons = { info: Info, warning: AlertTriangle, critical: OctagonAlert } as const;

/** A severity as a coloured badge with its icon (docs/product/monitoring.md#the-alerts-page). */
export function SeverityBadge({ severity }: { severity: Severity }) {
  const Icon = icons[severity];
  return (
    <Badge tone={SEVERITY_TONES[severity]}>
      <Icon className="size-3" aria-hidden />
      {SEVERITY_LABELS[severity]}
    </Badge>
  );
}

const pills: Record<Severity, string> = {
  info: 'bg-sky-100 text-sky-800 ring-sky-600/30 hover:bg-sky-200 dark:bg-sky-500/15 dark:text-sky-300 dark:ring-sky-500/30',
  warning:
    'bg-amber-100 text-amber-900 ring-amber-600/30 hover:bg-amber-200 dark:bg-amber-500/15 dark:text-amber-300 dark:ring-amber-500/30',
  critical:
    'bg-red-100 text-red-800 ring-red-600/30 hover:bg-red-200 dark:bg-red-500/15 dark:text-red-300 dark:ring-red-500/30',
};

/**
 * A device's open alerts: how many, coloured by the worst, linking to the Alerts page filtered
 * to the device. Nothing when the device has none.
 */
export function DeviceAlertBadge({
  guid,
  badge,
  className,
}: {
  guid: string;
  badge: { count: number; severity: Severity } | undefined;
  className?: string;
}) {
  if (!badge || badge.count === 0) {
    return null;
  }
  const Icon = icons[badge.severity];
  const label = `${badge.count} open alert${badge.count === 1 ? '' : 's'}, worst ${SEVERITY_LABELS[badge.severity].toLowerCase()}`;
  return (
    <Link
      to={`/alerts?device=${encodeURIComponent(guid)}`}
      title={label}
      aria-label={label}
      data-testid="device-alert-badge"
      data-severity={badge.severity}
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-1.5 py-0.5 text-xs font-semibold tabular-nums ring-1 ring-inset transition-colors',
        pills[badge.severity],
        className,
      )}
    >
      <Icon className="size-3" aria-hidden />
      {badge.count}
    </Link>
  );
}
