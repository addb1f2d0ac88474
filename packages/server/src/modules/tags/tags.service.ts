import { deviceMessages } from '@outpost/contract/messages';
import { tagMessages } from '@outpost/contract/tags';
import type {
  DeviceTag,
  DeviceTagsBulkInput,
  DeviceTagsBulkResponse,
  Tag,
  TagColor,
  TagCreateInput,
  TagUpdateInput,
} from '@outpost/contract/tags';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict, notFound } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import {
  addDeviceTags,
  deleteTag,
  findScopedDevice,
  findScopedDevices,
  findTags,
  findTagsByName,
  insertTag,
  listTags,
  removeDeviceTags,
  tagsOfDevice,
  updateTag,
} from './tags.queries';
import type { ScopedDevice, TagRow } from './tags.queries';

// Tags (docs/product/device-sets.md#tags). Any member reads the tenant's tags and tags the devices
// they see (as they may act on them), creating a tag by name on the way; renaming, recolouring
// and deleting a tag change it on every site's devices, so they are for administrators
// (docs/decisions/2026-11-26-tag-permissions.md).

export type TagsServiceDeps = {
  db: Db;
  /** told after devices gained or lost tags (the groups module re-evaluates dynamic groups) */
  onDevicesChanged?: (tenantId: number, deviceIds: number[]) => void | Promise<void>;
};

const toDeviceTag = (t: TagRow): DeviceTag => ({ id: t.id, name: t.name, color: t.color });
const names = (rows: { name: string }[]) => rows.map((r) => r.name).join(', ');
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function createTagsService({ db, onDevicesChanged }: TagsServiceDeps) {
  async function notify(tenantId: number, deviceIds: number[]) {
    if (onDevicesChanged && deviceIds.length > 0) {
      await onDevicesChanged(tenantId, [...new Set(deviceIds)]);
    }
  }

  async function loadTag(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<TagRow> {
    const [row] = await findTags(ex, ctx, [id], lock);
    if (!row) {
      throw notFound(tagMessages.tagNotFound, 'TAG_NOT_FOUND');
    }
    return row;
  }

  async function createTag(
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
  async function resolveTags(
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
  async function change(
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

  async function requireDevice(ctx: RequestContext, idOrGuid: string): Promise<ScopedDevice> {
    const device = await findScopedDevice(db, ctx, idOrGuid);
    if (!device) {
      throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
    }
    return device;
  }

  return {
    async list(ctx: RequestContext): Promise<Tag[]> {
      return listTags(db, ctx);
    },

    // Any member: a tag is only a name until it is put on devices they may act on.
    async create(ctx: RequestContext, body: TagCreateInput): Promise<Tag> {
      const row = await db.transaction(async (tx) => {
        const [existing] = await findTagsByName(tx, ctx, [body.name]);
        if (existing) {
          throw conflict(tagMessages.nameTaken(existing.name), 'TAG_NAME_TAKEN');
        }
        return createTag(tx, ctx, body.name, body.color);
      });
      return { ...toDeviceTag(row), device_count: 0, created_at: row.createdAt.toISOString() };
    },

    async update(ctx: RequestContext, id: number, body: TagUpdateInput): Promise<Tag> {
      requireAdmin(ctx);
      await db.transaction(async (tx) => {
        const before = await loadTag(tx, ctx, id, true);
        if (body.name !== undefined && body.name.toLowerCase() !== before.name.toLowerCase()) {
          const [taken] = await findTagsByName(tx, ctx, [body.name]);
          if (taken) {
            throw conflict(tagMessages.nameTaken(taken.name), 'TAG_NAME_TAKEN');
          }
        }
        if (!(await updateTag(tx, ctx, id, { name: body.name, color: body.color }))) {
          throw conflict(tagMessages.nameTaken(body.name ?? before.name), 'TAG_NAME_TAKEN');
        }
        const after = { name: body.name ?? before.name, color: body.color ?? before.color };
        await writeAudit(tx, ctx, {
          action: 'Update Tag',
          resourceType: 'tag',
          resourceId: id,
          details:
            after.name !== before.name
              ? `Renamed tag ${before.name} to ${after.name}`
              : `Updated tag ${after.name}`,
          oldValues: { name: before.name, color: before.color },
          newValues: after,
        });
      });
      const tag = (await listTags(db, ctx)).find((t) => t.id === id);
      if (!tag) {
        throw notFound(tagMessages.tagNotFound, 'TAG_NOT_FOUND');
      }
      return tag;
    },

    async remove(ctx: RequestContext, id: number): Promise<{ id: number; devices_untagged: number }> {
      requireAdmin(ctx);
      const carriers = await db.transaction(async (tx) => {
        const tag = await loadTag(tx, ctx, id, true);
        const deviceIds = await deleteTag(tx, ctx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Tag',
          resourceType: 'tag',
          resourceId: id,
          details:
            `Deleted tag ${tag.name}` +
            (deviceIds.length > 0 ? `; removed from ${plural(deviceIds.length, 'device')}` : ''),
          oldValues: { name: tag.name, color: tag.color, device_count: deviceIds.length },
        });
        return deviceIds;
      });
      await notify(ctx.tenantId, carriers);
      return { id, devices_untagged: carriers.length };
    },

    /** Adds and removes tags on many devices; devices out of the caller's scope are left alone. */
    async bulk(ctx: RequestContext, body: DeviceTagsBulkInput): Promise<DeviceTagsBulkResponse> {
      const requested = [...new Set(body.device_ids)];
      const result = await db.transaction(async (tx) => {
        const targets = await findScopedDevices(tx, ctx, requested);
        if (targets.length === 0) {
          throw notFound(
            requested.length === 1
              ? deviceMessages.deviceNotFound
              : deviceMessages.devicesNotFound(requested),
            'DEVICE_NOT_FOUND',
          );
        }
        const add = await resolveTags(tx, ctx, body.add);
        const remove = await resolveTags(tx, ctx, body.remove);
        const counts = await change(tx, ctx, targets, add, remove);
        return { targets, add, counts };
      });
      const found = new Set(result.targets.map((d) => d.id));
      if (result.counts.added + result.counts.removed > 0) {
        await notify(ctx.tenantId, [...found]);
      }
      return {
        device_ids: [...found],
        not_found: requested.filter((id) => !found.has(id)),
        added: result.counts.added,
        removed: result.counts.removed,
        tags: result.add.map(toDeviceTag),
      };
    },

    async ofDevice(ctx: RequestContext, idOrGuid: string): Promise<DeviceTag[]> {
      const device = await requireDevice(ctx, idOrGuid);
      return (await tagsOfDevice(db, ctx, device.id)).map(toDeviceTag);
    },

    /** Sets a device's tags to exactly these (by id or name; new names create tags). */
    async setOfDevice(
      ctx: RequestContext,
      idOrGuid: string,
      refs: (number | string)[],
    ): Promise<DeviceTag[]> {
      const device = await requireDevice(ctx, idOrGuid);
      const changed = await db.transaction(async (tx) => {
        const wanted = await resolveTags(tx, ctx, refs);
        const current = await tagsOfDevice(tx, ctx, device.id);
        const add = wanted.filter((t) => !current.some((c) => c.id === t.id));
        const remove = current.filter((c) => !wanted.some((t) => t.id === c.id));
        const counts = await change(tx, ctx, [device], add, remove);
        return counts.added + counts.removed > 0;
      });
      if (changed) {
        await notify(ctx.tenantId, [device.id]);
      }
      return (await tagsOfDevice(db, ctx, device.id)).map(toDeviceTag);
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
