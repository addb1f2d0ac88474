import { paginate } from '@outpost/contract/envelope';
import { adminMessages as messages } from '@outpost/contract/messages';
import type {
  BulkDeleteUsersBody,
  DeleteUsersResponse,
  User,
  UserCreateInput,
  UserListFilters,
  UserListResponse,
  UserUpdateInput,
} from '@outpost/contract/users';
import type { SiteAccessType } from '@outpost/contract/auth';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict, notFound } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import {
  deleteUsers,
  findUsers,
  insertUser,
  listUsers,
  lockAdmins,
  replaceUserSites,
  toUser,
  updateUser,
} from './users.queries';
import { requireAdminRemains } from './users.rules';
import {
  accessSites,
  auditValues,
  checkSiteAccess,
  loadOne,
  requireEmailFree,
  requireManageable,
  rowValues,
  siteIdsOf,
  who,
} from './users-checks';
import type { SessionControl } from '../auth/sessions.service';
import { emitEvent } from '../../lib/events';

// Users of the caller's organization (docs/product/administration.md#users, #calls). A user
// row is a membership: the same e-mail may belong to several organizations, each with its own
// role and sites, and signs in to any of them (Google or dev sign-in) as soon as the row exists.
// Administrators only. An administrator limited to specific sites manages only users whose
// access lies within their sites, and gives only their sites (no privilege beyond their own).

export type UsersServiceDeps = { db: Db; sessions: SessionControl };

export function createUsersService({ db, sessions }: UsersServiceDeps) {
  return {
    async list(ctx: RequestContext, f: UserListFilters): Promise<UserListResponse> {
      requireAdmin(ctx);
      const { rows, total } = await listUsers(db, ctx, f);
      return { data: rows.map(toUser), pagination: paginate(f.page, f.limit, total) };
    },

    async get(ctx: RequestContext, id: number): Promise<User> {
      requireAdmin(ctx);
      return toUser(await loadOne(db, ctx, id));
    },

    async create(ctx: RequestContext, body: UserCreateInput): Promise<User> {
      requireAdmin(ctx);
      const id = await db.transaction(async (tx) => {
        const siteIds = await checkSiteAccess(tx, ctx, body.site_access_type, body.site_ids);
        await requireEmailFree(tx, ctx, body.email);
        const userId = await insertUser(tx, ctx, {
          email: body.email,
          name: body.name ?? null,
          role: body.role,
          siteAccessType: body.site_access_type,
        });
        if (userId === null) {
          // Another request added the same e-mail between the check and the insert.
          throw conflict(messages.emailTaken(body.email), 'EMAIL_TAKEN');
        }
        await replaceUserSites(tx, userId, siteIds);
        await emitUserEvent(tx, ctx.tenantId, 'user.added', {
          id: userId,
          email: body.email,
          name: body.name ?? null,
          role: body.role,
        });
        await writeAudit(tx, ctx, {
          action: 'Create User',
          siteIds: accessSites(body.site_access_type, siteIds),
          resourceType: 'user',
          resourceId: userId,
          details: `Created user ${who({ name: body.name ?? null, email: body.email })}`,
          newValues: auditValues({
            email: body.email,
            name: body.name ?? null,
            role: body.role,
            siteAccessType: body.site_access_type,
            siteIds,
          }),
        });
        return userId;
      });
      return toUser(await loadOne(db, ctx, id));
    },

    async update(ctx: RequestContext, id: number, body: UserUpdateInput): Promise<User> {
      requireAdmin(ctx);
      const hasAccessChanged = await db.transaction(async (tx) => applyUpdate(tx, ctx, sessions, id, body));
      if (hasAccessChanged) {
        await sessions.announceEnded([id]);
      }
      return toUser(await loadOne(db, ctx, id));
    },

    async remove(ctx: RequestContext, id: number): Promise<DeleteUsersResponse> {
      return removeUsers(db, sessions, ctx, [id]);
    },

    async removeMany(ctx: RequestContext, body: BulkDeleteUsersBody): Promise<DeleteUsersResponse> {
      return removeUsers(db, sessions, ctx, body.user_ids);
    },
  };
}

