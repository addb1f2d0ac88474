import { CUSTOM_FIELD_TEXT_MAX } from '@outpost/contract/custom-fields';
import type { FieldShape } from '@outpost/contract/custom-fields';
import { Input, Select } from './form';

// The input of one custom field value, by type (docs/product/device-sets.md#custom-fields): text,
// number, a date picker, the options of a select field, Yes/No. The draft is text; '' is no value.

type Props = {
  id?: string;
  shape: FieldShape;
  value: string;
  onChange: (value: string) => void;
  /** the empty choice of a select or Yes/No field (what clearing means here) */
  emptyLabel?: string;
  disabled?: boolean;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
};

export function FieldValueInput({ shape, value, onChange, emptyLabel = 'Not set', ...rest }: Props) {
  switch (shape.field_type) {
    case 'select':
      return (
        <Select value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
          <option value="">{emptyLabel}</option>
          {shape.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      );
    case 'boolean':
      return (
        <Select value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
          <option value="">{emptyLabel}</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </Select>
      );
    case 'number':
      return (
        <Input
          type="number"
          step="any"
          inputMode="decimal"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
      );
    case 'date':
      return <Input type="date" value={value} onChange={(e) => onChange(e.target.value)} {...rest} />;
    case 'text':
      return (
        <Input
          type="text"
          autoComplete="off"
          maxLength={CUSTOM_FIELD_TEXT_MAX}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
      );
  }
}
