import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BellOff, CheckCheck, CheckCircle2, CircleDot, Eye } from 'lucide-react';
import type { Alert } from '@outpost/contract/alerts';
import { ALERT_CONDITION_LABELS, ALERT_NOTE_MAX } from '@outpost/contract/alerts';
import { SeverityBadge } from '../../../components/alerts/severity-badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Textarea } from '../../../components/ui/form';
import { resolutionOf } from '../../../lib/alert-view';
import { cn } from '../../../lib/cn';
import { AlertStateBadge, When } from './alert-columns';

// docs/product/monitoring.md#the-alerts-page — an alert's full detail and its timeline, with
// Acknowledge and Resolve (each with an optional note) while it is not resolved.

function Step({ icon, tone, children }: { icon: ReactNode; tone: string; children: ReactNode }) {
  return (
    <li className="relative flex gap-3 pb-4 last:pb-0">
      <span
        className={cn(
          'relative z-10 flex size-7 shrink-0 items-center justify-center rounded-full ring-4 ring-white dark:ring-slate-900',
          tone,
        )}
      >
        {icon}
      </span>
      <div className="min-w-0 pt-1 text-sm text-slate-700 dark:text-slate-300">{children}</div>
    </li>
  );
}

function Timeline({ alert: a }: { alert: Alert }) {
  const muted = 'text-slate-500 dark:text-slate-400';
  const resolution = resolutionOf(a);
  return (
    <ol
      className="relative before:absolute before:top-2 before:bottom-2 before:left-3.5 before:w-px before:bg-slate-200 dark:before:bg-slate-700"
      aria-label="Timeline"
    >
      <Step
        icon={<CircleDot className="size-4" />}
        tone="bg-red-100 text-red-700 dark:bg-red-500/20 dark:text-red-300"
      >
        <p className="font-medium text-slate-900 dark:text-white">First seen</p>
        <p className={muted}>
          <When at={a.first_seen_at} /> · last seen <When at={a.last_seen_at} /> · {a.occurrences} time
          {a.occurrences === 1 ? '' : 's'}
        </p>
      </Step>
      {a.silenced && (
        <Step
          icon={<BellOff className="size-4" />}
          tone="bg-violet-100 text-violet-700 dark:bg-violet-500/20 dark:text-violet-300"
        >
          <p className="font-medium text-slate-900 dark:text-white">Silenced</p>
          <p className={muted}>It opened while the device or its site was in maintenance: no one was told.</p>
        </Step>
      )}
      {a.acknowledged_at && (
        <Step
          icon={<Eye className="size-4" />}
          tone="bg-amber-100 text-amber-700 dark:bg-amber-500/20 dark:text-amber-300"
        >
          <p className="font-medium text-slate-900 dark:text-white">
            Acknowledged{a.acknowledged_by ? ` by ${a.acknowledged_by}` : ''}
          </p>
          <p className={muted}>
            <When at={a.acknowledged_at} />
          </p>
          {a.acknowledge_note && (
            <blockquote className="mt-1 border-l-2 border-slate-300 pl-2 italic dark:border-slate-600">
              {a.acknowledge_note}
            </blockquote>
          )}
        </Step>
      )}
      {resolution && (
        <Step
          icon={<CheckCircle2 className="size-4" />}
          tone="bg-emerald-100 text-emerald-700 dark:bg-emerald-500/20 dark:text-emerald-300"
        >
          <p className="font-medium text-slate-900 dark:text-white">{resolution}</p>
          <p className={muted}>
            <When at={a.resolved_at} />
            {!a.resolved_by && ' · the condition cleared'}
          </p>
          {a.resolve_note && (
            <blockquote className="mt-1 border-l-2 border-slate-300 pl-2 italic dark:border-slate-600">
              {a.resolve_note}
            </blockquote>
          )}
        </Step>
      )}
    </ol>
  );
}

type AlertDetailProps = {
  alert: Alert | null;
  siteName: (id: number | null) => string;
  busy: 'acknowledge' | 'resolve' | null;
  error: string | null;
  onAction: (action: 'acknowledge' | 'resolve', note: string) => void;
  onClose: () => void;
};

/** One dialog per alert and state: the note starts empty for each, and again after an action. */
export function AlertDetailDialog(props: AlertDetailProps) {
  return props.alert ? (
    <AlertDetail key={`${props.alert.id}-${props.alert.state}`} {...props} alert={props.alert} />
  ) : null;
}

function AlertDetail({
  alert,
  siteName,
  busy,
  error,
  onAction,
  onClose,
}: AlertDetailProps & { alert: Alert }) {
  const noteId = useId();
  const [note, setNote] = useState('');
  const isResolved = alert.state === 'resolved';
  const facts: [string, ReactNode][] = [
    ['Condition', ALERT_CONDITION_LABELS[alert.condition]],
    [
      'Device',
      alert.device ? (
        <Link
          to={`/devices/${alert.device.guid}`}
          className="text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {alert.device.hostname}
        </Link>
      ) : (
        '—'
      ),
    ],
    ['Site', siteName(alert.site_id)],
    [
      'Related',
      alert.job_id ? (
        <Link
          to={`/deployments/${alert.job_id}`}
          className="text-indigo-600 hover:underline dark:text-indigo-400"
        >
          Deployment #{alert.job_id}
        </Link>
      ) : (
        '—'
      ),
    ],
  ];
  return (
    <Dialog
      isOpen
      onClose={onClose}
      isDismissDisabled={busy !== null}
      size="lg"
      title={
        <span className="flex flex-wrap items-center gap-2">
          <SeverityBadge severity={alert.severity} />
          <span>{alert.title}</span>
        </span>
      }
      description={<AlertStateBadge alert={alert} />}
      footer={
        isResolved ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            {alert.state === 'open' && (
              <Button
                icon={<CheckCheck className="size-4" />}
                isLoading={busy === 'acknowledge'}
                disabled={busy !== null}
                onClick={() => onAction('acknowledge', note.trim())}
              >
                Acknowledge
              </Button>
            )}
            <Button
              variant="primary"
              icon={<CheckCircle2 className="size-4" />}
              isLoading={busy === 'resolve'}
              disabled={busy !== null}
              onClick={() => onAction('resolve', note.trim())}
            >
              Resolve
            </Button>
          </>
        )
      }
    >
      <div className="space-y-5" data-testid="alert-detail">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
                {k}
              </dt>
              <dd className="mt-0.5 text-slate-900 dark:text-white">{v}</dd>
            </div>
          ))}
        </dl>
        <section aria-label="Detail">
          <h3 className="mb-1.5 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
            Detail
          </h3>
          <pre className="max-h-60 overflow-auto rounded-lg bg-slate-950 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-slate-100 dark:bg-black/60">
            {alert.detail || 'No detail'}
          </pre>
        </section>
        <section aria-label="History">
          <h3 className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
            Timeline
          </h3>
          <Timeline alert={alert} />
        </section>
        {!isResolved && (
          <Field
            label="Note"
            htmlFor={noteId}
            hint="Optional: kept with the acknowledgement or the resolution."
          >
            <Textarea
              id={noteId}
              rows={2}
              maxLength={ALERT_NOTE_MAX}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </Field>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
