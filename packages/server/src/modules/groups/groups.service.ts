import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import { groupMessages as messages } from '@outpost/contract/groups';
import type {
  GroupCreateInput,
  GroupDetail,
  GroupFilter,
  GroupListFilters,
  GroupPreviewResponse,
  GroupSummary,
  GroupUpdateInput,
} from '@outpost/contract/groups';
import type { Db } from '../../db/client';
import type { CsvExport } from '../../lib/csv';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { badRequest, notFound } from '../../lib/errors';
import type { Scope } from '../../lib/scope';
import { assertFilterInScope, assertMayChange, mayChange, ownerSite } from './group-access';
import { createGroupMembersService } from './group-members.service';
import {
  allMemberIds,
  deleteGroup,
  findGroup,
  insertGroup,
  listGroups,
  memberDeviceIds,
  previewMatches,
  removeMembersOutsideSite,
  updateGroup,
} from './groups.queries';
import type { GroupRow } from './groups.queries';
import { parseStoredFilter } from './membership.queries';
import type { GroupMembership } from './membership.service';

// docs/product/device-sets.md#groups. Every method authorises: reads through the scoped queries
// (another tenant's or site's group is not found), changes through group-access.ts.

type Row = GroupRow & { memberCount: number };

export function toSummary(ctx: RequestContext, r: Row): GroupSummary {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    kind: r.kind,
    site_id: r.siteId,
    site_name: r.siteName,
    member_count: r.memberCount,
    evaluated_at: r.evaluatedAt ? r.evaluatedAt.toISOString() : null,
    created_by_name: r.createdByName,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    can_edit: mayChange(ctx, r),
  };
}

const toDetail = (ctx: RequestContext, r: Row): GroupDetail => ({
  ...toSummary(ctx, r),
  filter: r.kind === 'dynamic' ? parseStoredFilter(r.filter) : null,
});

/** A group the caller may see, or 404. */
export async function loadGroup(ex: Executor, scope: Scope, id: number, lock = false): Promise<Row> {
  const row = await findGroup(ex, scope, id, { lock });
  if (!row) {
    throw notFound(messages.notFound, 'GROUP_NOT_FOUND');
  }
  return row;
}

/**
 * What the deployments area reads inside its own transaction (docs/product/device-sets.md#groups
 * "Deploying to a group"): the group's name and the members the caller may see now, at most
 * `limit` + 1 of them (so the caller can tell "too many"); null for a group they cannot see.
 */
export const groupLookup = {
  async membersForDeployment(ex: Executor, scope: Scope, groupId: number, limit: number) {
    const row = await findGroup(ex, scope, groupId);
    if (!row) {
      return null;
    }
    const members = await memberDeviceIds(ex, scope, groupId, limit);
    return { id: row.id, name: row.name, deviceIds: members.map((m) => m.id) };
  },
};

/** The devices in one list and not the other (who joined or left). */
function membersMoved(before: number[], after: number[]): number[] {
  const was = new Set(before);
  const is = new Set(after);
  return [...before.filter((d) => !is.has(d)), ...after.filter((d) => !was.has(d))];
}

export type GroupsServiceDeps = {
  db: Db;
  membership: Pick<GroupMembership, 'materialise'>;
  /** devices joined or left a group (members added or removed, a filter or site changed, the group
   * deleted): the monitoring module refreshes their check sets */
  onMembersChanged?: (tenantId: number, deviceIds: number[]) => Promise<void>;
  /** the device list's CSV export (modules/devices): a group's members are its group_id filter */
  exportDevices?: (ctx: RequestContext, filters: { group_id: number }, name: string) => Promise<CsvExport>;
};

