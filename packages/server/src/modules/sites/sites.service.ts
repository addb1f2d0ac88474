import { paginate } from '@outpost/contract/envelope';
import { adminMessages as messages } from '@outpost/contract/messages';
import type {
  BulkDeleteSitesBody,
  DeleteSitesResponse,
  Site,
  SiteCreateInput,
  SiteListFilters,
  SiteListResponse,
  SiteUpdateInput,
} from '@outpost/contract/sites';
import type { Db } from '../../db/client';
import { moveSoftwareOfDeletedSites } from '../devices/software-counts.service';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict, notFound } from '../../lib/errors';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import {
  deleteSites,
  findSiteIdByCode,
  findSites,
  insertSite,
  listSites,
  toSite,
  updateSite,
} from './sites.queries';
import type { SiteFields, SiteRow } from './sites.queries';

// Sites (docs/product/administration.md#sites, #calls). Any member reads the sites they may see
// (a site-limited member only theirs); administrators create, change and delete them. A
// site-limited administrator changes and deletes only their own sites (others are not found).

/** What the audit entry records of a site. */
const auditValues = (s: SiteFields) => ({
  site_name: s.siteName,
  site_code: s.siteCode,
  description: s.description ?? null,
  address: s.address ?? null,
  city: s.city ?? null,
  state: s.state ?? null,
  country: s.country ?? null,
  postal_code: s.postalCode ?? null,
  timezone: s.timezone ?? null,
});

/** The body's fields as columns; undefined (omitted) fields stay undefined. */
const fieldsOf = (b: SiteUpdateInput): Partial<SiteFields> => ({
  siteName: b.site_name,
  siteCode: b.site_code,
  description: b.description,
  address: b.address,
  city: b.city,
  state: b.state,
  country: b.country,
  postalCode: b.postal_code,
  timezone: b.timezone,
});

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function createSitesService({ db }: { db: Db }) {
  async function loadOne(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<SiteRow> {
    const [row] = await findSites(ex, ctx, [id], { lock });
    if (!row) {
      throw notFound(messages.siteNotFound, 'SITE_NOT_FOUND');
    }
    return row;
  }

  async function requireCodeFree(ex: Executor, ctx: RequestContext, code: string, exceptId?: number) {
    const existing = await findSiteIdByCode(ex, ctx, code);
    if (existing !== null && existing !== exceptId) {
      throw conflict(messages.siteCodeTaken(code), 'SITE_CODE_TAKEN');
    }
  }

  async function remove(ctx: RequestContext, requested: number[]): Promise<DeleteSitesResponse> {
    requireAdmin(ctx);
    const ids = [...new Set(requested)];
    return db.transaction(async (tx) => {
      const rows = await findSites(tx, ctx, ids, { lock: true });
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw notFound(
          requested.length === 1 ? messages.siteNotFound : messages.sitesNotFound(missing),
          'SITE_NOT_FOUND',
        );
      }
      const deleted = await deleteSites(tx, ctx, ids);
      await moveSoftwareOfDeletedSites(tx, ctx.tenantId, deleted);
      const devicesUnassigned = rows.reduce((n, r) => n + r.deviceCount, 0);
      for (const row of rows) {
        await writeAudit(tx, ctx, {
          action: 'Delete Site',
          resourceType: 'site',
          resourceId: row.id,
          details:
            `Deleted site ${row.siteName} (${row.siteCode})` +
            (row.deviceCount > 0
              ? `; ${row.deviceCount} device${row.deviceCount === 1 ? '' : 's'} unassigned`
              : '') +
            (rows.length > 1 ? ` (bulk delete of ${rows.length} sites)` : ''),
          oldValues: { ...auditValues(row), device_count: row.deviceCount },
          siteIds: [row.id],
        });
      }
      return {
        deleted: deleted.length,
        site_ids: deleted,
        devices_unassigned: devicesUnassigned,
        message: messages.sitesDeleted(deleted.length, devicesUnassigned),
      };
    });
  }

  return {
    async list(ctx: RequestContext, f: SiteListFilters): Promise<SiteListResponse> {
      const { rows, total } = await listSites(db, ctx, f);
      return { data: rows.map(toSite), pagination: paginate(f.page, f.limit, total) };
    },

    async get(ctx: RequestContext, id: number): Promise<Site> {
      return toSite(await loadOne(db, ctx, id));
    },

    async create(ctx: RequestContext, body: SiteCreateInput): Promise<Site> {
      requireAdmin(ctx);
      const values: SiteFields = {
        siteName: body.site_name,
        siteCode: body.site_code,
        description: body.description ?? null,
        address: body.address ?? null,
        city: body.city ?? null,
        state: body.state ?? null,
        country: body.country ?? null,
        postalCode: body.postal_code ?? null,
        timezone: body.timezone ?? null,
      };
      const id = await db.transaction(async (tx) => {
        await requireCodeFree(tx, ctx, values.siteCode);
        const siteId = await insertSite(tx, ctx, values);
        if (siteId === null) {
          throw conflict(messages.siteCodeTaken(values.siteCode), 'SITE_CODE_TAKEN');
        }
        await writeAudit(tx, ctx, {
          action: 'Create Site',
          resourceType: 'site',
          resourceId: siteId,
          details: `Created site ${values.siteName} (${values.siteCode})`,
          newValues: auditValues(values),
          siteIds: [siteId],
        });
        return siteId;
      });
      // A site-limited administrator may create a site they are not given: answer it anyway.
      const [row] = await findSites(db, { tenantId: ctx.tenantId, siteAccessType: 'all', siteIds: [] }, [id]);
      if (!row) {
        throw new Error(`site ${id} vanished after its insert`);
      }
      return toSite(row);
    },

    async update(ctx: RequestContext, id: number, body: SiteUpdateInput): Promise<Site> {
      requireAdmin(ctx);
      await db.transaction(async (tx) => {
        const before = await loadOne(tx, ctx, id, true);
        const patch = definedOnly(fieldsOf(body));
        if (patch.siteCode !== undefined && patch.siteCode !== before.siteCode) {
          await requireCodeFree(tx, ctx, patch.siteCode, id);
        }
        if (!(await updateSite(tx, ctx, id, patch))) {
          throw conflict(messages.siteCodeTaken(patch.siteCode ?? before.siteCode), 'SITE_CODE_TAKEN');
        }
        await writeAudit(tx, ctx, {
          action: 'Update Site',
          resourceType: 'site',
          resourceId: id,
          details: `Updated site ${patch.siteName ?? before.siteName} (${patch.siteCode ?? before.siteCode})`,
          oldValues: auditValues(before),
          newValues: auditValues({ ...before, ...patch }),
          siteIds: [id],
        });
      });
      return toSite(await loadOne(db, ctx, id));
    },

    async remove(ctx: RequestContext, id: number): Promise<DeleteSitesResponse> {
      return remove(ctx, [id]);
    },

    async removeMany(ctx: RequestContext, body: BulkDeleteSitesBody): Promise<DeleteSitesResponse> {
      return remove(ctx, body.site_ids);
    },
  };
}

export type SitesService = ReturnType<typeof createSitesService>;

/** New sites for a tenant being seeded (the demo), written outside any caller's scope. */
export { insertSites } from './sites.queries';
