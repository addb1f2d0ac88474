import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import { groupMessages as messages } from '@outpost/contract/groups';
import type { GroupMember, GroupMembersChangeResponse, GroupMembersFilters } from '@outpost/contract/groups';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { badRequest, notFound } from '../../lib/errors';
import { assertMayChange } from './group-access';
import {
  addMembers,
  devicesInScope,
  findGroup,
  listMembers,
  removeMembers,
  toGroupDevice,
} from './groups.queries';

// A group's members (docs/product/device-sets.md#groups "Members"): the list of every group, and
// the devices an editor adds to or removes from a static group. The caller sees and changes only
// devices of their scope; a site's group holds only that site's devices.

export function createGroupMembersService({
  db,
  onMembersChanged,
}: {
  db: Db;
  onMembersChanged?: (tenantId: number, deviceIds: number[]) => Promise<void>;
}) {
  /** After the change committed: whoever follows membership hears of the devices. */
  async function told<T extends { changed: number }>(
    ctx: RequestContext,
    ids: number[],
    result: T,
  ): Promise<T> {
    if (result.changed > 0 && onMembersChanged) {
      await onMembersChanged(ctx.tenantId, ids);
    }
    return result;
  }

  /** The group for a member change: visible, static, changeable by the caller. */
  async function staticGroupFor(tx: Executor, ctx: RequestContext, id: number) {
    const group = await findGroup(tx, ctx, id, { lock: true });
    if (!group) {
      throw notFound(messages.notFound, 'GROUP_NOT_FOUND');
    }
    assertMayChange(ctx, group);
    if (group.kind !== 'static') {
      throw badRequest(messages.staticOnly, 'GROUP_NOT_STATIC');
    }
    return group;
  }

  return {
    async members(ctx: RequestContext, id: number, f: GroupMembersFilters): Promise<ListData<GroupMember>> {
      if (!(await findGroup(db, ctx, id))) {
        throw notFound(messages.notFound, 'GROUP_NOT_FOUND');
      }
      const { rows, total } = await listMembers(db, ctx, id, f);
      return {
        data: rows.map((r) => ({ ...toGroupDevice(r), added_at: r.addedAt.toISOString() })),
        pagination: paginate(f.page, f.limit, total),
      };
    },

    async addMembers(
      ctx: RequestContext,
      id: number,
      deviceIds: number[],
    ): Promise<GroupMembersChangeResponse> {
      const ids = [...new Set(deviceIds)];
      const result = await db.transaction(async (tx) => {
        const group = await staticGroupFor(tx, ctx, id);
        const found = await devicesInScope(tx, ctx, ids);
        if (found.length !== ids.length) {
          // another tenant's or site's device reads as one that does not exist
          throw notFound(messages.deviceNotFound, 'DEVICE_NOT_FOUND');
        }
        if (group.siteId !== null && found.some((d) => d.siteId !== group.siteId)) {
          throw badRequest(
            messages.deviceOutsideGroupSite(group.siteName ?? `#${group.siteId}`),
            'DEVICE_OUTSIDE_GROUP_SITE',
          );
        }
        const changed = await addMembers(tx, ctx.tenantId, id, ids);
        await writeAudit(tx, ctx, {
          action: 'Add Group Members',
          resourceType: 'device_group',
          resourceId: id,
          details: `Added ${changed} device${changed === 1 ? '' : 's'} to group ${group.name}`,
          newValues: { device_ids: ids },
          siteIds: group.siteId === null ? found.map((d) => d.siteId) : [group.siteId],
        });
        return { changed, member_count: group.memberCount + changed };
      });
      return told(ctx, ids, result);
    },

    async removeMembers(
      ctx: RequestContext,
      id: number,
      deviceIds: number[],
    ): Promise<GroupMembersChangeResponse> {
      const ids = [...new Set(deviceIds)];
      const result = await db.transaction(async (tx) => {
        const group = await staticGroupFor(tx, ctx, id);
        // only devices the caller may see are removed; others read as not found
        const found = await devicesInScope(tx, ctx, ids);
        if (found.length !== ids.length) {
          throw notFound(messages.deviceNotFound, 'DEVICE_NOT_FOUND');
        }
        const changed = await removeMembers(tx, id, ids);
        await writeAudit(tx, ctx, {
          action: 'Remove Group Members',
          resourceType: 'device_group',
          resourceId: id,
          details: `Removed ${changed} device${changed === 1 ? '' : 's'} from group ${group.name}`,
          oldValues: { device_ids: ids },
          siteIds: group.siteId === null ? found.map((d) => d.siteId) : [group.siteId],
        });
        return { changed, member_count: Math.max(0, group.memberCount - changed) };
      });
      return told(ctx, ids, result);
    },
  };
}