async function removeUsers(
  db: Db,
  sessions: SessionControl,
  ctx: RequestContext,
  requested: number[],
): Promise<DeleteUsersResponse> {
  requireAdmin(ctx);
  const ids = [...new Set(requested)];
  const result = await db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, ctx);
    const rows = await findUsers(tx, ctx, ids, { lock: true });
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw notFound(
        requested.length === 1 ? messages.userNotFound : messages.usersNotFound(missing),
        'USER_NOT_FOUND',
      );
    }
    rows.forEach((row) => requireManageable(ctx, row));
    const losingAdmins = rows.filter((r) => r.role === 'tenant_admin').map((r) => r.id);
    if (losingAdmins.length > 0) {
      requireAdminRemains(ctx, admins, { losing: losingAdmins, losingAllSites: [], kind: 'delete' });
    }
    const deleted = await deleteUsers(tx, ctx, ids);
    for (const row of rows.filter((r) => deleted.includes(r.id))) {
      await emitUserEvent(tx, ctx.tenantId, 'user.removed', {
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
      });
    }
    for (const row of rows) {
      await writeAudit(tx, ctx, {
        action: 'Delete User',
        siteIds: accessSites(row.siteAccessType, siteIdsOf(row)),
        resourceType: 'user',
        resourceId: row.id,
        details:
          rows.length === 1
            ? `Deleted user ${who(row)}`
            : `Deleted user ${who(row)} (bulk delete of ${rows.length} users)`,
        oldValues: rowValues(row),
      });
    }
    return { deleted: deleted.length, user_ids: deleted, message: messages.usersDeleted(deleted.length) };
  });
  // Their sessions went with their rows; open sockets close now rather than at the next check.
  await sessions.announceEnded(result.user_ids);
  return result;
}

/** The update of one user inside its transaction; whether the user's access changed. */
async function applyUpdate(
  tx: Executor,
  ctx: RequestContext,
  sessions: SessionControl,
  id: number,
  body: UserUpdateInput,
): Promise<boolean> {
  const admins = await lockAdmins(tx, ctx);
  const before = await loadOne(tx, ctx, id, true);
  requireManageable(ctx, before);
  const beforeSites = siteIdsOf(before);
  const access: SiteAccessType =
    body.site_access_type ?? (before.siteAccessType === 'all' ? 'all' : 'specific');
  const siteIds = await checkSiteAccess(
    tx,
    ctx,
    access,
    body.site_ids ?? (body.site_access_type === 'all' ? [] : beforeSites),
  );
  const next = {
    email: body.email ?? before.email,
    name: body.name === undefined ? before.name : body.name,
    role: body.role ?? before.role,
    siteAccessType: access,
    siteIds,
  };
  if (next.email !== before.email) {
    // SECURITY.md R2-1: a membership bound to a person's identity keeps its address.
    if (before.identityId !== null) {
      throw conflict(messages.emailBound, 'EMAIL_BOUND');
    }
    await requireEmailFree(tx, ctx, next.email, id);
  }
  if (before.role === 'tenant_admin') {
    requireAdminRemains(ctx, admins, {
      losing: next.role === 'tenant_admin' ? [] : [id],
      losingAllSites: next.siteAccessType === 'all' ? [] : [id],
      kind: 'demote',
    });
  }
  const updated = await updateUser(tx, ctx, id, {
    email: next.email,
    name: next.name,
    role: next.role,
    siteAccessType: next.siteAccessType,
  });
  if (!updated) {
    throw conflict(messages.emailTaken(next.email), 'EMAIL_TAKEN');
  }
  await replaceUserSites(tx, id, siteIds);
  await writeAudit(tx, ctx, {
    action: 'Update User',
    // about the sites before and after: both sides' administrators read it (R2-9)
    siteIds:
      before.siteAccessType === 'all' || next.siteAccessType === 'all' ? null : [...beforeSites, ...siteIds],
    resourceType: 'user',
    resourceId: id,
    details: `Updated user ${who(next)}`,
    oldValues: rowValues(before),
    newValues: auditValues(next),
  });
  // SECURITY.md R2-1 "Sessions": a changed role or site access ends the member's sessions.
  const isAccessChanged =
    next.role !== before.role ||
    next.siteAccessType !== before.siteAccessType ||
    siteIds.join(',') !== beforeSites.join(',');
  if (isAccessChanged) {
    await sessions.revokeMembers(tx, [id]);
  }
  return isAccessChanged;
}

export type UsersService = ReturnType<typeof createUsersService>;

/** user.added and user.removed (docs/product/webhooks.md#events), in the change's transaction. */
function emitUserEvent(
  tx: Executor,
  tenantId: number,
  event: 'user.added' | 'user.removed',
  user: { id: number; email: string; name: string | null; role: string },
) {
  return emitEvent(tx, tenantId, event, user, `user:${user.id}:${event}`);
}
