import { Link } from 'react-router';
import { ArrowRight, ShieldCheck } from 'lucide-react';
import { SEVERITY_LABELS } from '@outpost/contract/checks';
import type { Severity } from '@outpost/contract/checks';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { openTotal } from '../../../lib/alert-view';
import { useAlertCounts } from '../../../lib/api/alerts';
import { cn } from '../../../lib/cn';

// docs/product/monitoring.md#the-alerts-page — the dashboard's Open Alerts: the open alerts by
// severity and how many are acknowledged; live through the shell's alerts subscription.

const order: Severity[] = ['critical', 'warning', 'info'];
const colours: Record<Severity, { dot: string; text: string }> = {
  critical: { dot: 'bg-red-500', text: 'text-red-700 dark:text-red-400' },
  warning: { dot: 'bg-amber-500', text: 'text-amber-700 dark:text-amber-400' },
  info: { dot: 'bg-sky-500', text: 'text-sky-700 dark:text-sky-400' },
};

export function OpenAlertsTile() {
  const counts = useAlertCounts();
  const c = counts.data;
  return (
    <Card data-testid="open-alerts-tile">
      <CardHeader
        title="Open Alerts"
        actions={
          <Link to="/alerts">
            <Button size="sm" variant="ghost" icon={<ArrowRight className="size-3.5" />}>
              View alerts
            </Button>
          </Link>
        }
      />
      {!c ? (
        <div className="flex justify-center py-8">
          <Spinner className="size-5 text-slate-400" label="Loading alerts" />
        </div>
      ) : (
        <div className="px-5 py-4">
          {openTotal(c) === 0 && (
            <p className="mb-3 flex items-center gap-2 text-sm text-emerald-700 dark:text-emerald-400">
              <ShieldCheck className="size-4" aria-hidden />
              No open alerts: everything is healthy.
            </p>
          )}
          <dl className="grid grid-cols-3 gap-3">
            {order.map((s) => (
              <div
                key={s}
                className="rounded-lg bg-slate-50 px-3 py-2.5 dark:bg-slate-800/60"
                data-severity={s}
              >
                <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">
                  <span className={cn('size-2 rounded-full', colours[s].dot)} aria-hidden />
                  {SEVERITY_LABELS[s]}
                </dt>
                <dd
                  className={cn(
                    'mt-1 text-2xl font-semibold tabular-nums',
                    c.open[s] > 0 ? colours[s].text : 'text-slate-900 dark:text-white',
                  )}
                >
                  {c.open[s]}
                </dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
            <span
              className="font-medium text-slate-700 tabular-nums dark:text-slate-200"
              data-testid="acknowledged-count"
            >
              {c.acknowledged}
            </span>{' '}
            acknowledged, waiting to resolve
          </p>
        </div>
      )}
    </Card>
  );
}
