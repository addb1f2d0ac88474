import type { UseFormReturn } from 'react-hook-form';
import { JOB_DESCRIPTION_MAX, JOB_NAME_MAX } from '@outpost/contract/deployments';
import { Field, Input, Textarea } from '../../../components/ui/form';
import { cn } from '../../../lib/cn';
import { todayInput } from '../lib/deploy-form';
import type { DeployFormValues } from '../lib/deploy-form';

// The deploy dialog's job fields: name, schedule (now or later, with date and time) and
// description (docs/product/deployments.md#deploy-dialog, #deploy-dialog-rules). A rule's message shows under its field
//.

type DeployFieldsProps = {
  form: UseFormReturn<DeployFormValues>;
  values: DeployFormValues;
  formId: string;
  isDisabled: boolean;
  jobNameError?: string;
  scheduleError?: string;
};

export function DeployFields({
  form,
  values,
  formId,
  isDisabled,
  jobNameError,
  scheduleError,
}: DeployFieldsProps) {
  const isLater = values.timing === 'later';
  const scheduleErrorId = `${formId}-schedule-error`;
  const errorProps = (hasError: boolean) =>
    hasError ? { 'aria-invalid': true, 'aria-describedby': scheduleErrorId } : {};
  return (
    <div className="grid grid-cols-1 gap-x-4 gap-y-3 border-t border-slate-200 pt-4 md:grid-cols-2 dark:border-slate-800">
      <Field label="Job Name" htmlFor={`${formId}-name`} required error={jobNameError}>
        <Input
          id={`${formId}-name`}
          maxLength={JOB_NAME_MAX}
          disabled={isDisabled}
          placeholder="Deploy ..."
          aria-invalid={jobNameError ? true : undefined}
          {...form.register('jobName')}
        />
      </Field>
      <fieldset className="space-y-1.5">
        <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
          Schedule
        </legend>
        <div className="grid grid-cols-2 gap-2">
          {(
            [
              ['now', 'Deploy Now', 'Starts right away'],
              ['later', 'Schedule for Later', 'Pick a date and time'],
            ] as const
          ).map(([value, label, hint]) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-start gap-2.5 rounded-lg px-3 py-1.5 ring-1 ring-slate-200 ring-inset dark:ring-slate-700',
                values.timing === value &&
                  'bg-indigo-50/70 ring-2 ring-indigo-600 dark:bg-indigo-500/10 dark:ring-indigo-500',
              )}
            >
              <input
                type="radio"
                value={value}
                disabled={isDisabled}
                className="mt-0.5 size-4 accent-indigo-600"
                {...form.register('timing')}
              />
              <span>
                <span className="block text-sm font-medium text-slate-900 dark:text-white">{label}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">{hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {isLater && (
        // Beside the description on wide screens, so the form fits a 900 px tall window.
        <div className="space-y-1.5 md:col-start-2 md:row-start-2">
          <div className="grid grid-cols-2 gap-2">
            <Field label="Date" htmlFor={`${formId}-date`}>
              <Input
                id={`${formId}-date`}
                type="date"
                min={todayInput()}
                disabled={isDisabled}
                {...errorProps(Boolean(scheduleError))}
                {...form.register('date')}
              />
            </Field>
            <Field label="Time" htmlFor={`${formId}-time`}>
              <Input
                id={`${formId}-time`}
                type="time"
                disabled={isDisabled}
                {...errorProps(Boolean(scheduleError))}
                {...form.register('time')}
              />
            </Field>
          </div>
          {scheduleError ? (
            <p
              id={scheduleErrorId}
              data-testid="schedule-error"
              className="text-xs text-red-600 dark:text-red-400"
            >
              {scheduleError}
            </p>
          ) : (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              In your time zone. Without both a date and a time the job starts now.
            </p>
          )}
        </div>
      )}
      <div className={cn(isLater ? 'md:col-start-1 md:row-start-2' : 'md:col-span-2')}>
        <Field label="Description" htmlFor={`${formId}-description`} hint="Optional">
          <Textarea
            id={`${formId}-description`}
            rows={2}
            maxLength={JOB_DESCRIPTION_MAX}
            disabled={isDisabled}
            placeholder="Why this deployment, change ticket, notes..."
            className="min-h-14"
            {...form.register('description')}
          />
        </Field>
      </div>
    </div>
  );
}
