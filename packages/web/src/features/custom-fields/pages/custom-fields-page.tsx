import { useState } from 'react';
import { Plus, SlidersHorizontal } from 'lucide-react';
import type { CustomField } from '@outpost/contract/custom-fields';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataTable } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useCustomFields } from '../../../lib/api/custom-fields';
import { useDeleteCustomField, useReorderCustomFields } from '../api/custom-fields';
import { customFieldColumns } from '../components/custom-field-columns';
import { CustomFieldDialog } from '../components/custom-field-dialog';

const TITLE = 'Custom Fields';
const DESCRIPTION =
  'Your own information on every device: asset tags, owners, warranty dates, rollout rings.';

// docs/product/device-sets.md#custom-fields: the definitions, in the order devices show them.
export default function CustomFieldsPage() {
  const me = useUser();
  const isAdmin = me.role === 'tenant_admin';
  const toast = useToast();
  const query = useCustomFields();
  const reorder = useReorderCustomFields();
  const remove = useDeleteCustomField();
  const [editing, setEditing] = useState<CustomField | null>(null);
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<CustomField | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fields = query.data ?? [];

  const openDialog = (field: CustomField | null) => {
    setEditing(field);
    setIsDialogOpen(true);
  };

  const move = (field: CustomField, by: -1 | 1) => {
    const ids = fields.map((f) => f.id);
    const at = ids.indexOf(field.id);
    const other = ids[at + by];
    if (other === undefined) {
      return;
    }
    ids[at + by] = field.id;
    ids[at] = other;
    setError(null);
    reorder.mutate(ids, {
      onError: (err) => setError(errorMessage(err, 'Failed to reorder the custom fields')),
    });
  };

  const confirmDelete = () => {
    if (!deleting) {
      return;
    }
    remove.mutate(deleting.id, {
      onSuccess: (res) => {
        toast.show({
          type: 'success',
          title: 'Custom field deleted',
          message: `${deleting.name} was deleted${res.values_removed > 0 ? ` with its value on ${res.values_removed} device${res.values_removed === 1 ? '' : 's'}` : ''}`,
        });
        setDeleting(null);
      },
      onError: (err) => {
        setError(errorMessage(err, 'Failed to delete the custom field'));
        setDeleting(null);
      },
    });
  };

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          isAdmin && (
            <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => openDialog(null)}>
              Create Field
            </Button>
          )
        }
      />
      {!isAdmin && (
        <Alert tone="info" className="mb-4">
          <strong className="font-semibold">Administrators only:</strong> you can see the custom fields and
          set them on devices, but only an administrator can create, edit or delete them.
        </Alert>
      )}
      {error && <Alert className="mb-4">{error}</Alert>}
      <Card>
        <QueryState
          isPending={query.isPending}
          failures={query}
          error={query.isError ? errorMessage(query.error, 'Failed to load the custom fields') : null}
          errorTitle="Failed to load the custom fields"
          onRetry={() => void query.refetch()}
          isEmpty={fields.length === 0}
          loadingLabel="Loading custom fields"
          empty={{
            icon: <SlidersHorizontal className="size-6" />,
            title: 'No custom fields yet',
            message: isAdmin
              ? 'Create a field to record your own information on every device.'
              : 'An administrator can create fields to record information on every device.',
          }}
        >
          <DataTable
            cards
            rows={fields.map((f, index) => ({ ...f, index }))}
            rowAttributes={(f) => ({ 'data-field-key': f.key })}
            columns={customFieldColumns({
              isAdmin,
              count: fields.length,
              onMove: move,
              onEdit: openDialog,
              onDelete: setDeleting,
            })}
          />
        </QueryState>
      </Card>
      {isAdmin && isDialogOpen && (
        <CustomFieldDialog
          key={editing?.id ?? 'new'}
          field={editing}
          onClose={() => setIsDialogOpen(false)}
        />
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete custom field"
        confirmLabel="Delete Field"
        isBusy={remove.isPending}
        message={
          <p>
            Delete <strong>{deleting?.name}</strong>? Its value is removed from every device, and steps that
            store their output in it stop doing so. This cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
