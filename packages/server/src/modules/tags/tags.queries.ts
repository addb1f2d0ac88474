import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tag, TagColor } from '@outpost/contract/tags';
import { deviceTags, devices, tags } from '../../db/schema/index';
import { arrayParam, rowsOf } from '../../lib/db';
import type { Executor, Reader } from '../../lib/db';
import { inScope, inTenant, isSiteLimited } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

// Tags and which device carries which (docs/product/device-sets.md#tags). Queries only query;
// tags are the tenant's, device tags follow the devices' scope (lib/scope).

export type TagRow = { id: number; name: string; color: TagColor; createdAt: Date };

const tagColumns = { id: tags.id, name: tags.name, color: tags.color, createdAt: tags.createdAt };
const asRow = (r: { id: number; name: string; color: string; createdAt: Date }): TagRow => ({
  ...r,
  color: r.color as TagColor,
});

/**
 * The tenant's tags in name order, each with the devices carrying it that the caller sees: for a
 * caller of all sites straight from device_tags_tenant_tag_idx, for a site-limited one through
 * their devices.
 */
export async function listTags(db: Reader, ctx: Scope): Promise<Tag[]> {
  const counts = isSiteLimited(ctx)
    ? db
        .select({ tagId: deviceTags.tagId, n: sql<number>`count(*)::int`.as('n') })
        .from(deviceTags)
        .innerJoin(devices, eq(devices.id, deviceTags.deviceId))
        .where(and(eq(deviceTags.tenantId, ctx.tenantId), inScope(devices, ctx)))
        .groupBy(deviceTags.tagId)
        .as('counts')
    : db
        .select({ tagId: deviceTags.tagId, n: sql<number>`count(*)::int`.as('n') })
        .from(deviceTags)
        .where(eq(deviceTags.tenantId, ctx.tenantId))
        .groupBy(deviceTags.tagId)
        .as('counts');
  const rows = await db
    .select({ ...tagColumns, n: sql<number>`coalesce(${counts.n}, 0)::int` })
    .from(tags)
    .leftJoin(counts, eq(counts.tagId, tags.id))
    .where(inTenant(tags, ctx))
    .orderBy(sql`lower(${tags.name})`, asc(tags.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    color: r.color as TagColor,
    device_count: r.n,
    created_at: r.createdAt.toISOString(),
  }));
}

/** The tenant's tags of these ids (`lock`: for update, in a transaction). */
export async function findTags(ex: Reader, ctx: TenantScope, ids: number[], lock = false): Promise<TagRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const query = ex
    .select(tagColumns)
    .from(tags)
    .where(and(inTenant(tags, ctx), inArray(tags.id, ids)));
  return (lock ? await query.for('update') : await query).map(asRow);
}

/** The tenant's tags of these names, whatever their case. */
export async function findTagsByName(ex: Reader, ctx: TenantScope, names: string[]): Promise<TagRow[]> {
  if (names.length === 0) {
    return [];
  }
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  const rows = await ex
    .select(tagColumns)
    .from(tags)
    .where(and(inTenant(tags, ctx), sql`lower(${tags.name}) = any(${sql.param(lowered)}::text[])`));
  return rows.map(asRow);
}

/** A new tag; null when the name is taken (the tenant's unique lower(name) index). */
export async function insertTag(
  tx: Executor,
  ctx: TenantScope,
  values: { name: string; color: TagColor },
): Promise<TagRow | null> {
  const [row] = await tx
    .insert(tags)
    .values({ tenantId: ctx.tenantId, ...values })
    .onConflictDoNothing()
    .returning(tagColumns);
  return row ? asRow(row) : null;
}

/** Renames or recolours a tag; false when the new name is taken. */
export async function updateTag(
  tx: Executor,
  ctx: TenantScope,
  id: number,
  patch: { name?: string; color?: TagColor },
): Promise<boolean> {
  const rows = await tx
    .update(tags)
    .set(patch)
    .where(and(inTenant(tags, ctx), eq(tags.id, id)))
    .returning({ id: tags.id })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) {
        return [];
      }
      throw err;
    });
  return rows.length > 0;
}

