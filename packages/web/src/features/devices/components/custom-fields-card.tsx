import { useState } from 'react';
import { Link } from 'react-router';
import { Pencil } from 'lucide-react';
import type { DeviceFieldValue } from '@outpost/contract/custom-fields';
import type { Device } from '@outpost/contract/devices';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { FieldValueInput } from '../../../components/ui/field-value-input';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { draftToValue, formatFieldValue } from '../../../lib/custom-field-values';
import { useDeviceFields, useSetDeviceFields } from '../api/device-fields';

/** The device's own value as a draft ('' when it has none and shows the default). */
const ownDraft = (f: DeviceFieldValue) => (f.is_default || f.value === null ? '' : f.value);

// docs/product/device-sets.md#custom-fields: the device's custom fields, read and edited in place.
// Any member who sees the device may edit them; only the changed fields are sent.
export function CustomFieldsCard({ device }: { device: Device }) {
  const me = useUser();
  const toast = useToast();
  const query = useDeviceFields(device.device_guid);
  const save = useSetDeviceFields(device.device_guid);
  const [drafts, setDrafts] = useState<Record<string, string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fields = query.data?.fields ?? [];
  const isEditing = drafts !== null;

  const startEditing = () => {
    setDrafts(Object.fromEntries(fields.map((f) => [f.key, ownDraft(f)])));
    setError(null);
  };
  const submit = () => {
    const changed = fields.filter((f) => drafts && (drafts[f.key] ?? '') !== ownDraft(f));
    if (changed.length === 0) {
      setDrafts(null);
      return;
    }
    const values = Object.fromEntries(changed.map((f) => [f.key, draftToValue(drafts?.[f.key] ?? '')]));
    save.mutate(values, {
      onSuccess: () => {
        toast.show({
          type: 'success',
          title: 'Custom fields saved',
          message: `${changed.length} field${changed.length === 1 ? '' : 's'} updated`,
        });
        setDrafts(null);
      },
      onError: (err) => setError(errorMessage(err, 'Failed to save the custom fields')),
    });
  };

  const actions = isEditing ? (
    <>
      <Button size="sm" onClick={() => setDrafts(null)} disabled={save.isPending}>
        Cancel
      </Button>
      <Button size="sm" variant="primary" onClick={submit} isLoading={save.isPending}>
        Save
      </Button>
    </>
  ) : (
    fields.length > 0 && (
      <Button size="sm" icon={<Pencil className="size-3.5" />} onClick={startEditing}>
        Edit
      </Button>
    )
  );

  return (
    <Card className="lg:col-span-2" data-testid="custom-fields-card">
      <CardHeader
        title="Custom Fields"
        description="Your organisation’s own information about this device"
        actions={actions}
      />
      {error && (
        <div className="px-5 pt-4">
          <Alert>{error}</Alert>
        </div>
      )}
      {query.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner className="size-5 text-indigo-600 dark:text-indigo-400" label="Loading custom fields" />
        </div>
      ) : query.isError ? (
        <p className="px-5 py-4 text-sm text-red-600 dark:text-red-400">
          {errorMessage(query.error, 'Failed to load the custom fields')}
        </p>
      ) : fields.length === 0 ? (
        <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">
          No custom fields are defined.{' '}
          {me.role === 'tenant_admin' && (
            <Link
              to="/custom-fields"
              className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
            >
              Define custom fields
            </Link>
          )}
        </p>
      ) : (
        <dl className="divide-y divide-slate-100 dark:divide-slate-800">
          {fields.map((f) => {
            const inputId = `device-field-${f.key}`;
            return (
              <div
                key={f.key}
                className="grid grid-cols-5 items-center gap-4 px-5 py-2.5 text-sm"
                data-field-key={f.key}
              >
                <dt className="col-span-2 text-slate-500 dark:text-slate-400">
                  {isEditing ? <label htmlFor={inputId}>{f.name}</label> : f.name}
                  {f.required && (
                    <span className="ml-0.5 text-red-500" aria-hidden>
                      *
                    </span>
                  )}
                </dt>
                <dd className="col-span-3 min-w-0 font-medium break-words text-slate-900 dark:text-slate-100">
                  {isEditing ? (
                    <FieldValueInput
                      id={inputId}
                      shape={f}
                      value={drafts[f.key] ?? ''}
                      emptyLabel={
                        f.value !== null && f.is_default
                          ? `Default (${formatFieldValue(f.field_type, f.value)})`
                          : 'Not set'
                      }
                      onChange={(v) => setDrafts((d) => ({ ...d, [f.key]: v }))}
                    />
                  ) : (
                    <span className="inline-flex items-center gap-2">
                      {formatFieldValue(f.field_type, f.value)}
                      {f.is_default && <Badge tone="gray">Default</Badge>}
                    </span>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </Card>
  );
}
