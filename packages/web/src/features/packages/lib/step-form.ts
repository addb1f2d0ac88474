import { z } from 'zod';
import { StepType } from '@outpost/contract/step-catalog';
import type { StepType as StepTypeValue } from '@outpost/contract/step-catalog';
import { validateStepDraft } from './builder-state';

// docs/product/packages.md#builder step editor — the form's values, and the contract's rules (catalogue
// schemas, limits, the product's messages) behind a zod resolver. The editor dialog and each of its
// fields share them.

export type StepForm = {
  step_name: string;
  step_type: StepTypeValue;
  step_details: Record<string, unknown>;
  fail_deployment_on_error: boolean;
  timeout_seconds: number;
  retry_count: number;
};

export const StepFormSchema = z
  .object({
    step_name: z.string(),
    step_type: StepType,
    step_details: z.record(z.string(), z.unknown()),
    fail_deployment_on_error: z.boolean(),
    timeout_seconds: z.custom<number>(),
    retry_count: z.custom<number>(),
  })
  .superRefine((value, ctx) => {
    for (const issue of validateStepDraft(value)) {
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }
  });
