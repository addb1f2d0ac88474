import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { GATE_REASON_MAX, SkipGateBody } from '@outpost/contract/rollouts';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Textarea } from '../../../components/ui/form';

// The confirmations of the rollout actions (docs/product/rollouts.md#rollout-actions): resume (optionally with
// the package's current steps), skip a gate (a reason is required) and abort.

export function ResumeRolloutDialog({
  isOpen,
  isBusy,
  packageName,
  hasPackage = true,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  isBusy: boolean;
  packageName: string | null;
  /** an agent update has no package to take again (docs/product/rollouts.md#agent-updates-in-waves) */
  hasPackage?: boolean;
  onConfirm: (useCurrentPackage: boolean) => void;
  onCancel: () => void;
}) {
  const [useCurrent, setUseCurrent] = useState(false);
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title="Resume rollout?"
      tone="primary"
      confirmLabel="Resume Rollout"
      isBusy={isBusy}
      onConfirm={() => onConfirm(useCurrent)}
      onCancel={onCancel}
      message={
        <div className="space-y-3">
          <p>
            The current wave's held devices are released and the next waves follow when their gates pass.
            After a halt, the wave halts again only on a new failure.
          </p>
          {hasPackage && (
            <div>
              <Checkbox
                label="Use the package's current steps"
                checked={useCurrent}
                onChange={(e) => setUseCurrent(e.target.checked)}
              />
              <p className="mt-1 pl-6 text-xs text-slate-500 dark:text-slate-400">
                Devices that have not started yet run{' '}
                {packageName ? <strong>{packageName}</strong> : 'the package'} as it is now (for example after
                a fix), not the copy taken when the job was created.
              </p>
            </div>
          )}
        </div>
      }
    />
  );
}

export function SkipGateDialog({
  isOpen,
  isBusy,
  waveName,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  isBusy: boolean;
  waveName: string;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const formId = useId();
  const form = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const error = form.formState.errors.reason?.message;
  const submit = form.handleSubmit((v) => onConfirm(v.reason.trim()));
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onCancel}
      size="sm"
      isDismissDisabled={isBusy}
      title="Skip this gate?"
      description={`${waveName} counts as passed, its held devices are released and the next wave starts now (after the last wave the rollout completes).`}
      footer={
        <>
          <Button onClick={onCancel} disabled={isBusy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" isLoading={isBusy}>
            Skip Gate
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)}>
        <Field
          label="Reason"
          htmlFor={`${formId}-reason`}
          required
          error={error}
          hint="Shown on the wave and in the audit log."
        >
          <Textarea
            id={`${formId}-reason`}
            rows={3}
            maxLength={GATE_REASON_MAX}
            aria-invalid={error ? true : undefined}
            placeholder="Why the next wave may start now"
            {...form.register('reason', {
              validate: (v) => {
                const parsed = SkipGateBody.safeParse({ reason: v });
                return parsed.success || (parsed.error.issues[0]?.message ?? 'A reason is required');
              },
            })}
          />
        </Field>
      </form>
    </Dialog>
  );
}

export function AbortRolloutDialog({
  isOpen,
  isBusy,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  isBusy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title="Abort rollout?"
      confirmLabel="Abort Rollout"
      isBusy={isBusy}
      onConfirm={onConfirm}
      onCancel={onCancel}
      message={
        <p>
          Every device that has not finished is cancelled, as Cancel Deployment does, and the waves that have
          not started never start. Steps already finished are not undone.
        </p>
      }
    />
  );
}
