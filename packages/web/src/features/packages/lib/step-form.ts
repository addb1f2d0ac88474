import { z } from 'zod';
import { StepType } from '@outpost/contract/step-catalog';
import type { StepType as StepTypeValue } from '@outpost/contract/step-catalog';
import { validateStepDraft } from './builder-state';
import { conditionDraftProblems } from './condition-drafts';
import type { ConditionDraft } from './condition-drafts';

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
  /** docs/product/rollouts.md#step-conditions, as typed */
  conditions: ConditionDraft[];
};

export const StepFormSchema = z
  .object({
    step_name: z.string(),
    step_type: StepType,
    step_details: z.record(z.string(), z.unknown()),
    fail_deployment_on_error: z.boolean(),
    timeout_seconds: z.custom<number>(),
    retry_count: z.custom<number>(),
    conditions: z.custom<ConditionDraft[]>(),
  })
  .superRefine((value, ctx) => {
    for (const issue of validateStepDraft(value)) {
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }
    const problems = conditionDraftProblems(value.conditions);
    const first = problems.findIndex((p) => p !== null);
    if (first >= 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['conditions'],
        message: `Condition ${first + 1}: ${problems[first]}`,
      });
    }
  });
