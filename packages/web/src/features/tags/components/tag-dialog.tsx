import { useState } from 'react';
import { TAG_COLORS, TagName } from '@outpost/contract/tags';
import type { Tag, TagColor } from '@outpost/contract/tags';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/form';
import { TagChip, TagColorPicker } from '../../../components/ui/tag-chip';
import { errorMessage } from '../../../lib/api-client';
import { useCreateTag, useUpdateTag } from '../../../lib/api/tags';

/** Create a tag (no `tag`) or rename and recolour one (docs/product/device-sets.md#tags). */
export function TagDialog({ tag, onClose }: { tag: Tag | null | undefined; onClose: () => void }) {
  // undefined: closed; null: a new tag
  return tag === undefined ? null : <TagForm key={tag?.id ?? 'new'} tag={tag} onClose={onClose} />;
}

function TagForm({ tag, onClose }: { tag: Tag | null; onClose: () => void }) {
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState<TagColor>(tag?.color ?? 'blue');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateTag();
  const update = useUpdateTag();
  const isBusy = create.isPending || update.isPending;

  async function save() {
    const parsed = TagName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid tag name');
      return;
    }
    try {
      if (tag) {
        await update.mutateAsync({ id: tag.id, body: { name: parsed.data, color } });
      } else {
        await create.mutateAsync({ name: parsed.data, color });
      }
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'Could not save the tag'));
    }
  }

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={tag ? 'Edit tag' : 'New tag'}
      size="sm"
      isDismissDisabled={isBusy}
      footer={
        <>
          <Button onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={isBusy} onClick={() => void save()}>
            {tag ? 'Save' : 'Create tag'}
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field label="Name" htmlFor="tag-name" error={error ?? undefined}>
          <Input id="tag-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        </Field>
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-700 dark:text-slate-200">Colour</p>
          <TagColorPicker value={color} onChange={setColor} colors={TAG_COLORS} />
        </div>
        <div className="text-sm text-slate-500 dark:text-slate-400">
          Preview: <TagChip name={name.trim() || 'Tag name'} color={color} />
        </div>
      </form>
    </Dialog>
  );
}
