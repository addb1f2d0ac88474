import { useState } from 'react';
import type { CleanupBody, CleanupPlan, CleanupResult } from '@outpost/contract/device-cleanup';
import { CLEANUP_DEFAULT_DAYS, CLEANUP_MAX_DAYS, CLEANUP_MIN_DAYS } from '@outpost/contract/device-cleanup';
import { cleanupMessages, deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCleanupAgents, useCleanupPreview } from '../api/cleanup-agents';
import { CleanupOptions } from './cleanup-options';
import { CleanupPlanView } from './cleanup-plan-view';
import { CleanupResultView } from './cleanup-result-view';

// docs/product/administration.md#agents, docs/product/administration.md (1 to 365 days, default 30, and/or duplicates; neither → 'No Options
// Selected'), docs/product/administration.md#agent-cleanup. Beyond the original product description, the cleanup is real: the administrator first sees what it will
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

  // A message about the options is cleared as soon as an option changes.
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
        <CleanupResultView result={result} />
      ) : plan ? (
        <div className="space-y-3">
          {error && <Alert>{error}</Alert>}
          <CleanupPlanView devices={plan.plan.devices} sets={plan.plan.duplicate_sets} />
        </div>
      ) : (
        <CleanupOptions
          error={error}
          useDays={useDays}
          days={days}
          duplicates={duplicates}
          onUseDaysChange={(value) => {
            setUseDays(value);
            setError(null);
          }}
          onDaysChange={(value) => {
            setDays(value);
            setError(null);
          }}
          onDuplicatesChange={(value) => {
            setDuplicates(value);
            setError(null);
          }}
        />
      )}
    </Dialog>
  );
}