export function createGroupsService({ db, membership, exportDevices, onMembersChanged }: GroupsServiceDeps) {
  const materialise = (
    ex: Executor,
    tenantId: number,
    id: number,
    siteId: number | null,
    filter: GroupFilter,
  ) => membership.materialise(ex, { id, tenantId, siteId, filter });

  /** After a change committed: the devices that joined or left the group, told once. */
  async function tellMembers(tenantId: number, deviceIds: number[]) {
    if (onMembersChanged && deviceIds.length > 0) {
      await onMembersChanged(tenantId, deviceIds);
    }
  }

  return {
    async list(ctx: RequestContext, f: GroupListFilters): Promise<ListData<GroupSummary>> {
      const { rows, total } = await listGroups(db, ctx, f);
      return { data: rows.map((r) => toSummary(ctx, r)), pagination: paginate(f.page, f.limit, total) };
    },

    /**
     * The members as CSV (docs/product/device-sets.md#exports): the devices the caller may see,
     * with the device list's columns; 404 for a group they cannot see.
     */
    async exportMembers(ctx: RequestContext, id: number): Promise<CsvExport> {
      const group = await this.get(ctx, id);
      if (!exportDevices) {
        throw new Error('the groups service was built without the device export');
      }
      return exportDevices(ctx, { group_id: group.id }, `group-${group.name}`);
    },

    async get(ctx: RequestContext, id: number): Promise<GroupDetail> {
      return toDetail(ctx, await loadGroup(db, ctx, id));
    },

    async create(ctx: RequestContext, body: GroupCreateInput): Promise<GroupDetail> {
      assertFilterInScope(ctx, body.filter);
      const id = await db.transaction(async (tx) => {
        const siteId = await ownerSite(tx, ctx, body.site_id);
        const filter = body.kind === 'dynamic' ? (body.filter ?? null) : null;
        const newId = await insertGroup(tx, ctx.tenantId, {
          name: body.name,
          description: body.description ?? null,
          kind: body.kind,
          siteId,
          filter,
          createdBy: ctx.userId,
          createdByName: ctx.name ?? ctx.email,
        });
        if (filter) {
          await materialise(tx, ctx.tenantId, newId, siteId, filter);
        }
        await writeAudit(tx, ctx, {
          action: 'Create Group',
          resourceType: 'device_group',
          resourceId: newId,
          details: `Created ${body.kind} group ${body.name}`,
          newValues: { ...body, site_id: siteId },
          siteIds: [siteId],
        });
        return newId;
      });
      return toDetail(ctx, await loadGroup(db, ctx, id));
    },

    async update(ctx: RequestContext, id: number, body: GroupUpdateInput): Promise<GroupDetail> {
      assertFilterInScope(ctx, body.filter);
      const moved = await db.transaction(async (tx) => {
        const before = await loadGroup(tx, ctx, id, true);
        assertMayChange(ctx, before);
        const membersBefore = onMembersChanged ? await allMemberIds(tx, id) : [];
        if (body.filter !== undefined && before.kind !== 'dynamic') {
          throw badRequest(messages.kindUnchangeable, 'GROUP_KIND_UNCHANGEABLE');
        }
        const siteId =
          body.site_id === undefined || body.site_id === before.siteId
            ? before.siteId
            : await ownerSite(tx, ctx, body.site_id);
        await updateGroup(tx, id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.description !== undefined && { description: body.description }),
          ...(body.filter !== undefined && { filter: body.filter }),
          siteId,
        });
        const filter = body.filter ?? parseStoredFilter(before.filter);
        if (before.kind === 'dynamic' && filter && (body.filter !== undefined || siteId !== before.siteId)) {
          await materialise(tx, ctx.tenantId, id, siteId, filter);
        }
        if (before.kind === 'static' && siteId !== null && siteId !== before.siteId) {
          await removeMembersOutsideSite(tx, id, siteId);
        }
        await writeAudit(tx, ctx, {
          action: 'Update Group',
          resourceType: 'device_group',
          resourceId: id,
          details: `Updated group ${body.name ?? before.name}`,
          oldValues: {
            name: before.name,
            description: before.description,
            site_id: before.siteId,
            filter: before.filter,
          },
          newValues: { ...body, site_id: siteId },
          siteIds: before.siteId === siteId ? [siteId] : [before.siteId, siteId],
        });
        return onMembersChanged ? membersMoved(membersBefore, await allMemberIds(tx, id)) : [];
      });
      await tellMembers(ctx.tenantId, moved);
      return toDetail(ctx, await loadGroup(db, ctx, id));
    },

    async remove(ctx: RequestContext, id: number): Promise<void> {
      const members = await db.transaction(async (tx) => {
        const row = await loadGroup(tx, ctx, id, true);
        assertMayChange(ctx, row);
        const held = onMembersChanged ? await allMemberIds(tx, id) : [];
        await deleteGroup(tx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Group',
          resourceType: 'device_group',
          resourceId: id,
          details: `Deleted ${row.kind} group ${row.name}`,
          oldValues: { name: row.name, kind: row.kind, site_id: row.siteId, filter: row.filter },
          siteIds: [row.siteId],
        });
        return held;
      });
      await tellMembers(ctx.tenantId, members);
    },

    /** The live preview: what a filter matches now among the devices the caller may see. */
    async preview(
      ctx: RequestContext,
      body: { filter: GroupFilter; site_id?: number | null },
    ): Promise<GroupPreviewResponse> {
      assertFilterInScope(ctx, body.filter);
      return previewMatches(db, ctx, body.filter, body.site_id ?? null);
    },

    ...createGroupMembersService({ db, onMembersChanged }),
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
