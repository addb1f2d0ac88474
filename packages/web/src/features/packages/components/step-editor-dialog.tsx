import { STEP_LIMITS } from '@outpost/contract/packages';
import type { AvailableTargetOs } from '@outpost/contract/targets';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Input } from '../../../components/ui/form';
import type { StepDraft } from '../lib/builder-state';
import { useStepEditorForm } from '../lib/use-step-editor-form';
import { StepField } from './step-field';
import { StepTypePicker } from './step-type-picker';
import { ConditionsSection } from './conditions-section';
import { conditionFromDraft } from '../lib/condition-drafts';

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
  const {
    form,
    stepType,
    isUploading,
    definition,
    visibleFields,
    missingLabels,
    errorList,
    chooseType,
    setFieldUploading,
  } = useStepEditorForm(draft);
  const { control, register, handleSubmit, formState } = form;

  const submit = handleSubmit((values) => {
    onSave({
      ...draft,
      ...values,
      step_name: values.step_name.trim(),
      conditions: values.conditions.map(conditionFromDraft),
      isDirty: true,
    });
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

        <StepTypePicker stepType={stepType} targetOs={targetOs} onChoose={chooseType} />

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
                onUploadingChange={setFieldUploading}
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

        <ConditionsSection control={control} stepNumber={stepNumber} isSubmitted={formState.isSubmitted} />
      </form>
    </Dialog>
  );
}
