import { Controller, useWatch } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import type { ConditionKind } from '@outpost/contract/step-conditions';
import { REGISTRY_HIVES } from '@outpost/contract/step-catalog';
import { ARCHITECTURES } from '@outpost/contract/targets';
import { Checkbox, Field, Input, Select } from '../../../components/ui/form';
import type { StepForm } from '../lib/step-form';

// docs/product/rollouts.md#step-conditions — the fields of one condition, by its kind.

type Props = {
  control: Control<StepForm>;
  index: number;
  kind: ConditionKind;
  stepNumber: number;
};

export function ConditionFields({ control, index, kind, stepNumber }: Props) {
  const { register } = control;
  const id = `condition-${index}`;
  const name = <K extends string>(key: K) => `conditions.${index}.${key}` as const;
  switch (kind) {
    case 'os_version':
      return (
        <>
          <Field label="Minimum version" htmlFor={`${id}-min`} hint="e.g. 10.0.19045; empty: no minimum">
            <Input id={`${id}-min`} placeholder="10.0.19045" autoComplete="off" {...register(name('min'))} />
          </Field>
          <Field label="Maximum version" htmlFor={`${id}-max`} hint="Empty: no maximum">
            <Input id={`${id}-max`} placeholder="10.0.22631" autoComplete="off" {...register(name('max'))} />
          </Field>
        </>
      );
    case 'architecture':
      return (
        <Controller
          control={control}
          name={`conditions.${index}.architectures`}
          render={({ field }) => (
            <fieldset className="sm:col-span-2">
              <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">
                Runs on any of
              </legend>
              <div className="flex flex-wrap gap-x-5 gap-y-1">
                {ARCHITECTURES.map((a) => (
                  <Checkbox
                    key={a}
                    id={`${id}-arch-${a}`}
                    label={a}
                    checked={field.value.includes(a)}
                    onChange={(e) =>
                      field.onChange(
                        e.target.checked
                          ? ARCHITECTURES.filter((x) => x === a || field.value.includes(x))
                          : field.value.filter((x) => x !== a),
                      )
                    }
                  />
                ))}
              </div>
            </fieldset>
          )}
        />
      );
    case 'path':
      return (
        <>
          <Field label="Check" htmlFor={`${id}-op`}>
            <Select id={`${id}-op`} {...register(name('path_operator'))}>
              <option value="exists">Exists</option>
              <option value="not_exists">Does not exist</option>
            </Select>
          </Field>
          <Field
            label="File or folder path"
            htmlFor={`${id}-path`}
            hint="Environment variables such as %ProgramFiles% are expanded"
          >
            <Input
              id={`${id}-path`}
              placeholder="%ProgramFiles%\App\app.exe"
              autoComplete="off"
              {...register(name('path'))}
            />
          </Field>
        </>
      );
    case 'registry':
      return <RegistryFields control={control} index={index} />;
    case 'process':
      return (
        <>
          <Field label="Process name" htmlFor={`${id}-name`}>
            <Input id={`${id}-name`} placeholder="app.exe" autoComplete="off" {...register(name('name'))} />
          </Field>
          <Field label="Check" htmlFor={`${id}-op`}>
            <Select id={`${id}-op`} {...register(name('process_operator'))}>
              <option value="running">Is running</option>
              <option value="not_running">Is not running</option>
            </Select>
          </Field>
        </>
      );
    case 'user_logged_in':
      return (
        <>
          <Field label="Check" htmlFor={`${id}-op`}>
            <Select id={`${id}-op`} {...register(name('user_operator'))}>
              <option value="logged_in">Is logged in</option>
              <option value="not_logged_in">Is not logged in</option>
            </Select>
          </Field>
          <Field label="User" htmlFor={`${id}-user`} hint="Empty: any user">
            <Input id={`${id}-user`} placeholder="Any user" autoComplete="off" {...register(name('user'))} />
          </Field>
        </>
      );
    case 'exit_code':
      return (
        <>
          <Field label="Step" htmlFor={`${id}-step`}>
            <Select id={`${id}-step`} {...register(name('step_order'))}>
              {Array.from({ length: Math.max(0, stepNumber - 1) }, (_, i) => (
                <option key={i + 1} value={String(i + 1)}>
                  Step {i + 1}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Exit code" htmlFor={`${id}-op`}>
            <Select id={`${id}-op`} {...register(name('exit_operator'))}>
              <option value="equals">Equals</option>
              <option value="not_equals">Does not equal</option>
              <option value="in">Is one of</option>
            </Select>
          </Field>
          <Field
            label="Codes"
            htmlFor={`${id}-codes`}
            hint="One code, or several separated by commas for “Is one of”"
          >
            <Input id={`${id}-codes`} placeholder="0, 3010" autoComplete="off" {...register(name('codes'))} />
          </Field>
        </>
      );
  }
}

function RegistryFields({ control, index }: { control: Control<StepForm>; index: number }) {
  const { register } = control;
  const id = `condition-${index}`;
  return (
    <>
      <Field label="Hive" htmlFor={`${id}-hive`}>
        <Select id={`${id}-hive`} {...register(`conditions.${index}.hive`)}>
          {REGISTRY_HIVES.map((h) => (
            <option key={h} value={h}>
              {h}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Key path" htmlFor={`${id}-key`}>
        <Input
          id={`${id}-key`}
          placeholder="SOFTWARE\Vendor\Product"
          autoComplete="off"
          {...register(`conditions.${index}.key_path`)}
        />
      </Field>
      <Field label="Value name" htmlFor={`${id}-value-name`} hint="Empty: the key’s default value">
        <Input
          id={`${id}-value-name`}
          placeholder="Version"
          autoComplete="off"
          {...register(`conditions.${index}.value_name`)}
        />
      </Field>
      <Field label="Check" htmlFor={`${id}-op`}>
        <Select id={`${id}-op`} {...register(`conditions.${index}.registry_operator`)}>
          <option value="exists">Exists</option>
          <option value="equals">Equals</option>
        </Select>
      </Field>
      <RegistryValue control={control} index={index} />
    </>
  );
}

function RegistryValue({ control, index }: { control: Control<StepForm>; index: number }) {
  const id = `condition-${index}`;
  const operator = useWatch({ control, name: `conditions.${index}.registry_operator` });
  if (operator !== 'equals') {
    return (
      <p className="text-xs text-slate-500 sm:col-span-2 dark:text-slate-400">
        Registry conditions hold only on Windows devices.
      </p>
    );
  }
  return (
    <div className="sm:col-span-2">
      <Field label="Value" htmlFor={`${id}-value`} hint="Registry conditions hold only on Windows devices">
        <Input
          id={`${id}-value`}
          placeholder="1"
          autoComplete="off"
          {...control.register(`conditions.${index}.value`)}
        />
      </Field>
    </div>
  );
}