const isUniqueViolation = (err: unknown): boolean => {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') {
      return true;
    }
  }
  return false;
};

/** Deletes a tag (its device rows go with it); returns the devices that carried it. */
export async function deleteTag(tx: Executor, ctx: TenantScope, id: number): Promise<number[]> {
  const carriers = await tx
    .select({ deviceId: deviceTags.deviceId })
    .from(deviceTags)
    .where(and(eq(deviceTags.tenantId, ctx.tenantId), eq(deviceTags.tagId, id)));
  await tx.delete(tags).where(and(inTenant(tags, ctx), eq(tags.id, id)));
  return carriers.map((r) => r.deviceId);
}

export type ScopedDevice = { id: number; siteId: number | null; hostname: string | null };

/** The devices of these ids the caller may see (others are simply not found). */
export async function findScopedDevices(ex: Reader, ctx: Scope, ids: number[]): Promise<ScopedDevice[]> {
  if (ids.length === 0) {
    return [];
  }
  return ex
    .select({ id: devices.id, siteId: devices.siteId, hostname: devices.hostname })
    .from(devices)
    .where(and(inScope(devices, ctx), sql`${devices.id} = any(${arrayParam(ids, 'int')})`));
}

/** Puts these tags on these devices (pairs already there are left alone); returns pairs created. */
export async function addDeviceTags(
  tx: Executor,
  ctx: TenantScope,
  deviceIds: number[],
  tagIds: number[],
): Promise<{ deviceId: number; tagId: number }[]> {
  if (deviceIds.length === 0 || tagIds.length === 0) {
    return [];
  }
  const result = await tx.execute(sql`
    insert into ${deviceTags} (tenant_id, device_id, tag_id)
    select ${ctx.tenantId}::int, d, t from unnest(${arrayParam(deviceIds, 'int')}) d cross join unnest(${arrayParam(tagIds, 'int')}) t
    on conflict do nothing
    returning device_id as "deviceId", tag_id as "tagId"`);
  return rowsOf<{ deviceId: number; tagId: number }>(result);
}

/** Takes these tags off these devices; returns the pairs deleted. */
export async function removeDeviceTags(
  tx: Executor,
  ctx: TenantScope,
  deviceIds: number[],
  tagIds: number[],
): Promise<{ deviceId: number; tagId: number }[]> {
  if (deviceIds.length === 0 || tagIds.length === 0) {
    return [];
  }
  return tx
    .delete(deviceTags)
    .where(
      and(
        eq(deviceTags.tenantId, ctx.tenantId),
        sql`${deviceTags.deviceId} = any(${arrayParam(deviceIds, 'int')})`,
        inArray(deviceTags.tagId, tagIds),
      ),
    )
    .returning({ deviceId: deviceTags.deviceId, tagId: deviceTags.tagId });
}

/** One device's tags, in name order. */
export async function tagsOfDevice(ex: Reader, ctx: TenantScope, deviceId: number): Promise<TagRow[]> {
  const rows = await ex
    .select(tagColumns)
    .from(deviceTags)
    .innerJoin(tags, eq(tags.id, deviceTags.tagId))
    .where(and(eq(deviceTags.tenantId, ctx.tenantId), eq(deviceTags.deviceId, deviceId)))
    .orderBy(sql`lower(${tags.name})`, asc(tags.id));
  return rows.map(asRow);
}

/** One device the caller may see, by numeric id or guid; null when not visible. */
export async function findScopedDevice(
  ex: Reader,
  ctx: Scope,
  idOrGuid: string,
): Promise<ScopedDevice | null> {
  const key =
    /^[1-9][0-9]{0,9}$/.test(idOrGuid) && Number(idOrGuid) <= 2_147_483_647
      ? eq(devices.id, Number(idOrGuid))
      : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrGuid)
        ? eq(devices.deviceGuid, idOrGuid.toLowerCase())
        : null;
  if (!key) {
    return null;
  }
  const [row] = await ex
    .select({ id: devices.id, siteId: devices.siteId, hostname: devices.hostname })
    .from(devices)
    .where(and(inScope(devices, ctx), key))
    .limit(1);
  return row ?? null;
}
