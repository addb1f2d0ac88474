import { useFieldArray, useWatch } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import {
  CHECK_TYPES,
  CHECK_TYPE_LABELS,
  CHECKS_PER_POLICY_MAX,
  SEVERITIES,
  SEVERITY_LABELS,
} from '@outpost/contract/checks';
import type { CheckType } from '@outpost/contract/checks';
import { Button, IconButton } from '../../../components/ui/button';
import { Field, Input, Select } from '../../../components/ui/form';
import { defaultConfig, newCheck } from '../lib/monitoring-form';
import type { MonitoringFormValues } from '../lib/monitoring-form';
import { CheckConfigFields } from './check-config-fields';

// The monitoring policy dialog's checks (docs/product/monitoring.md#checks): add, remove and
// reorder checks; each has a type with its settings, an interval, the failures before it alerts
// and a severity. A check keeps its id (and its devices' states) while it stays in the list.

type Form = UseFormReturn<MonitoringFormValues>;

function CheckCard({
  form,
  index,
  count,
  idOf,
  onMove,
  onRemove,
}: {
  form: Form;
  index: number;
  count: number;
  idOf: (name: string) => string;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { register, setValue, getValues } = form;
  const type = useWatch({ control: form.control, name: `checks.${index}.config.type` });
  const errors = form.formState.errors.checks?.[index];
  const id = (key: string) => idOf(`check-${index}-${key}`);
  const name = useWatch({ control: form.control, name: `checks.${index}.name` });

  const chooseType = (next: CheckType) => {
    // a name that was the old type's label follows the type
    if (getValues(`checks.${index}.name`) === CHECK_TYPE_LABELS[type]) {
      setValue(`checks.${index}.name`, CHECK_TYPE_LABELS[next]);
    }
    setValue(`checks.${index}.config`, defaultConfig(next), { shouldValidate: form.formState.isSubmitted });
  };

  return (
    <li
      className="rounded-lg border border-slate-200 bg-slate-50/60 p-4 dark:border-slate-800 dark:bg-slate-900/40"
      data-check-index={index}
      aria-label={`Check ${index + 1}: ${name || CHECK_TYPE_LABELS[type]}`}
    >
      <div className="mb-3 flex items-center justify-between gap-2">
        <span className="inline-flex size-6 items-center justify-center rounded-full bg-indigo-50 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-600/20 dark:bg-indigo-500/10 dark:text-indigo-300 dark:ring-indigo-500/30">
          {index + 1}
        </span>
        <div className="flex gap-0.5">
          <IconButton
            label={`Move check ${index + 1} up`}
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            <ArrowUp className="size-4" />
          </IconButton>
          <IconButton
            label={`Move check ${index + 1} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            <ArrowDown className="size-4" />
          </IconButton>
          <IconButton
            label={`Remove check ${index + 1}`}
            className="hover:text-red-600 dark:hover:text-red-400"
            onClick={onRemove}
          >
            <Trash2 className="size-4" />
          </IconButton>
        </div>
      </div>
      <div className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Type" htmlFor={id('type')} required>
            <Select id={id('type')} value={type} onChange={(e) => chooseType(e.target.value as CheckType)}>
              {CHECK_TYPES.map((t) => (
                <option key={t} value={t}>
                  {CHECK_TYPE_LABELS[t]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Check name" htmlFor={id('name')} error={errors?.name?.message} required>
            <Input id={id('name')} autoComplete="off" {...register(`checks.${index}.name`)} />
          </Field>
        </div>
        <CheckConfigFields form={form} index={index} type={type} idOf={idOf} />
        <div className="grid gap-3 sm:grid-cols-3">
          <Field
            label="Interval (seconds)"
            htmlFor={id('interval')}
            error={errors?.interval_seconds?.message}
            hint="30 s to 24 h"
            required
          >
            <Input
              id={id('interval')}
              type="number"
              min={30}
              max={86400}
              {...register(`checks.${index}.interval_seconds`, { valueAsNumber: true })}
            />
          </Field>
          <Field
            label="Failures before alert"
            htmlFor={id('failures')}
            error={errors?.failures_before_alert?.message}
            hint="In a row"
            required
          >
            <Input
              id={id('failures')}
              type="number"
              min={1}
              max={10}
              {...register(`checks.${index}.failures_before_alert`, { valueAsNumber: true })}
            />
          </Field>
          <Field label="Severity" htmlFor={id('severity')} required>
            <Select id={id('severity')} {...register(`checks.${index}.severity`)}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </div>
    </li>
  );
}

export function CheckEditor({ form, idOf }: { form: Form; idOf: (name: string) => string }) {
  const { fields, append, remove, move } = useFieldArray({
    control: form.control,
    name: 'checks',
    keyName: 'key',
  });
  const listError = form.formState.errors.checks?.message ?? form.formState.errors.checks?.root?.message;
  return (
    <section aria-labelledby={idOf('checks-title')} className="space-y-3">
      <div className="flex items-end justify-between gap-3">
        <div>
          <h3 id={idOf('checks-title')} className="text-sm font-semibold text-slate-900 dark:text-white">
            Checks
          </h3>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Each device of the target runs these checks; the same check in two policies runs once.
          </p>
        </div>
        <Button
          size="sm"
          icon={<Plus className="size-4" />}
          disabled={fields.length >= CHECKS_PER_POLICY_MAX}
          onClick={() => append(newCheck('cpu'))}
        >
          Add check
        </Button>
      </div>
      {listError && <p className="text-xs text-red-600 dark:text-red-400">{listError}</p>}
      {fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
          No checks: the policy only alerts on devices that go offline, if you set that below.
        </p>
      ) : (
        <ol className="space-y-3">
          {fields.map((f, index) => (
            <CheckCard
              key={f.key}
              form={form}
              index={index}
              count={fields.length}
              idOf={idOf}
              onMove={(to) => move(index, to)}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
