import { useId, useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import type { DeviceListItem } from '@outpost/contract/devices';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FieldValueInput } from '../../../components/ui/field-value-input';
import { Field, Select } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCustomFields } from '../../../lib/api/custom-fields';
import { draftToValue } from '../../../lib/custom-field-values';
import { useBulkSetFields } from '../api/device-fields';

type Props = {
  devices: readonly Pick<DeviceListItem, 'id'>[];
  onDone?: () => void;
};

// docs/product/device-sets.md#custom-fields: "Set field" in the device list's selection bar sets
// one custom field to one value (or clears it) on every selected device, in one call.
export function SetFieldButton({ devices, onDone }: Props) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button size="sm" icon={<SlidersHorizontal className="size-3.5" />} onClick={() => setIsOpen(true)}>
        Set field
      </Button>
      {isOpen && (
        <SetFieldDialog
          devices={devices}
          onClose={() => setIsOpen(false)}
          onDone={() => {
            setIsOpen(false);
            onDone?.();
          }}
        />
      )}
    </>
  );
}

function SetFieldDialog({ devices, onClose, onDone }: Props & { onClose: () => void; onDone: () => void }) {
  const toast = useToast();
  const fields = useCustomFields();
  const bulk = useBulkSetFields();
  const [key, setKey] = useState('');
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const field = fields.data?.find((f) => f.key === key);
  const n = devices.length;
  const plural = `${n} device${n === 1 ? '' : 's'}`;

  const submit = () => {
    if (!field) {
      setError('Choose a field');
      return;
    }
    const value = draftToValue(draft);
    bulk.mutate(
      { device_ids: devices.map((d) => d.id), values: { [field.key]: value } },
      {
        onSuccess: (res) => {
          toast.show({
            type: 'success',
            title: value === null ? 'Custom field cleared' : 'Custom field set',
            message: `${field.name} ${value === null ? 'cleared' : 'set'} on ${res.updated} device${res.updated === 1 ? '' : 's'}`,
          });
          onDone();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to set the custom field')),
      },
    );
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title="Set custom field"
      description={`The value is set on the ${plural} selected.`}
      isDismissDisabled={bulk.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={bulk.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            type="submit"
            form="set-field-form"
            isLoading={bulk.isPending}
            disabled={!field}
          >
            {field && draftToValue(draft) === null ? `Clear on ${plural}` : `Apply to ${plural}`}
          </Button>
        </>
      }
    >
      <form
        id="set-field-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {error && <Alert>{error}</Alert>}
        {fields.data?.length === 0 && (
          <Alert tone="info">
            No custom fields are defined yet: an administrator creates them under Custom Fields.
          </Alert>
        )}
        <Field label="Field" htmlFor={`${baseId}-field`} required>
          <Select
            id={`${baseId}-field`}
            value={key}
            onChange={(e) => {
              const next = fields.data?.find((f) => f.key === e.target.value);
              setKey(e.target.value);
              // a list starts on its first choice, so clearing is always a choice of its own
              setDraft(
                next?.field_type === 'select'
                  ? (next.options[0] ?? '')
                  : next?.field_type === 'boolean'
                    ? 'true'
                    : '',
              );
              setError(null);
            }}
          >
            <option value="">{fields.isPending ? 'Loading…' : 'Choose a field…'}</option>
            {(fields.data ?? []).map((f) => (
              <option key={f.key} value={f.key}>
                {f.name}
              </option>
            ))}
          </Select>
        </Field>
        {field && (
          <Field
            label="Value"
            htmlFor={`${baseId}-value`}
            hint={
              field.required ? 'Required: this field cannot be cleared' : 'Leave empty to clear the value'
            }
          >
            <FieldValueInput
              id={`${baseId}-value`}
              shape={field}
              value={draft}
              emptyLabel="Clear the value"
              onChange={(v) => {
                setDraft(v);
                setError(null);
              }}
            />
          </Field>
        )}
      </form>
    </Dialog>
  );
}
