import {
  checkDefinition,
  CUSTOM_FIELD_KEY_PATTERN,
  CustomFieldCreateBody,
  customFieldMessages,
} from '@outpost/contract/custom-fields';
import type { CustomField, CustomFieldType, CustomFieldUpdateBody } from '@outpost/contract/custom-fields';

// The Create and Edit Custom Field dialog's form (docs/product/device-sets.md#custom-fields):
// plain strings while editing, checked with the contract's own rules before it is sent.

export type FieldForm = {
  name: string;
  key: string;
  /** the key follows the name until the administrator edits it */
  isKeyTouched: boolean;
  field_type: CustomFieldType;
  /** one option per line */
  options: string;
  required: boolean;
  default_value: string;
};

export const emptyFieldForm: FieldForm = {
  name: '',
  key: '',
  isKeyTouched: false,
  field_type: 'text',
  options: '',
  required: false,
  default_value: '',
};

export const fieldToForm = (f: CustomField): FieldForm => ({
  name: f.name,
  key: f.key,
  isKeyTouched: true,
  field_type: f.field_type,
  options: f.options.join('\n'),
  required: f.required,
  default_value: f.default_value ?? '',
});

/** A key from a name: "Warranty end (UTC)" → "warranty_end_utc". */
export function keyFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, 40)
    .replace(/_+$/, '');
  return slug;
}

export const optionsOf = (form: Pick<FieldForm, 'field_type' | 'options'>): string[] =>
  form.field_type === 'select'
    ? form.options
        .split('\n')
        .map((o) => o.trim())
        .filter((o) => o !== '')
    : [];

const defaultOf = (form: FieldForm) => (form.default_value.trim() === '' ? null : form.default_value);

/** The first problem with the form in the contract's words, or null. */
export function validateFieldForm(form: FieldForm, isEdit: boolean): string | null {
  if (!isEdit) {
    const parsed = CustomFieldCreateBody.safeParse(createBody(form));
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid field');
  }
  if (form.name.trim() === '') {
    return customFieldMessages.nameRequired;
  }
  if (!CUSTOM_FIELD_KEY_PATTERN.test(form.key)) {
    return customFieldMessages.keyInvalid;
  }
  const checked = checkDefinition({
    field_type: form.field_type,
    options: optionsOf(form),
    default_value: defaultOf(form),
  });
  return checked.ok ? null : checked.message;
}

export const createBody = (form: FieldForm) => ({
  key: form.key,
  name: form.name.trim(),
  field_type: form.field_type,
  options: optionsOf(form),
  required: form.required,
  default_value: defaultOf(form),
});

export const updateBody = (form: FieldForm): CustomFieldUpdateBody => ({
  name: form.name.trim(),
  ...(form.field_type === 'select' && { options: optionsOf(form) }),
  required: form.required,
  default_value: defaultOf(form),
});
