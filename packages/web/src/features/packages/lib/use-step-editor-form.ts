import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  STEP_CATALOG,
  defaultStepDetails,
  isFieldActive,
  missingRequiredFields,
} from '@outpost/contract/step-catalog';
import type { StepType as StepTypeValue } from '@outpost/contract/step-catalog';
import type { StepDraft } from './builder-state';
import { StepFormSchema } from './step-form';
import { draftFromCondition } from './condition-drafts';
import type { StepForm } from './step-form';

/**
 * The step editor's form state (components/step-editor-dialog.tsx): the form, the chosen type and
 * its visible fields, the errors in the product's order, and the uploads still running.
 */
export function useStepEditorForm(draft: StepDraft) {
  const form = useForm<StepForm>({
    defaultValues: {
      step_name: draft.step_name,
      step_type: draft.step_type,
      step_details: draft.step_details,
      fail_deployment_on_error: draft.fail_deployment_on_error,
      timeout_seconds: draft.timeout_seconds,
      retry_count: draft.retry_count,
      conditions: (draft.conditions ?? []).map(draftFromCondition),
    },
    resolver: zodResolver(StepFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { control, setValue, formState } = form;
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
    formState.errors.conditions?.message ?? formState.errors.conditions?.root?.message,
  ].filter((m): m is string => Boolean(m));

  function chooseType(type: StepTypeValue) {
    if (type === stepType) {
      return;
    }
    setValue('step_type', type);
    setValue('step_details', defaultStepDetails(type));
    form.clearErrors();
  }

  function setFieldUploading(key: string, isBusy: boolean) {
    setUploading((prev) => {
      const next = new Set(prev);
      if (isBusy) {
        next.add(key);
      } else {
        next.delete(key);
      }
      return next;
    });
  }

  return {
    form,
    stepType,
    isUploading,
    definition,
    visibleFields,
    missingLabels,
    errorList,
    chooseType,
    setFieldUploading,
  };
}
