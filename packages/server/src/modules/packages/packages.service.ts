import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import { packageMessages as messages } from '@outpost/contract/messages';
import type {
  PackageCreateInput,
  PackageDetail,
  PackageListFilters,
  PackageSummary,
  PackageUpdateInput,
} from '@outpost/contract/packages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { conflict } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import type { Scope } from '../../lib/scope';
import {
  assertDeployableTo,
  auditSiteOf,
  editorOf,
  siteForNewPackage,
  siteForUpdate,
} from './package-access';
import {
  deletePackage,
  findPackage,
  updatePackage,
  listPackages,
  listSteps,
  packageUpdatedAtOf,
  toStep,
  toSummary,
} from './packages.queries';
import { insertPackage } from './package-insert';
import { assertTargetFitsSteps } from './package-targets';
import { detailOf, loadForChange, loadOr404 } from './package-load';
import { createPackageStepsService } from './package-steps.service';
import { createPackageCopiesService } from './package-copies.service';

/**
 * How many pending or running deployments use a package. The deployments area provides it
 * (docs/product/deployments.md#running-on-devices); it runs inside the delete transaction, after the package row is locked.
 */
export type ActiveDeploymentCounter = (tx: Executor, tenantId: number, packageId: number) => Promise<number>;

export type PackagesServiceOptions = {
  /** Counters of deployments that still use a package; a package with any is not deleted. */
  activeDeploymentCounters?: ActiveDeploymentCounter[];
};

/**
 * What the deployments area reads inside its own transaction: a package and its ordered steps,
 * the package row share-locked until that transaction ends (a delete or a step change waits for
 * the new job, then sees it counted as active; jobs created from one package at once do not wait
 * for each other).
 */
export const packageLookup = {
  /** 409 when the package belongs to a site and a target device is outside it. */
  assertDeployableTo,
  /**
   * The package's last change as SQL, for the job that copies it now: stored with full precision
   * so the package list can tell whether it changed since (is_changed_since_deploy).
   */
  updatedAtOf: (id: number) => packageUpdatedAtOf(id),
  async lockWithSteps(tx: Executor, scope: Scope, id: number): Promise<PackageDetail | null> {
    const row = await findPackage(tx, scope, id, { lock: 'share' });
    if (!row) {
      return null;
    }
    const steps = await listSteps(tx, row.id);
    return { ...toSummary(row, steps.length), steps: steps.map(toStep) };
  },
};

// Packages are shared with all sites or owned by one (SECURITY.md R2-5): any signed-in member may
// build packages; a site-limited member reads the shared ones and their sites' ones, and changes
// or deletes only their sites' ones (package-access.ts); every query is scoped (inScopeOrShared).
// The steps (package-steps.service.ts) and the copies (package-copies.service.ts) are composed in.
export type PackagesServiceDeps = { db: Db } & PackagesServiceOptions;

export function createPackagesService({ db, activeDeploymentCounters }: PackagesServiceDeps) {
  const counters = activeDeploymentCounters ?? [];

  return {
    async list(ctx: RequestContext, query: PackageListFilters): Promise<ListData<PackageSummary>> {
      const { rows, total } = await listPackages(db, ctx, query);
      return {
        data: rows.map((r) => toSummary(r, r.stepCount, r)),
        pagination: paginate(query.page, query.limit, total),
      };
    },

    async get(ctx: RequestContext, id: number): Promise<PackageDetail> {
      return detailOf(db, await loadOr404(db, ctx, id));
    },

    async create(ctx: RequestContext, body: PackageCreateInput): Promise<PackageDetail> {
      return db.transaction(async (tx) => {
        const siteId = await siteForNewPackage(tx, ctx, body.site_id);
        const row = await insertPackage(tx, ctx, { ...body, siteId });
        await writeAudit(tx, ctx, {
          action: 'Create Package',
          resourceType: 'package',
          resourceId: row.id,
          ...auditSiteOf(siteId),
          details: `Created package ${row.name}`,
          newValues: { ...body, site_id: siteId },
        });
        return detailOf(tx, row);
      });
    },

    async update(ctx: RequestContext, id: number, body: PackageUpdateInput): Promise<PackageDetail> {
      return db.transaction(async (tx) => {
        const before = await loadForChange(tx, ctx, id);
        if (body.target_os !== undefined && body.target_os !== before.targetOs) {
          await assertTargetFitsSteps(tx, id, body.target_os);
        }
        const siteId = await siteForUpdate(tx, ctx, before, body.site_id);
        const editor = editorOf(ctx);
        const row = await updatePackage(tx, id, {
          name: body.name,
          siteId,
          updatedBy: editor.userId,
          updatedByName: editor.name,
          ...(body.description !== undefined && { description: body.description }),
          ...(body.os_version_requirement !== undefined && {
            osVersionRequirement: body.os_version_requirement,
          }),
          ...(body.target_os !== undefined && { targetOs: body.target_os }),
          ...(body.architecture !== undefined && { architecture: body.architecture }),
          ...(body.package_version !== undefined && { packageVersion: body.package_version }),
          ...(body.is_template !== undefined && { isTemplate: body.is_template }),
        });
        await writeAudit(tx, ctx, {
          action: 'Update Package',
          resourceType: 'package',
          resourceId: id,
          ...auditSiteOf(before.siteId, siteId),
          details: `Updated package ${row.name}`,
          oldValues: toSummary(before, 0),
          newValues: { ...body, site_id: siteId },
        });
        return detailOf(tx, row);
      });
    },

    async remove(ctx: RequestContext, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await loadForChange(tx, ctx, id);
        let active = 0;
        for (const count of counters) {
          active += await count(tx, ctx.tenantId, id);
        }
        if (active > 0) {
          throw conflict(messages.packageInUse(active), 'PACKAGE_IN_USE');
        }
        const steps = await listSteps(tx, id);
        await deletePackage(tx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete Package',
          resourceType: 'package',
          resourceId: id,
          ...auditSiteOf(row.siteId),
          details: `Deleted package ${row.name}`,
          oldValues: { ...toSummary(row, steps.length), steps: steps.map(toStep) },
        });
      });
    },

    ...createPackageStepsService({ db }),
    ...createPackageCopiesService({ db }),
  };
}

export type PackagesService = ReturnType<typeof createPackagesService>;
