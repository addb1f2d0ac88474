import { useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import type { CleanupBody, CleanupPlan, CleanupResult } from '@outpost/contract/device-cleanup';
import { CLEANUP_DEFAULT_DAYS, CLEANUP_MAX_DAYS, CLEANUP_MIN_DAYS } from '@outpost/contract/device-cleanup';
import { cleanupMessages, deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Input } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCleanupAgents, useCleanupPreview } from '../api/cleanup-agents';
import { CleanupPlanView } from './cleanup-plan-view';

// spec: operations §2.7, §5 (1 to 365 days, default 30, and/or duplicates; neither → 'No Options
// Selected'), §9. Beyond the spec, the cleanup is real: the administrator first sees what it will
// remove and, for duplicates, which record is kept and why (SECURITY.md R2-4), then confirms
// exactly those agents; the result is shown.
export function CleanupDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const toast = useToast();
  const cleanup = useCleanupAgents();
  const preview = useCleanupPreview();
  const [plan, setPlan] = useState<{ body: CleanupBody; plan: CleanupPlan } | null>(null);
  const [useDays, setUseDays] = useState(true);
  const [days, setDays] = useState(String(CLEANUP_DEFAULT_DAYS));
  const [duplicates, setDuplicates] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<CleanupResult | null>(null);

  const close = () => {
    setError(null);
    setResult(null);
    setPlan(null);
    cleanup.reset();
    preview.reset();
    onClose();
  };

  // A message about the options is cleared as soon as an option changes (issue 24 item 15).
  const showPreview = () => {
    setError(null);
    if (!useDays && !duplicates) {
      setError(deviceMessages.noOptionsSelected);
      return;
    }
    const n = Number(days);
    if (useDays && (!Number.isInteger(n) || n < CLEANUP_MIN_DAYS || n > CLEANUP_MAX_DAYS)) {
      setError('Enter a whole number of days from 1 to 365.');
      return;
    }
    const body = { offline_days: useDays ? n : null, remove_duplicates: duplicates };
    preview.mutate(body, {
      onSuccess: (res) => setPlan({ body, plan: res }),
      onError: (err) => setError(errorMessage(err, cleanupMessages.previewFailed)),
    });
  };

  const confirm = () => {
    if (!plan) {
      return;
    }
    setError(null);
    cleanup.mutate(
      { ...plan.body, device_ids: plan.plan.devices.map((d) => d.id) },
      {
        onSuccess: (res) => {
          setResult(res);
          toast.show({
            type: 'success',
            title: 'Cleanup complete',
            message: `${res.removed} agent${res.removed === 1 ? '' : 's'} removed`,
          });
        },
        onError: (err) => setError(errorMessage(err, 'Cleanup failed')),
      },
    );
  };

  const toRemove = plan?.plan.devices.length ?? 0;
  const isBusy = cleanup.isPending || preview.isPending;

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      title="Clean up agents"
      description="Remove agents that stopped reporting and duplicate registrations of the same machine."
      isDismissDisabled={isBusy}
      footer={
        result ? (
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        ) : plan ? (
          <>
            <Button onClick={() => setPlan(null)} disabled={isBusy}>
              Back
            </Button>
            <Button
              variant="danger"
              onClick={confirm}
              isLoading={cleanup.isPending}
              disabled={toRemove === 0}
            >
              {`Remove ${toRemove} agent${toRemove === 1 ? '' : 's'}`}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close} disabled={isBusy}>
              Cancel
            </Button>
            <Button variant="primary" onClick={showPreview} isLoading={preview.isPending}>
              Preview
            </Button>
          </>
        )
      }
    >
      {result ? (
        <div className="space-y-4">
          <div className="flex items-center gap-3">
            <CheckCircle2 className="size-6 text-emerald-500" />
            <p className="text-sm font-medium text-slate-900 dark:text-white">
              {result.removed === 0
                ? 'Nothing to remove: no agent matched.'
                : `Removed ${result.removed} agent${result.removed === 1 ? '' : 's'}.`}
            </p>
          </div>
          {result.review_sets.length > 0 && (
            <Alert tone="warning">{cleanupMessages.needsReview(result.review_sets.length)}</Alert>
          )}
          {result.devices.length > 0 && (
            <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
              {result.devices.map((d) => (
                <li key={d.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                  <span
                    title={d.hostname ?? `Device ${d.id}`}
                    className="truncate text-slate-800 dark:text-slate-200"
                  >
                    {d.hostname ?? `Device ${d.id}`}
                  </span>
                  <Badge tone={d.reason === 'stale' ? 'gray' : 'yellow'}>
                    {d.reason === 'stale' ? 'Offline too long' : 'Duplicate'}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : plan ? (
        <div className="space-y-3">
          {error && <Alert>{error}</Alert>}
          <CleanupPlanView devices={plan.plan.devices} sets={plan.plan.duplicate_sets} />
        </div>
      ) : (
        <div className="space-y-5">
          {error && <Alert>{error}</Alert>}
          <div className="space-y-3 rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-800">
            <Checkbox
              label="Remove agents offline for longer than"
              checked={useDays}
              onChange={(e) => {
                setUseDays(e.target.checked);
                setError(null);
              }}
            />
            <Field label="Days offline" htmlFor="cleanup-days" hint="From 1 to 365 days (default 30).">
              <div className="w-32">
                <Input
                  id="cleanup-days"
                  type="number"
                  min={CLEANUP_MIN_DAYS}
                  max={CLEANUP_MAX_DAYS}
                  value={days}
                  disabled={!useDays}
                  onChange={(e) => {
                    setDays(e.target.value);
                    setError(null);
                  }}
                />
              </div>
            </Field>
          </div>
          <div className="rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-800">
            <Checkbox
              label="Remove duplicate registrations"
              checked={duplicates}
              onChange={(e) => {
                setDuplicates(e.target.checked);
                setError(null);
              }}
            />
            <p className="mt-1.5 pl-6 text-xs text-slate-500 dark:text-slate-400">
              Same serial number, or same hostname and MAC address. The registration enrolled first among
              those whose agent has connected is kept; an online record, or one that connected more recently,
              is never removed. You see what will happen before anything is removed.
            </p>
          </div>
        </div>
      )}
    </Dialog>
  );
}
