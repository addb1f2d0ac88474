import { useId, useState } from 'react';
import { CUSTOM_FIELD_NAME_MAX, CUSTOM_FIELD_TYPES } from '@outpost/contract/custom-fields';
import type { CustomField, CustomFieldType } from '@outpost/contract/custom-fields';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FieldValueInput } from '../../../components/ui/field-value-input';
import { Checkbox, Field, Input, Select, Textarea } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { FIELD_TYPE_LABELS } from '../../../lib/custom-field-values';
import { useSaveCustomField } from '../api/custom-fields';
import {
  createBody,
  emptyFieldForm,
  fieldToForm,
  keyFromName,
  optionsOf,
  updateBody,
  validateFieldForm,
} from '../lib/field-form';
import type { FieldForm } from '../lib/field-form';

// docs/product/device-sets.md#custom-fields: Create and Edit Custom Field. The key and the type
// are fixed once the field exists (values and steps refer to them). Mounted while open.
export function CustomFieldDialog({ field, onClose }: { field: CustomField | null; onClose: () => void }) {
  const toast = useToast();
  const save = useSaveCustomField();
  const [form, setForm] = useState<FieldForm>(() => (field ? fieldToForm(field) : emptyFieldForm));
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const id = (name: string) => `${baseId}-${name}`;
  const isEdit = field !== null;

  const change = (patch: Partial<FieldForm>) => {
    setForm((f) => {
      const next = { ...f, ...patch };
      if (patch.name !== undefined && !f.isKeyTouched && !isEdit) {
        next.key = keyFromName(patch.name);
      }
      // a default that no longer fits the type or the options is dropped
      if (patch.field_type !== undefined && patch.field_type !== f.field_type) {
        next.default_value = '';
      }
      return next;
    });
    setError(null);
  };

  const submit = () => {
    const problem = validateFieldForm(form, isEdit);
    if (problem) {
      setError(problem);
      return;
    }
    const input = field ? { id: field.id, body: updateBody(form) } : { body: createBody(form) };
    save.mutate(input, {
      onSuccess: (saved) => {
        toast.show({
          type: 'success',
          title: isEdit ? 'Custom field updated' : 'Custom field created',
          message: `${saved.name} (${saved.key}) was ${isEdit ? 'updated' : 'created'}`,
        });
        onClose();
      },
      onError: (err) => setError(errorMessage(err, 'Failed to save the custom field')),
    });
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="lg"
      title={isEdit ? 'Edit Custom Field' : 'Create Custom Field'}
      description="A custom field adds your own information to every device, such as an asset tag or a warranty date."
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="custom-field-form" isLoading={save.isPending}>
            {isEdit ? 'Save Changes' : 'Create Field'}
          </Button>
        </>
      }
    >
      <form
        id="custom-field-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {error && <Alert>{error}</Alert>}
        <FieldFormInputs form={form} change={change} isEdit={isEdit} id={id} />
      </form>
    </Dialog>
  );
}

/** The dialog's inputs: name and key, type and default, options of a select field, required. */
function FieldFormInputs({
  form,
  change,
  isEdit,
  id,
}: {
  form: FieldForm;
  change: (patch: Partial<FieldForm>) => void;
  isEdit: boolean;
  id: (name: string) => string;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" htmlFor={id('name')} required>
          <Input
            id={id('name')}
            autoComplete="off"
            maxLength={CUSTOM_FIELD_NAME_MAX}
            placeholder="Asset tag"
            value={form.name}
            onChange={(e) => change({ name: e.target.value })}
          />
        </Field>
        <Field
          label="Key"
          htmlFor={id('key')}
          required
          hint={isEdit ? 'Fixed once created' : 'Used by the API and by package steps'}
        >
          <Input
            id={id('key')}
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-[13px]"
            placeholder="asset_tag"
            disabled={isEdit}
            value={form.key}
            onChange={(e) => change({ key: e.target.value, isKeyTouched: true })}
          />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Type" htmlFor={id('type')} required hint={isEdit ? 'Fixed once created' : undefined}>
          <Select
            id={id('type')}
            disabled={isEdit}
            value={form.field_type}
            onChange={(e) => change({ field_type: e.target.value as CustomFieldType })}
          >
            {CUSTOM_FIELD_TYPES.map((t) => (
              <option key={t} value={t}>
                {FIELD_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Default value"
          htmlFor={id('default')}
          hint="Shown on devices without a value of their own"
        >
          <FieldValueInput
            id={id('default')}
            shape={{ field_type: form.field_type, options: optionsOf(form) }}
            emptyLabel="No default"
            value={form.default_value}
            onChange={(v) => change({ default_value: v })}
          />
        </Field>
      </div>
      {form.field_type === 'select' && (
        <Field
          label="Options"
          htmlFor={id('options')}
          required
          hint="One per line, in the order they are offered (at most 50)"
        >
          <Textarea
            id={id('options')}
            rows={5}
            placeholder={'Pilot\nBroad\nLast'}
            value={form.options}
            onChange={(e) => change({ options: e.target.value })}
          />
        </Field>
      )}
      <div>
        <Checkbox
          id={id('required')}
          label="Required"
          checked={form.required}
          onChange={(e) => change({ required: e.target.checked })}
        />
        <p className="mt-0.5 ml-6 text-xs text-slate-500 dark:text-slate-400">
          A device’s value can be changed but not cleared.
        </p>
      </div>
    </>
  );
}
