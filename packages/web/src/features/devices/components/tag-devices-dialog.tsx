import { useMemo, useState } from 'react';
import { Check, Minus, Plus } from 'lucide-react';
import { TAG_COLORS, TagName } from '@outpost/contract/tags';
import type { DeviceTag, Tag, TagColor } from '@outpost/contract/tags';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/form';
import { TagChip, TagColorPicker } from '../../../components/ui/tag-chip';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useBulkTagDevices, useCreateTag, useTags } from '../../../lib/api/tags';
import { cn } from '../../../lib/cn';
import { initialTagStates, nextTagState, tagChanges } from '../lib/tag-selection';
import type { TagState } from '../lib/tag-selection';

type Target = { id: number; tags?: DeviceTag[] };

/**
 * Add and remove tags on one or many devices (docs/product/device-sets.md#tags): every tag of the
 * tenant with whether all, some or none of the devices carry it; a search that offers to create
 * the tag it does not find, with a colour. Nothing is sent until Apply.
 */
export function TagDevicesDialog({
  isOpen,
  onClose,
  devices,
  title,
  onApplied,
}: {
  isOpen: boolean;
  onClose: () => void;
  devices: Target[];
  title: string;
  onApplied?: () => void;
}) {
  return isOpen ? (
    <TagDevicesForm devices={devices} title={title} onClose={onClose} onApplied={onApplied} />
  ) : null;
}

function TagDevicesForm({
  devices,
  title,
  onClose,
  onApplied,
}: {
  devices: Target[];
  title: string;
  onClose: () => void;
  onApplied?: () => void;
}) {
  const tags = useTags();
  const create = useCreateTag();
  const apply = useBulkTagDevices();
  const toast = useToast();
  const initial = useMemo(() => initialTagStates(devices), [devices]);
  const [chosen, setChosen] = useState<Map<number, TagState>>(() => new Map(initial));
  const [search, setSearch] = useState('');
  const [color, setColor] = useState<TagColor>('blue');
  const [error, setError] = useState<string | null>(null);

  const term = search.trim().toLowerCase();
  const all = tags.data ?? [];
  const shown = all.filter((t) => t.name.toLowerCase().includes(term));
  const exact = all.some((t) => t.name.toLowerCase() === term);
  const newName = TagName.safeParse(search);
  const changes = tagChanges(initial, chosen);
  const isBusy = create.isPending || apply.isPending;

  const toggle = (id: number) => setChosen((m) => new Map(m).set(id, nextTagState(m.get(id) ?? 'none')));

  async function onCreate() {
    if (!newName.success) {
      setError(newName.error.issues[0]?.message ?? 'Invalid tag name');
      return;
    }
    setError(null);
    try {
      const tag = await create.mutateAsync({ name: newName.data, color });
      setChosen((m) => new Map(m).set(tag.id, 'all'));
      setSearch('');
    } catch (err) {
      setError(errorMessage(err, 'Could not create the tag'));
    }
  }

  async function onApply() {
    setError(null);
    try {
      const res = await apply.mutateAsync({ device_ids: devices.map((d) => d.id), ...changes });
      toast.show({
        type: 'success',
        title: 'Tags updated',
        message: `${res.device_ids.length} device${res.device_ids.length === 1 ? '' : 's'} updated`,
      });
      onApplied?.();
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'Could not update the tags'));
    }
  }

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={title}
      description="Tick a tag to put it on every device, untick it to take it off."
      isDismissDisabled={isBusy}
      footer={
        <>
          <Button onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={() => void onApply()}
            isLoading={apply.isPending}
            disabled={changes.add.length + changes.remove.length === 0 || create.isPending}
          >
            Apply
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <Input
          type="search"
          aria-label="Search or create a tag"
          placeholder="Search or create a tag..."
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && term && !exact) {
              e.preventDefault();
              void onCreate();
            }
          }}
        />
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        <TagOptions
          tags={shown}
          chosen={chosen}
          onToggle={toggle}
          isEmpty={!tags.isLoading && shown.length === 0 && !term}
        />
        {term && !exact && (
          <div className="space-y-2 rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-700">
            <TagColorPicker value={color} onChange={setColor} colors={TAG_COLORS} label="New tag colour" />
            <Button
              size="sm"
              icon={<Plus className="size-3.5" />}
              onClick={() => void onCreate()}
              isLoading={create.isPending}
            >
              Create tag “{search.trim()}”
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** The tenant's tags, each a checkbox showing whether all, some or none of the devices carry it. */
function TagOptions({
  tags,
  chosen,
  onToggle,
  isEmpty,
}: {
  tags: Tag[];
  chosen: ReadonlyMap<number, TagState>;
  onToggle: (id: number) => void;
  isEmpty: boolean;
}) {
  return (
    <ul aria-label="Tags" className="max-h-64 space-y-0.5 overflow-y-auto">
      {tags.map((t) => {
        const state = chosen.get(t.id) ?? 'none';
        return (
          <li key={t.id}>
            <button
              type="button"
              role="checkbox"
              aria-checked={state === 'all' ? true : state === 'some' ? 'mixed' : false}
              aria-label={t.name}
              onClick={() => onToggle(t.id)}
              className="flex w-full items-center gap-3 rounded-md px-2 py-1.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-slate-800"
            >
              <span
                aria-hidden
                className={cn(
                  'flex size-4 shrink-0 items-center justify-center rounded border',
                  state === 'none'
                    ? 'border-slate-300 dark:border-slate-600'
                    : 'border-indigo-600 bg-indigo-600 text-white',
                )}
              >
                {state === 'all' && <Check className="size-3" />}
                {state === 'some' && <Minus className="size-3" />}
              </span>
              <TagChip name={t.name} color={t.color} />
              <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">
                {t.device_count} device{t.device_count === 1 ? '' : 's'}
              </span>
            </button>
          </li>
        );
      })}
      {isEmpty && (
        <li className="px-2 py-3 text-sm text-slate-500 dark:text-slate-400">
          No tags yet. Type a name to create one.
        </li>
      )}
    </ul>
  );
}
