import { tagMessages } from '@outpost/contract/tags';
import type { DeviceTag, TagColor } from '@outpost/contract/tags';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict, notFound } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import { addDeviceTags, findTags, findTagsByName, insertTag, removeDeviceTags } from './tags.queries';
import type { ScopedDevice, TagRow } from './tags.queries';

// The steps of a tag change, inside the caller's transaction, each writing its audit entry
// (docs/product/device-sets.md#tags): creating a tag, resolving tags named by id or name, and
// adding and removing tags on devices already found in the caller's scope.

export const toDeviceTag = (t: TagRow): DeviceTag => ({ id: t.id, name: t.name, color: t.color });
const names = (rows: { name: string }[]) => rows.map((r) => r.name).join(', ');
export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export async function loadTag(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<TagRow> {
  const [row] = await findTags(ex, ctx, [id], lock);
  if (!row) {
    throw notFound(tagMessages.tagNotFound, 'TAG_NOT_FOUND');
  }
  return row;
}

export async function createTag(
  tx: Executor,
  ctx: RequestContext,
  name: string,
  color: TagColor,
): Promise<TagRow> {
  const row = await insertTag(tx, ctx, { name, color });
  if (!row) {
    throw conflict(tagMessages.nameTaken(name), 'TAG_NAME_TAKEN');
  }
  await writeAudit(tx, ctx, {
    action: 'Create Tag',
    resourceType: 'tag',
    resourceId: row.id,
    details: `Created tag ${name}`,
    newValues: { name, color },
  });
  return row;
}

/** Tags named by id (each must be the tenant's) or by name (found whatever the case, or created). */
export async function resolveTags(
  tx: Executor,
  ctx: RequestContext,
  refs: (number | string)[],
): Promise<TagRow[]> {
  const ids = [...new Set(refs.filter((r): r is number => typeof r === 'number'))];
  const wanted = refs.filter((r): r is string => typeof r === 'string');
  const byId = await findTags(tx, ctx, ids);
  const missing = ids.filter((id) => !byId.some((t) => t.id === id));
  if (missing.length > 0) {
    throw notFound(
      missing.length === 1 ? tagMessages.tagNotFound : tagMessages.tagsNotFound(missing),
      'TAG_NOT_FOUND',
    );
  }
  const byName = await findTagsByName(tx, ctx, wanted);
  const found = new Map([...byId, ...byName].map((t) => [t.id, t] as const));
  for (const name of wanted) {
    if (![...found.values()].some((t) => t.name.toLowerCase() === name.toLowerCase())) {
      const created = await createTag(tx, ctx, name, 'slate');
      found.set(created.id, created);
    }
  }
  return [...found.values()];
}

/** Adds and removes tags on devices already in scope, with one audit entry; returns the counts. */
export async function changeDeviceTags(
  tx: Executor,
  ctx: RequestContext,
  targets: ScopedDevice[],
  add: TagRow[],
  remove: TagRow[],
): Promise<{ added: number; removed: number }> {
  const ids = targets.map((d) => d.id);
  const removedRows = await removeDeviceTags(
    tx,
    ctx,
    ids,
    remove.map((t) => t.id),
  );
  const addedRows = await addDeviceTags(
    tx,
    ctx,
    ids,
    add.map((t) => t.id),
  );
  if (addedRows.length + removedRows.length === 0) {
    return { added: 0, removed: 0 };
  }
  const touched = new Set([...addedRows, ...removedRows].map((r) => r.deviceId));
  const parts = [
    addedRows.length > 0 ? `Added ${names(add)} (${plural(addedRows.length, 'device tag')})` : '',
    removedRows.length > 0 ? `removed ${names(remove)} (${plural(removedRows.length, 'device tag')})` : '',
  ].filter(Boolean);
  await writeAudit(tx, ctx, {
    action: 'Tag Devices',
    resourceType: 'device',
    resourceId: touched.size === 1 ? [...touched][0] : null,
    details: `${parts.join('; ')} on ${plural(touched.size, 'device')}`,
    newValues: {
      device_ids: [...touched],
      added_tags: add.map(toDeviceTag),
      removed_tags: remove.map(toDeviceTag),
      added: addedRows.length,
      removed: removedRows.length,
    },
    siteIds: targets.filter((d) => touched.has(d.id)).map((d) => d.siteId),
  });
  return { added: addedRows.length, removed: removedRows.length };
}
