import type { FocusEventHandler } from 'react';
import { Select } from '../../../components/ui/form';
import { useCustomFields } from '../../../lib/api/custom-fields';
import { FIELD_TYPE_LABELS } from '../../../lib/custom-field-values';

// docs/product/device-sets.md#custom-fields, "Store output in custom field": the step option's
// picker, from the tenant's fields. A key no field has any more stays shown, so saving says why.
export function CustomFieldSelect({
  id,
  value,
  onChange,
  onBlur,
}: {
  id: string;
  value: string;
  onChange: (key: string) => void;
  onBlur?: FocusEventHandler<HTMLSelectElement>;
}) {
  const fields = useCustomFields();
  const isKnown = value === '' || (fields.data ?? []).some((f) => f.key === value);
  return (
    <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} onBlur={onBlur}>
      <option value="">{fields.isPending ? 'Loading fields…' : 'Do not store the output'}</option>
      {(fields.data ?? []).map((f) => (
        <option key={f.key} value={f.key}>
          {f.name} ({FIELD_TYPE_LABELS[f.field_type]})
        </option>
      ))}
      {!isKnown && !fields.isPending && <option value={value}>{value} (no longer exists)</option>}
    </Select>
  );
}
