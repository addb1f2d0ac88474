import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { ChevronDown, Info, Layers } from 'lucide-react';
import { Checkbox, Field, Input, Switch } from '../ui/form';
import { cn } from '../../lib/cn';
import type { RolloutFormHost } from './rollout-form';
import { defaultRolloutValues, gateSentence, MAX_SOAK_MINUTES, rolloutSummary } from './rollout-form';
import type { RolloutField, RolloutFormValues, RolloutProblem } from './rollout-form';
import { GroupWaves, PercentWaves } from './rollout-waves';

// The rollout section of the deploy dialog and of Update Selected (docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog):
// collapsed and off by default, so the dialog sends what it always sent until the user opens it.

type SectionProps = {
  form: UseFormReturn<RolloutFormHost>;
  values: RolloutFormValues | undefined;
  formId: string;
  isDisabled: boolean;
  /** the rules the section breaks, shown next to their fields */
  problems: RolloutProblem[];
  /** what is rolled out, in the switch's words ("Deploy in waves", "Update in waves") */
  switchLabel?: string;
  /** offers "Run only inside maintenance windows" (deployments; agent updates do not wait for windows) */
  hasWindowsOption?: boolean;
};

const MODES = [
  ['percent', 'By percentage', 'Cumulative shares of the devices'],
  ['groups', 'By groups', 'One device group per wave'],
] as const;

function ModeChoice({ form, values, isDisabled }: Omit<SectionProps, 'formId' | 'problems'>) {
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">Waves</legend>
      <div className="grid grid-cols-2 gap-2">
        {MODES.map(([value, label, hint]) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-start gap-2.5 rounded-lg px-3 py-1.5 ring-1 ring-slate-200 ring-inset dark:ring-slate-700',
              values?.mode === value &&
                'bg-indigo-50/70 ring-2 ring-indigo-600 dark:bg-indigo-500/10 dark:ring-indigo-500',
            )}
          >
            <input
              type="radio"
              value={value}
              disabled={isDisabled}
              className="mt-0.5 size-4 accent-indigo-600"
              {...form.register('rollout.mode')}
            />
            <span>
              <span className="block text-sm font-medium text-slate-900 dark:text-white">{label}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-400">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function GateFields({ form, values, formId, isDisabled, problems }: SectionProps) {
  const errorOf = (field: RolloutField) => problems.find((p) => p.field === field)?.message;
  const number = (name: 'minFinished' | 'minSuccess' | 'soakMinutes', max: number, min = 0) => {
    const error = errorOf(name);
    return (
      <Input
        id={`${formId}-${name}`}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        className="tabular-nums"
        disabled={isDisabled}
        aria-invalid={error ? true : undefined}
        {...form.register(`rollout.${name}`)}
      />
    );
  };
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        Gate between waves
      </legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Field label="Minimum finished (%)" htmlFor={`${formId}-minFinished`} error={errorOf('minFinished')}>
          {number('minFinished', 100, 1)}
        </Field>
        <Field label="Minimum success (%)" htmlFor={`${formId}-minSuccess`} error={errorOf('minSuccess')}>
          {number('minSuccess', 100)}
        </Field>
        <Field label="Soak time (minutes)" htmlFor={`${formId}-soakMinutes`} error={errorOf('soakMinutes')}>
          {number('soakMinutes', MAX_SOAK_MINUTES)}
        </Field>
      </div>
      <p
        className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-xs leading-relaxed text-slate-600 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/50 dark:text-slate-300 dark:ring-slate-700"
        data-testid="gate-sentence"
      >
        <Info className="mt-0.5 size-3.5 shrink-0 text-indigo-500" aria-hidden />
        <span>{gateSentence(values ?? defaultRolloutValues())}</span>
      </p>
    </fieldset>
  );
}

export function RolloutSection(props: SectionProps) {
  const {
    form,
    values,
    formId,
    isDisabled,
    switchLabel = 'Deploy in waves',
    hasWindowsOption = true,
  } = props;
  const [isOpen, setIsOpen] = useState(false);
  const bodyId = `${formId}-rollout`;
  const v = values ?? defaultRolloutValues();
  return (
    <section
      aria-label="Rollout"
      className="rounded-lg ring-1 ring-slate-200 ring-inset dark:ring-slate-700/80"
      data-testid="rollout-section"
    >
      <h3>
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls={bodyId}
          onClick={() => setIsOpen((o) => !o)}
          className="flex w-full items-center gap-3 rounded-lg px-3.5 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-slate-800/50"
        >
          <Layers className="size-4 shrink-0 text-indigo-500" aria-hidden />
          <span className="text-sm font-semibold text-slate-900 dark:text-white">Rollout</span>
          <span className="min-w-0 flex-1 truncate text-xs text-slate-500 dark:text-slate-400">
            {rolloutSummary(v)}
          </span>
          <ChevronDown
            className={cn('size-4 shrink-0 text-slate-400 transition-transform', isOpen && 'rotate-180')}
            aria-hidden
          />
        </button>
      </h3>
      {isOpen && (
        <div id={bodyId} className="space-y-4 border-t border-slate-200 px-3.5 pb-4 dark:border-slate-700/80">
          <Switch
            label={switchLabel}
            description="Start with a few devices; each wave must pass its gate before the next one starts."
            checked={v.isOn}
            disabled={isDisabled}
            onChange={(on) => form.setValue('rollout.isOn', on, { shouldDirty: true })}
          />
          {v.isOn && (
            <div className="space-y-4" data-testid="rollout-plan">
              <ModeChoice form={form} values={v} isDisabled={isDisabled} />
              {v.mode === 'percent' ? <PercentWaves {...props} /> : <GroupWaves {...props} />}
              <GateFields {...props} values={v} />
            </div>
          )}
          {hasWindowsOption && (
            <div className="border-t border-slate-200 pt-3 dark:border-slate-700/80">
              <Checkbox
                label="Run only inside maintenance windows"
                disabled={isDisabled}
                aria-describedby={`${bodyId}-windows-hint`}
                {...form.register('rollout.onlyInWindows')}
              />
              <p
                id={`${bodyId}-windows-hint`}
                className="mt-1 pl-6 text-xs text-slate-500 dark:text-slate-400"
              >
                Devices outside their window wait for it; a device without a window runs at once.
              </p>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
