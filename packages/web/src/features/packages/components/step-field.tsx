import { useId } from 'react';
import { Controller } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import { FileRef } from '@outpost/contract/step-catalog';
import type { StepField as StepFieldDef } from '@outpost/contract/step-catalog';
import { Checkbox, Field, Input, Select, Textarea } from '../../../components/ui/form';
import { CustomFieldSelect } from './custom-field-select';
import { FileUploadField } from './file-upload-field';
import type { StepForm } from '../lib/step-form';

// One field of a step, rendered from its catalogue definition (docs/product/packages.md#step-types: text, url, number,
// textarea, select, boolean, file and a custom field of the tenant, each with label, required flag, placeholder, help text and
// options). The same definition drives the server's validation.

type Props = {
  field: StepFieldDef;
  control: Control<StepForm>;
  /** Required, active and empty after a failed submit. */
  isMissing?: boolean;
  onUploadingChange: (key: string, isUploading: boolean) => void;
};

export function StepField({ field, control, isMissing, onUploadingChange }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const name = `step_details.${field.key}` as const;

  if (field.type === 'boolean') {
    return (
      <Controller
        control={control}
        name={name}
        render={({ field: f }) => (
          <div className="sm:col-span-2">
            <Checkbox
              id={id}
              label={field.label}
              checked={f.value === true}
              onChange={(e) => f.onChange(e.target.checked)}
              aria-describedby={field.helpText ? hintId : undefined}
            />
            {field.helpText && (
              <p id={hintId} className="mt-0.5 ml-6 text-xs text-slate-500 dark:text-slate-400">
                {field.helpText}
              </p>
            )}
          </div>
        )}
      />
    );
  }

  const kind = field.type;
  const isWide = field.type === 'textarea' || field.type === 'file' || field.type === 'url';
  return (
    <div className={isWide ? 'sm:col-span-2' : undefined}>
      <Field
        label={field.label}
        required={field.required}
        hint={field.helpText}
        htmlFor={id}
        error={isMissing ? `${field.label} is required` : undefined}
      >
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => {
            switch (kind) {
              case 'select':
                return (
                  <Select
                    id={id}
                    value={typeof f.value === 'string' ? f.value : ''}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                  >
                    {!field.required || f.value === undefined || f.value === '' ? (
                      <option value="">Select…</option>
                    ) : null}
                    {(field.options ?? []).map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </Select>
                );
              case 'custom_field':
                return (
                  <CustomFieldSelect
                    id={id}
                    value={typeof f.value === 'string' ? f.value : ''}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                  />
                );
              case 'textarea':
                return (
                  <Textarea
                    id={id}
                    rows={field.key === 'script_content' ? 8 : 4}
                    className="font-mono text-[13px]"
                    spellCheck={false}
                    placeholder={field.placeholder}
                    value={typeof f.value === 'string' ? f.value : ''}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                  />
                );
              case 'file':
                return (
                  <FileUploadField
                    label={field.label}
                    accept={field.accept}
                    value={FileRef.safeParse(f.value).data ?? null}
                    onChange={f.onChange}
                    isInvalid={isMissing}
                    onUploadingChange={(isUploading) => onUploadingChange(field.key, isUploading)}
                  />
                );
              case 'number':
                return (
                  <Input
                    id={id}
                    type="number"
                    inputMode="numeric"
                    min={field.range?.min}
                    max={field.range?.max}
                    step={field.range ? 1 : undefined}
                    placeholder={field.placeholder}
                    value={typeof f.value === 'number' ? f.value : ''}
                    onChange={(e) => f.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
                    onBlur={f.onBlur}
                  />
                );
              case 'text':
              case 'url':
                return (
                  <Input
                    id={id}
                    type={field.type === 'url' ? 'url' : 'text'}
                    placeholder={field.placeholder}
                    className={
                      field.type === 'text' && field.key !== 'step_name' ? 'font-mono text-[13px]' : undefined
                    }
                    spellCheck={false}
                    value={typeof f.value === 'string' ? f.value : ''}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                  />
                );
            }
          }}
        />
      </Field>
    </div>
  );
}
