import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { STEP_LIMITS } from '@outpost/contract/packages';
import {
  STEP_CATALOG,
  STEP_TYPES,
  defaultStepDetails,
  isFieldActive,
  missingRequiredFields,
} from '@outpost/contract/step-catalog';
import type { StepType as StepTypeValue } from '@outpost/contract/step-catalog';
import { stepRunsOn, targetOsLabel } from '@outpost/contract/targets';
import type { AvailableTargetOs } from '@outpost/contract/targets';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Input } from '../../../components/ui/form';
import { cn } from '../../../lib/cn';
import type { StepDraft } from '../lib/builder-state';
import { StepFormSchema } from '../lib/step-form';
import type { StepForm } from '../lib/step-form';
import { StepField } from './step-field';
import { StepTypeIcon } from './step-type-icon';

// docs/product/packages.md#step-types step editor — name, type, the type's fields (some only for a given
// source_type or script_type), fail on error, timeout and retries; docs/product/packages.md rules, in the product's order.

type Props = {
  draft: StepDraft;
  /** the package's target: step types it cannot run are shown but not offered */
  targetOs: AvailableTargetOs;
  stepNumber: number;
  isNew: boolean;
  onSave: (draft: StepDraft) => void;
  onCancel: () => void;
};

export function StepEditorDialog({ draft, targetOs, stepNumber, isNew, onSave, onCancel }: Props) {
  const form = useForm<StepForm>({
    defaultValues: {
      step_name: draft.step_name,
      step_type: draft.step_type,
      step_details: draft.step_details,
      fail_deployment_on_error: draft.fail_deployment_on_error,
      timeout_seconds: draft.timeout_seconds,
      retry_count: draft.retry_count,
    },
    resolver: zodResolver(StepFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { control, register, handleSubmit, setValue, formState } = form;
  const stepType = useWatch({ control, name: 'step_type' });
  const details = useWatch({ control, name: 'step_details' });
  const [uploading, setUploading] = useState<Set<string>>(() => new Set());
  const isUploading = uploading.size > 0;

  const definition = STEP_CATALOG[stepType];
  const visibleFields = useMemo(
    () => definition.fields.filter((f) => isFieldActive(f, details ?? {})),
    [definition, details],
  );

  // After a failed submit, the empty required fields are marked where they are, too.
  const missingLabels = formState.errors.step_details ? missingRequiredFields(stepType, details ?? {}) : [];

  // Errors in the product's order (docs/product/packages.md#validation): step name, required fields, then the number ranges.
  const errorList = [
    formState.errors.step_name?.message,
    formState.errors.step_details?.message ?? formState.errors.step_details?.root?.message,
    formState.errors.timeout_seconds?.message,
    formState.errors.retry_count?.message,
  ].filter((m): m is string => Boolean(m));

  function chooseType(type: StepTypeValue) {
    if (type === stepType) {
      return;
    }
    setValue('step_type', type);
    setValue('step_details', defaultStepDetails(type));
    form.clearErrors();
  }

  const submit = handleSubmit((values) => {
    onSave({ ...draft, ...values, step_name: values.step_name.trim(), isDirty: true });
  });

  return (
    <Dialog
      isOpen
      onClose={onCancel}
      size="xl"
      isDismissDisabled={isUploading}
      title={isNew ? `Add step ${stepNumber}` : `Edit step ${stepNumber}`}
      description={definition.description}
      footer={
        <>
          <Button onClick={onCancel} disabled={isUploading}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="step-editor-form" disabled={isUploading}>
            {isNew ? 'Add Step' : 'Update Step'}
          </Button>
        </>
      }
    >
      <form id="step-editor-form" noValidate onSubmit={(e) => void submit(e)} className="space-y-5">
        {errorList.length > 0 && (
          <Alert>
            <ul className="space-y-0.5" data-testid="step-errors">
              {errorList.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </Alert>
        )}

        <Field label="Step Name" required htmlFor="step-name" error={formState.errors.step_name?.message}>
          <Input
            id="step-name"
            placeholder="e.g. Install 7-Zip"
            autoComplete="off"
            aria-invalid={Boolean(formState.errors.step_name)}
            {...register('step_name')}
          />
        </Field>

        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Step Type</legend>
          <div role="radiogroup" aria-label="Step Type" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {STEP_TYPES.map((type) => {
              const isChosen = type === stepType;
              // docs/architecture.md "Package targets": a Linux package holds no Windows-only step
              const isOffered = stepRunsOn(type, targetOs);
              return (
                <button
                  key={type}
                  type="button"
                  role="radio"
                  aria-checked={isChosen}
                  disabled={!isOffered && !isChosen}
                  title={isOffered ? undefined : `Runs on Windows only, not on ${targetOsLabel(targetOs)}`}
                  onClick={() => chooseType(type)}
                  className={cn(
                    'flex items-center gap-2.5 rounded-lg border px-2.5 py-2 text-left text-sm transition-colors',
                    'disabled:cursor-not-allowed disabled:opacity-50',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                    isChosen
                      ? 'border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500 dark:border-indigo-400 dark:bg-indigo-500/10 dark:ring-indigo-400'
                      : 'border-slate-200 hover:border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:border-slate-600 dark:hover:bg-slate-800/60',
                  )}
                >
                  <StepTypeIcon type={type} className="size-7" />
                  <span className="font-medium text-slate-800 dark:text-slate-100">
                    {STEP_CATALOG[type].label}
                    {!isOffered && (
                      <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                        Windows only
                      </span>
                    )}
                  </span>
                </button>
              );
            })}
          </div>
        </fieldset>

        <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <h3 className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">
            {definition.label} settings
          </h3>
          <div className="grid gap-4 sm:grid-cols-2" key={stepType}>
            {visibleFields.map((f) => (
              <StepField
                key={f.key}
                field={f}
                control={control}
                isMissing={missingLabels.includes(f.label)}
                onUploadingChange={(key, isBusy) =>
                  setUploading((prev) => {
                    const next = new Set(prev);
                    if (isBusy) {
                      next.add(key);
                    } else {
                      next.delete(key);
                    }
                    return next;
                  })
                }
              />
            ))}
          </div>
        </div>

        <div className="grid gap-4 sm:grid-cols-3">
          <Field
            label="Timeout (seconds)"
            htmlFor="step-timeout"
            hint={`${STEP_LIMITS.minTimeout}–${STEP_LIMITS.maxTimeout}`}
            error={formState.errors.timeout_seconds?.message}
          >
            <Input
              id="step-timeout"
              type="number"
              min={STEP_LIMITS.minTimeout}
              max={STEP_LIMITS.maxTimeout}
              {...register('timeout_seconds', { valueAsNumber: true })}
            />
          </Field>
          <Field
            label="Retry Count"
            htmlFor="step-retries"
            hint={`${STEP_LIMITS.minRetries}–${STEP_LIMITS.maxRetries}`}
            error={formState.errors.retry_count?.message}
          >
            <Input
              id="step-retries"
              type="number"
              min={STEP_LIMITS.minRetries}
              max={STEP_LIMITS.maxRetries}
              {...register('retry_count', { valueAsNumber: true })}
            />
          </Field>
          <div className="flex items-end pb-2">
            <Checkbox label="Fail deployment on error" {...register('fail_deployment_on_error')} />
          </div>
        </div>
      </form>
    </Dialog>
  );
}
