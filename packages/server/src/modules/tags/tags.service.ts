import { deviceMessages } from '@outpost/contract/messages';
import { tagMessages } from '@outpost/contract/tags';
import type {
  DeviceTag,
  DeviceTagsBulkInput,
  DeviceTagsBulkResponse,
  Tag,
  TagCreateInput,
  TagUpdateInput,
} from '@outpost/contract/tags';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { conflict, notFound } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { changeDeviceTags, createTag, loadTag, plural, resolveTags, toDeviceTag } from './tags-changes';
import {
  deleteTag,
  findScopedDevice,
  findScopedDevices,
  findTagsByName,
  listTags,
  tagsOfDevice,
  updateTag,
} from './tags.queries';
import type { ScopedDevice } from './tags.queries';

// Tags (docs/product/device-sets.md#tags). Any member reads the tenant's tags and tags the devices
// they see (as they may act on them), creating a tag by name on the way; renaming, recolouring
// and deleting a tag change it on every site's devices, so they are for administrators
// (docs/decisions/2026-11-26-tag-permissions.md).

export type TagsServiceDeps = {
  db: Db;
  /** told after devices gained or lost tags (the groups module re-evaluates dynamic groups) */
  onDevicesChanged?: (tenantId: number, deviceIds: number[]) => void | Promise<void>;
};

export function createTagsService({ db, onDevicesChanged }: TagsServiceDeps) {
  async function notify(tenantId: number, deviceIds: number[]) {
    if (onDevicesChanged && deviceIds.length > 0) {
      await onDevicesChanged(tenantId, [...new Set(deviceIds)]);
    }
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
        const counts = await changeDeviceTags(tx, ctx, targets, add, remove);
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
        const counts = await changeDeviceTags(tx, ctx, [device], add, remove);
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
