import { useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import { ChevronDown, ChevronRight, ListChecks, Plus, Trash2 } from 'lucide-react';
import {
  CONDITION_KINDS,
  CONDITION_KIND_LABELS,
  MAX_CONDITIONS_PER_STEP,
  conditionsSummary,
} from '@outpost/contract/step-conditions';
import type { ConditionKind } from '@outpost/contract/step-conditions';
import { Button, IconButton } from '../../../components/ui/button';
import { Field, Select } from '../../../components/ui/form';
import { conditionDraftProblems, emptyConditionDraft } from '../lib/condition-drafts';
import type { StepForm } from '../lib/step-form';
import { ConditionFields } from './condition-fields';

// docs/product/rollouts.md#step-conditions — the step editor's Conditions section: collapsed, it
// says when the step runs ("Runs always", "Runs when 2 conditions hold"); open, each condition has
// a kind and that kind's fields, and the contract's message under it once a save was tried.

type Props = {
  control: Control<StepForm>;
  /** the step's number: an exit-code condition names an earlier step */
  stepNumber: number;
  isSubmitted: boolean;
};

export function ConditionsSection({ control, stepNumber, isSubmitted }: Props) {
  const { fields, append, remove } = useFieldArray({ control, name: 'conditions' });
  const conditions = useWatch({ control, name: 'conditions' }) ?? [];
  const problems = conditionDraftProblems(conditions);
  const hasProblem = isSubmitted && problems.some((p) => p !== null);
  const [isOpen, setIsOpen] = useState(false);
  const isShown = isOpen || hasProblem;
  const isFull = fields.length >= MAX_CONDITIONS_PER_STEP;
  const Chevron = isShown ? ChevronDown : ChevronRight;

  return (
    <section
      className="rounded-lg border border-slate-200 dark:border-slate-800"
      data-testid="step-conditions"
    >
      <button
        type="button"
        className="flex w-full items-center gap-3 rounded-lg px-4 py-3 text-left hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:outline-none dark:hover:bg-slate-800/50"
        aria-expanded={isShown}
        aria-controls="step-conditions-body"
        onClick={() => setIsOpen(!isShown)}
      >
        <Chevron className="size-4 shrink-0 text-slate-500" aria-hidden />
        <ListChecks className="size-4 shrink-0 text-slate-500" aria-hidden />
        <span className="text-sm font-semibold text-slate-900 dark:text-white">Conditions</span>
        <span
          className="ml-auto text-right text-sm text-slate-500 dark:text-slate-400"
          data-testid="conditions-summary"
        >
          {conditionsSummary(fields.length)}
        </span>
      </button>
      {isShown && (
        <div
          id="step-conditions-body"
          className="space-y-3 border-t border-slate-200 px-4 py-4 dark:border-slate-800"
        >
          <p className="text-xs text-slate-500 dark:text-slate-400">
            The device checks these before the step runs. All must hold; otherwise the step is skipped and its
            log says why. A skipped step does not fail the deployment.
          </p>
          {fields.length === 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-300">No conditions: the step always runs.</p>
          )}
          <ol className="space-y-3">
            {fields.map((field, index) => (
              <ConditionRow
                key={field.id}
                control={control}
                index={index}
                kind={conditions[index]?.kind ?? field.kind}
                stepNumber={stepNumber}
                problem={isSubmitted ? (problems[index] ?? null) : null}
                onRemove={() => remove(index)}
              />
            ))}
          </ol>
          <div className="flex items-center gap-3">
            <Button
              size="sm"
              onClick={() => append(emptyConditionDraft('path', stepNumber - 1))}
              disabled={isFull}
              disabledReason={`At most ${MAX_CONDITIONS_PER_STEP} conditions per step`}
              icon={<Plus className="size-4" aria-hidden />}
            >
              Add condition
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}

function ConditionRow({
  control,
  index,
  kind,
  stepNumber,
  problem,
  onRemove,
}: {
  control: Control<StepForm>;
  index: number;
  kind: ConditionKind;
  stepNumber: number;
  problem: string | null;
  onRemove: () => void;
}) {
  const { register } = control;
  const id = `condition-${index}`;
  return (
    <li
      className="rounded-md bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/40 dark:ring-slate-700"
      data-testid="condition-row"
    >
      <div className="flex items-end gap-3">
        <div className="min-w-0 flex-1">
          <Field label={`Condition ${index + 1}`} htmlFor={`${id}-kind`}>
            <Select id={`${id}-kind`} {...register(`conditions.${index}.kind`)}>
              {CONDITION_KINDS.map((k) => (
                <option key={k} value={k} disabled={k === 'exit_code' && stepNumber <= 1}>
                  {CONDITION_KIND_LABELS[k]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <IconButton label={`Remove condition ${index + 1}`} onClick={onRemove}>
          <Trash2 className="size-4" aria-hidden />
        </IconButton>
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <ConditionFields control={control} index={index} kind={kind} stepNumber={stepNumber} />
      </div>
      {problem && (
        <p className="mt-2 text-xs text-red-600 dark:text-red-400" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
