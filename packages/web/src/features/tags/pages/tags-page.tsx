import { useState } from 'react';
import { Link } from 'react-router';
import { Pencil, Plus, Tag as TagIcon, Trash2 } from 'lucide-react';
import type { Tag } from '@outpost/contract/tags';
import { Button } from '../../../components/ui/button';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataTable } from '../../../components/ui/data-table';
import type { Column } from '../../../components/ui/data-table';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { QueryState } from '../../../components/ui/states';
import { TagChip } from '../../../components/ui/tag-chip';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { useDeleteTag, useTags } from '../../../lib/api/tags';
import { TagDialog } from '../components/tag-dialog';

// docs/product/device-sets.md#tags — the tenant's tags: how many devices carry each (in the
// caller's sites), a link to those devices; administrators rename, recolour and delete.
export default function TagsPage() {
  const user = useUser();
  const isAdmin = user.role === 'tenant_admin';
  const tags = useTags();
  const remove = useDeleteTag();
  const toast = useToast();
  const [editing, setEditing] = useState<Tag | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Tag | null>(null);

  const columns: Column<Tag>[] = [
    {
      id: 'tag',
      header: 'Tag',
      sticky: true,
      cell: (t) => <TagChip name={t.name} color={t.color} className="text-sm" />,
    },
    {
      id: 'devices',
      header: 'Devices',
      label: 'Devices',
      cell: (t) => (
        <Link
          to={`/devices?tag_id=${t.id}`}
          className="font-medium text-indigo-600 hover:text-indigo-700 dark:text-indigo-400 dark:hover:text-indigo-300"
        >
          {t.device_count} device{t.device_count === 1 ? '' : 's'}
        </Link>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      label: 'Created',
      className: 'whitespace-nowrap text-slate-500 dark:text-slate-400',
      cell: (t) => formatDateTime(t.created_at),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      isHidden: !isAdmin,
      cell: (t) => (
        <div className="flex justify-end gap-0.5">
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit tag ${t.name}`}
            title="Rename or recolour"
            icon={<Pencil className="size-4" />}
            onClick={() => setEditing(t)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete tag ${t.name}`}
            title="Delete"
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-4" />}
            onClick={() => setDeleting(t)}
          />
        </div>
      ),
    },
  ];

  async function confirmDelete() {
    if (!deleting) {
      return;
    }
    try {
      const res = await remove.mutateAsync(deleting.id);
      toast.show({
        type: 'success',
        title: 'Tag deleted',
        message: `${deleting.name} was removed from ${res.devices_untagged} device${res.devices_untagged === 1 ? '' : 's'}`,
      });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not delete the tag', message: errorMessage(err, '') });
    }
    setDeleting(null);
  }

  return (
    <>
      <PageHeader
        title="Tags"
        description="Coloured labels to sort and find devices. Tag devices from the device list or a device's page."
        actions={
          <Button variant="primary" icon={<Plus className="size-4" />} onClick={() => setEditing(null)}>
            New tag
          </Button>
        }
      />
      <Card>
        <QueryState
          isPending={tags.isPending}
          failures={tags}
          error={tags.error ? errorMessage(tags.error, 'Failed to load tags') : null}
          errorTitle="Error loading tags"
          onRetry={() => void tags.refetch()}
          isEmpty={(tags.data ?? []).length === 0}
          empty={{
            icon: <TagIcon className="size-6" />,
            title: 'No tags yet',
            message: 'Create a tag here, or select devices in the device list and choose Tags.',
          }}
          loadingLabel="Loading tags"
        >
          <DataTable rows={tags.data ?? []} columns={columns} cards />
        </QueryState>
      </Card>
      <TagDialog tag={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete tag"
        message={
          deleting && (
            <>
              Delete <strong>{deleting.name}</strong>? It is taken off{' '}
              {deleting.device_count === 1 ? 'the 1 device' : `all ${deleting.device_count} devices`} that
              carry it. This cannot be undone.
            </>
          )
        }
        confirmLabel="Delete tag"
        isBusy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
