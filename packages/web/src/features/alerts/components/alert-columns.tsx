import { Link } from 'react-router';
import { BellOff, Eye } from 'lucide-react';
import type { Alert } from '@outpost/contract/alerts';
import { SeverityBadge } from '../../../components/alerts/severity-badge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { STATE_LABELS, STATE_TONES } from '../../../lib/alert-view';
import { formatDateTime, relativeTime } from '../../../lib/format';

/** A time as "5 minutes ago", the exact time on hover. */
export function When({ at }: { at: string | null }) {
  return (
    <time dateTime={at ?? undefined} title={formatDateTime(at)} className="whitespace-nowrap">
      {relativeTime(at)}
    </time>
  );
}

export function AlertStateBadge({ alert }: { alert: Alert }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge tone={STATE_TONES[alert.state]} dot>
        {STATE_LABELS[alert.state]}
      </Badge>
      {alert.silenced && (
        <span title="Opened during maintenance: no one was told" className="text-slate-400">
          <BellOff className="size-3.5" aria-hidden />
          <span className="sr-only">Silenced</span>
        </span>
      )}
    </span>
  );
}

/** The Alerts page's columns (docs/product/monitoring.md#the-alerts-page). */
export function alertColumns({
  siteName,
  onView,
}: {
  siteName: (id: number | null) => string;
  onView: (alert: Alert) => void;
}): Column<Alert>[] {
  const muted = 'text-xs text-slate-500 dark:text-slate-400';
  return [
    {
      id: 'severity',
      header: 'Severity',
      label: 'Severity',
      cell: (a) => <SeverityBadge severity={a.severity} />,
    },
    {
      id: 'alert',
      header: 'Alert',
      sticky: true,
      className: 'min-w-64 max-w-md',
      cell: (a) => (
        <>
          <button
            type="button"
            onClick={() => onView(a)}
            className="text-left font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {a.title}
          </button>
          {a.detail && <p className={`mt-0.5 line-clamp-1 font-mono ${muted}`}>{a.detail}</p>}
        </>
      ),
    },
    {
      id: 'device',
      header: 'Device',
      label: 'Device',
      cell: (a) =>
        a.device ? (
          <Link
            to={`/devices/${a.device.guid}`}
            className="font-medium whitespace-nowrap text-indigo-600 hover:underline dark:text-indigo-400"
          >
            {a.device.hostname}
          </Link>
        ) : (
          <span className="text-slate-400">—</span>
        ),
    },
    { id: 'site', header: 'Site', label: 'Site', cell: (a) => siteName(a.site_id) },
    {
      id: 'seen',
      header: 'First / last seen',
      label: 'Seen',
      cell: (a) => (
        <>
          <div>
            <When at={a.first_seen_at} />
          </div>
          <div className={muted}>
            last <When at={a.last_seen_at} />
          </div>
        </>
      ),
    },
    {
      id: 'occurrences',
      header: 'Count',
      label: 'Occurrences',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (a) => (
        <span title={`Seen ${a.occurrences} time${a.occurrences === 1 ? '' : 's'}`}>{a.occurrences}</span>
      ),
    },
    {
      id: 'state',
      header: 'State',
      label: 'State',
      cell: (a) => (
        <>
          <AlertStateBadge alert={a} />
          {a.acknowledged_by && (
            <div className={`mt-1 whitespace-nowrap ${muted}`}>by {a.acknowledged_by}</div>
          )}
        </>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      headerClassName: 'text-right',
      cell: (a) => (
        <div className="flex justify-end">
          <Button
            size="sm"
            icon={<Eye className="size-3.5" />}
            aria-label={`View ${a.title}`}
            onClick={() => onView(a)}
          >
            View
          </Button>
        </div>
      ),
    },
  ];
}
