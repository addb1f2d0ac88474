import { useState } from 'react';
import { Plus } from 'lucide-react';
import { TagChip } from '../../../components/ui/tag-chip';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useBulkTagDevices, useDeviceTags } from '../../../lib/api/tags';
import { TagDevicesDialog } from './tag-devices-dialog';

/** A device's tags in its header, each removable, and a button to add or change them (docs/product/device-sets.md#tags). */
export function DeviceTags({ deviceId, name }: { deviceId: number; name: string }) {
  const tags = useDeviceTags(deviceId);
  const change = useBulkTagDevices();
  const toast = useToast();
  const [isOpen, setIsOpen] = useState(false);
  const list = tags.data ?? [];
  const remove = (tagId: number) =>
    change.mutate(
      { device_ids: [deviceId], remove: [tagId] },
      {
        onError: (err) =>
          toast.show({ type: 'error', title: 'Could not remove the tag', message: errorMessage(err, '') }),
      },
    );
  return (
    <div className="mt-2 flex flex-wrap items-center gap-1.5" aria-label="Tags" role="group">
      {list.map((t) => (
        <TagChip key={t.id} name={t.name} color={t.color} onRemove={() => remove(t.id)} />
      ))}
      <button
        type="button"
        onClick={() => setIsOpen(true)}
        className="inline-flex items-center gap-1 rounded-md border border-dashed border-slate-300 px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:border-slate-400 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:text-slate-300 dark:hover:text-white"
      >
        <Plus className="size-3" aria-hidden />
        {list.length > 0 ? 'Edit tags' : 'Add tag'}
      </button>
      <TagDevicesDialog
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
        devices={[{ id: deviceId, tags: list }]}
        title={`Tags of ${name}`}
      />
    </div>
  );
}
