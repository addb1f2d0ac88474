import type { CustomFieldType } from '@outpost/contract/custom-fields';

// How a custom field value reads on screen (docs/product/device-sets.md#custom-fields): values
// arrive in their canonical text; a boolean reads Yes or No, the rest as stored.

export const FIELD_TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  select: 'Single select',
  boolean: 'Yes / No',
};

export function formatFieldValue(type: CustomFieldType, value: string | null): string {
  if (value === null || value === '') {
    return '—';
  }
  if (type === 'boolean') {
    return value === 'true' ? 'Yes' : 'No';
  }
  return value;
}

/** A draft from an input: empty means no value (null), anything else goes as typed (the server checks it). */
export const draftToValue = (draft: string): string | null => (draft.trim() === '' ? null : draft);
