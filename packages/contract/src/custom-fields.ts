import { z } from 'zod';
import { Id, IdParam } from './input';

// Custom fields (docs/product/device-sets.md#custom-fields): the definitions an administrator
// gives a tenant, and the values devices hold. A value travels and is stored in one canonical
// text form per type, so equal values compare equal in filters and dynamic groups.

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'select', 'boolean'] as const;
export const CustomFieldType = z.enum(CUSTOM_FIELD_TYPES, {
  error: `Type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`,
});
export type CustomFieldType = z.infer<typeof CustomFieldType>;

export const CUSTOM_FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const CUSTOM_FIELD_NAME_MAX = 60;
export const CUSTOM_FIELD_TEXT_MAX = 500;
export const CUSTOM_FIELD_OPTIONS_MAX = 50;
export const CUSTOM_FIELD_OPTION_MAX = 100;
/** A tenant's fields at most (the device detail shows them all). */
export const MAX_CUSTOM_FIELDS = 100;
export const MAX_DEVICES_PER_FIELD_BULK = 1000;

export const customFieldMessages = {
  keyInvalid:
    'Key must start with a lower-case letter and hold only lower-case letters, digits and underscores (at most 40)',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be ${CUSTOM_FIELD_NAME_MAX} characters or less`,
  optionsRequired: 'A select field needs at least one option',
  optionsTooMany: `A select field has at most ${CUSTOM_FIELD_OPTIONS_MAX} options`,
  optionEmpty: 'Options must not be empty',
  optionTooLong: `Options must be ${CUSTOM_FIELD_OPTION_MAX} characters or less`,
  optionDuplicate: (option: string) => `Option '${option}' is listed twice`,
  optionsOnlyForSelect: 'Only a select field has options',
  notANumber: 'not a number',
  notADate: 'not a date (YYYY-MM-DD)',
  notABoolean: 'not true or false',
  notAnOption: (options: readonly string[]) => `not one of ${options.join(', ')}`,
  textTooLong: `longer than ${CUSTOM_FIELD_TEXT_MAX} characters`,
  textEmpty: 'empty',
  notText: 'not text',
  defaultInvalid: (reason: string) => `Default value is ${reason}`,
  valueInvalid: (name: string, reason: string) => `${name}: the value is ${reason}`,
  fieldNotFound: 'Custom field not found',
  unknownField: (key: string) => `Unknown custom field '${key}'`,
  keyTaken: (key: string) => `A custom field with the key '${key}' already exists`,
  tooManyFields: `A tenant has at most ${MAX_CUSTOM_FIELDS} custom fields`,
  requiredCannotClear: (name: string) => `${name} is required and cannot be cleared`,
  reorderMismatch: 'The new order must list every custom field once',
  optionInUse: (option: string, devices: number) =>
    `Option '${option}' is set on ${devices} device${devices === 1 ? '' : 's'}; change those devices first`,
  noValues: 'Give at least one field value',
  noDevices: 'Please select devices first',
  outputNotStored: (key: string, reason: string) => `Output not stored in field '${key}': ${reason}`,
} as const;
const m = customFieldMessages;

/** What a value must satisfy: its field's type, and the options of a select field. */
export type FieldShape = { field_type: CustomFieldType; options: readonly string[] };

/** A value as the API takes it: canonical text, or a number or boolean for those types. */
export const FieldValueInput = z.union([z.string(), z.number(), z.boolean()]);
export type FieldValueInput = z.infer<typeof FieldValueInput>;

export type CanonicalValue =
  { ok: true; text: string; number: number | null } | { ok: false; reason: string };

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE_WORDS = ['true', 'yes', '1'];
const FALSE_WORDS = ['false', 'no', '0'];

/** The shortest decimal that reads back as the same number (-0 is 0). */
export const canonicalNumber = (n: number): string => (Object.is(n, -0) ? '0' : String(n));

/** A calendar date YYYY-MM-DD that exists (no 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const parts = DATE_TEXT.exec(text);
  if (!parts) {
    return false;
  }
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * A value checked against its field and put in canonical form: a number as its shortest decimal,
 * a date as YYYY-MM-DD, a boolean as true/false (yes/no and 1/0 accepted), a select value as one
 * of the options, text trimmed and at most 500 characters. Text input is trimmed for every type.
 */
export function canonicalValue(shape: FieldShape, input: FieldValueInput): CanonicalValue {
  const text = typeof input === 'string' ? input.trim() : null;
  switch (shape.field_type) {
    case 'number': {
      const n =
        typeof input === 'number' ? input : text !== null && NUMBER_TEXT.test(text) ? Number(text) : NaN;
      return Number.isFinite(n)
        ? { ok: true, text: canonicalNumber(n), number: n }
        : { ok: false, reason: m.notANumber };
    }
    case 'date':
      return text !== null && isCalendarDate(text)
        ? { ok: true, text, number: null }
        : { ok: false, reason: m.notADate };
    case 'boolean': {
      const word = typeof input === 'boolean' ? String(input) : (text ?? '').toLowerCase();
      if (TRUE_WORDS.includes(word)) {
        return { ok: true, text: 'true', number: null };
      }
      return FALSE_WORDS.includes(word)
        ? { ok: true, text: 'false', number: null }
        : { ok: false, reason: m.notABoolean };
    }
    case 'select':
      return text !== null && shape.options.includes(text)
        ? { ok: true, text, number: null }
        : { ok: false, reason: m.notAnOption(shape.options) };
    case 'text':
      if (text === null) {
        return typeof input === 'number' || typeof input === 'boolean'
          ? { ok: true, text: String(input), number: null }
          : { ok: false, reason: m.notText };
      }
      if (text === '') {
        return { ok: false, reason: m.textEmpty };
      }
      return text.length > CUSTOM_FIELD_TEXT_MAX
        ? { ok: false, reason: m.textTooLong }
        : { ok: true, text, number: null };
  }
}

/** The first problem with a select field's options, or with options on another type; null when fine. */
export function optionsProblem(type: CustomFieldType, options: readonly string[]): string | null {
  if (type !== 'select') {
    return options.length > 0 ? m.optionsOnlyForSelect : null;
  }
  if (options.length === 0) {
    return m.optionsRequired;
  }
  if (options.length > CUSTOM_FIELD_OPTIONS_MAX) {
    return m.optionsTooMany;
  }
  const seen = new Set<string>();
  for (const option of options) {
    if (option.trim() === '') {
      return m.optionEmpty;
    }
    if (option.length > CUSTOM_FIELD_OPTION_MAX) {
      return m.optionTooLong;
    }
    if (seen.has(option)) {
      return m.optionDuplicate(option);
    }
    seen.add(option);
  }
  return null;
}

// ---------- definitions ----------

export const CustomField = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  field_type: CustomFieldType,
  options: z.array(z.string()),
  required: z.boolean(),
  /** canonical text, or null for no default */
  default_value: z.string().nullable(),
  position: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CustomField = z.infer<typeof CustomField>;

export const CustomFieldListResponse = z.array(CustomField);
export type CustomFieldListResponse = z.infer<typeof CustomFieldListResponse>;

const key = z.string({ error: m.keyInvalid }).regex(CUSTOM_FIELD_KEY_PATTERN, m.keyInvalid);
const name = z
  .string({ error: m.nameRequired })
  .trim()
  .min(1, m.nameRequired)
  .max(CUSTOM_FIELD_NAME_MAX, m.nameTooLong);
const options = z.array(z.string().trim()).max(CUSTOM_FIELD_OPTIONS_MAX + 1);
const defaultValue = FieldValueInput.nullable();

/** The options and default of a definition checked together; the default in canonical form. */
export function checkDefinition(def: {
  field_type: CustomFieldType;
  options: readonly string[];
  default_value: FieldValueInput | null;
}): { ok: true; default_value: string | null } | { ok: false; path: string; message: string } {
  const problem = optionsProblem(def.field_type, def.options);
  if (problem) {
    return { ok: false, path: 'options', message: problem };
  }
  if (def.default_value === null) {
    return { ok: true, default_value: null };
  }
  const canonical = canonicalValue(def, def.default_value);
  return canonical.ok
    ? { ok: true, default_value: canonical.text }
    : { ok: false, path: 'default_value', message: m.defaultInvalid(canonical.reason) };
}

/** POST /customer/custom-fields. The key and type are fixed once created. */
export const CustomFieldCreateBody = z
  .object({
    key,
    name,
    field_type: CustomFieldType,
    options: options.default([]),
    required: z.boolean().default(false),
    default_value: defaultValue.default(null),
  })
  .transform((body, ctx) => {
    const checked = checkDefinition(body);
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', path: [checked.path], message: checked.message });
      return z.NEVER;
    }
    return { ...body, default_value: checked.default_value };
  });
export type CustomFieldCreateBody = z.input<typeof CustomFieldCreateBody>;
export type CustomFieldCreateInput = z.output<typeof CustomFieldCreateBody>;

/** PUT /customer/custom-fields/{id}: an omitted property stays; checked against the stored type. */
export const CustomFieldUpdateBody = z.object({
  name: name.optional(),
  options: options.optional(),
  required: z.boolean().optional(),
  default_value: defaultValue.optional(),
});
export type CustomFieldUpdateBody = z.infer<typeof CustomFieldUpdateBody>;

export const CustomFieldIdParams = z.object({ id: IdParam });

/** PUT /customer/custom-fields/reorder: every field id once, in the new order. */
export const CustomFieldReorderBody = z.object({
  field_ids: z.array(Id).min(1).max(MAX_CUSTOM_FIELDS),
});
export type CustomFieldReorderBody = z.infer<typeof CustomFieldReorderBody>;

export const DeleteCustomFieldResponse = z.object({
  deleted: z.number().int(),
  /** device values removed with it */
  values_removed: z.number().int(),
});
export type DeleteCustomFieldResponse = z.infer<typeof DeleteCustomFieldResponse>;

// ---------- values ----------

/** One field of one device: its value, or the field's default (is_default), or null. */
export const DeviceFieldValue = z.object({
  field_id: z.number().int(),
  key: z.string(),
  name: z.string(),
  field_type: CustomFieldType,
  options: z.array(z.string()),
  required: z.boolean(),
  value: z.string().nullable(),
  is_default: z.boolean(),
  updated_at: z.string().nullable(),
});
export type DeviceFieldValue = z.infer<typeof DeviceFieldValue>;

export const DeviceFieldsResponse = z.object({
  device_id: z.number().int(),
  device_guid: z.string(),
  fields: z.array(DeviceFieldValue),
});
export type DeviceFieldsResponse = z.infer<typeof DeviceFieldsResponse>;

/** Values by field key; null clears the device's value (its default shows again). */
export const FieldValuesBody = z
  .record(z.string().max(40), FieldValueInput.nullable())
  .refine((values) => Object.keys(values).length > 0, m.noValues)
  .refine((values) => Object.keys(values).length <= MAX_CUSTOM_FIELDS, m.tooManyFields);
export type FieldValuesBody = z.infer<typeof FieldValuesBody>;

/** POST /customer/devices/fields: the same values on several devices (the list's selection). */
export const BulkFieldValuesBody = z.object({
  device_ids: z.array(Id, { error: m.noDevices }).min(1, m.noDevices).max(MAX_DEVICES_PER_FIELD_BULK),
  values: FieldValuesBody,
});
export type BulkFieldValuesBody = z.infer<typeof BulkFieldValuesBody>;

export const BulkFieldValuesResponse = z.object({
  updated: z.number().int(),
  device_ids: z.array(z.number().int()),
  message: z.string(),
});
export type BulkFieldValuesResponse = z.infer<typeof BulkFieldValuesResponse>;
