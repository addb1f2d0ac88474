import type { ReactNode } from 'react';
import { RotateCcw } from 'lucide-react';
import type { DeliveryCore, DeliveryStatus } from '@outpost/contract/notification-channels';
import { Badge } from '../ui/badge';
import type { Tone } from '../ui/badge';
import { Button } from '../ui/button';
import { DataTable } from '../ui/data-table';
import type { Column } from '../ui/data-table';
import { Dialog } from '../ui/dialog';
import { QueryState } from '../ui/states';
import type { QueryFailures } from '../ui/states';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';

// The delivery log shared by notification channels (docs/product/monitoring.md#deliveries) and
// event webhooks (docs/product/webhooks.md#deliveries): both go through one outbox, so a
// delivery's status, attempts, last answer, error, next attempt and Redeliver read the same.

/** What every delivery row says (the contract's DeliveryCore), and a digest's id where it has one. */
export type DeliveryRow = DeliveryCore & { digest_id?: number | null };

const TONES: Record<DeliveryStatus, Tone> = {
  delivered: 'green',
  pending: 'yellow',
  failed: 'red',
  digested: 'gray',
};
const LABELS: Record<DeliveryStatus, string> = {
  delivered: 'Delivered',
  pending: 'Retrying',
  failed: 'Failed',
  digested: 'In a digest',
};

export function DeliveryBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge tone={TONES[status]} dot>
      {LABELS[status]}
    </Badge>
  );
}

function outcome(d: DeliveryRow): string {
  if (d.status === 'digested') {
    return `Sent in digest #${d.digest_id ?? '?'}`;
  }
  if (d.status === 'delivered') {
    return `Delivered ${d.delivered_at ? formatDateTime(d.delivered_at) : ''}`;
  }
  return (
    [d.last_error, d.next_attempt_at && `Next attempt ${formatDateTime(d.next_attempt_at)}`]
      .filter(Boolean)
      .join('. ') || 'Waiting to be sent'
  );
}

/**
 * The log's columns: when it was queued, `what` (the destination's own column: a message, an
 * event), its status with attempts and the last HTTP code, the outcome, and Redeliver.
 */
export function deliveryColumns<T extends DeliveryRow>(o: {
  what: Column<T>;
  /** how the last answer's code reads: an HTTP status, or a mail server's reply code */
  codeLabel?: (code: number) => string;
  canRedeliver: boolean;
  onRedeliver: (d: T) => void;
}): Column<T>[] {
  return [
    {
      id: 'when',
      header: 'Queued',
      sticky: true,
      className: 'whitespace-nowrap',
      cell: (d) => formatDateTime(d.created_at),
    },
    o.what,
    {
      id: 'status',
      header: 'Status',
      label: 'Status',
      cell: (d) => (
        <div className="space-y-1">
          <DeliveryBadge status={d.status} />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
            {d.last_code !== null && ` · ${(o.codeLabel ?? String)(d.last_code)}`}
          </p>
        </div>
      ),
    },
    {
      id: 'detail',
      header: 'Details',
      label: 'Details',
      className: 'max-w-xs text-xs text-slate-600 dark:text-slate-300',
      cell: outcome,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (d) => (
        <Button
          size="sm"
          variant="ghost"
          icon={<RotateCcw className="size-4" />}
          aria-label={`Redeliver delivery ${d.id}`}
          disabled={!o.canRedeliver}
          onClick={() => o.onRedeliver(d)}
        >
          Redeliver
        </Button>
      ),
    },
  ];
}

type LogQuery = QueryFailures & { isPending: boolean; error: unknown; refetch: () => unknown };

/** The log in a dialog: loading, failure and empty states, the table, and what follows it (a pager). */
export function DeliveryLogDialog<T extends DeliveryRow>(props: {
  title: string;
  query: LogQuery;
  rows: T[];
  columns: Column<T>[];
  onClose: () => void;
  footer?: ReactNode;
}) {
  const { query } = props;
  return (
    <Dialog isOpen onClose={props.onClose} title={props.title} size="xl">
      <QueryState
        isPending={query.isPending}
        failures={query}
        error={query.error ? errorMessage(query.error, 'Failed to load the deliveries') : null}
        errorTitle="Error loading deliveries"
        onRetry={() => void query.refetch()}
        isEmpty={props.rows.length === 0}
        empty={{ title: 'Nothing sent yet', message: 'Send a test to see it here.' }}
        loadingLabel="Loading deliveries"
      >
        <DataTable rows={props.rows} columns={props.columns} cards />
        {props.footer}
      </QueryState>
    </Dialog>
  );
}
