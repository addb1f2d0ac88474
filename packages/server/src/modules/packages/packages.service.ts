import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import { packageMessages as messages } from '@outpost/contract/messages';
import type {
  PackageCreateInput,
  PackageDetail,
  PackageDuplicateInput,
  PackageExportDocument,
  PackageImportInput,
  PackageImportQuery,
  PackageListFilters,
  PackageStep,
  PackageSummary,
  PackageUpdateInput,
  StepInput,
  StepReorderBody,
} from '@outpost/contract/packages';
import { MAX_STEPS_PER_PACKAGE } from '@outpost/contract/limits';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import type { Scope } from '../../lib/scope';
import { fileLookup } from '../files/files.service';
import {
  assertDeployableTo,
  assertMayChange,
  auditSiteOf,
  editorOf,
  siteForNewPackage,
  siteForUpdate,
} from './package-access';
import { addSteps, resolveStepFiles, stepColumns } from './package-steps-write';
import { referencedFileIds, resolveImportedSteps, toExportDocument } from './package-transfer';
import {
  countSteps,
  deletePackage,
  deleteStep,
  findPackage,
  findStep,
  lastDeployment,
  updatePackage,
  updateStep as updateStepRow,
  listPackages,
  listSteps,
  nextStepOrder,
  packageUpdatedAtOf,
  replaceStepFiles,
  toStep,
  toSummary,
  touchPackage,
  writeStepOrder,
} from './packages.queries';
import type { PackageRow } from './packages.queries';
import { fromRow, insertPackage } from './package-insert';
import { assertStepFitsTarget, assertTargetFitsSteps } from './package-targets';

/**
 * How many pending or running deployments use a package. The deployments area provides it
 * (ARCHITECTURE §5); it runs inside the delete transaction, after the package row is locked.
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
export function createPackagesService(db: Db, opts: PackagesServiceOptions = {}) {
  const counters = opts.activeDeploymentCounters ?? [];

  async function loadOr404(ex: Executor, ctx: RequestContext, id: number, lock = false): Promise<PackageRow> {
    const row = await findPackage(ex, ctx, id, { lock });
    if (!row) {
      throw notFound(messages.packageNotFound, 'PACKAGE_NOT_FOUND');
    }
    return row;
  }

  /** A package the caller may change, locked until the transaction ends. */
  async function loadForChange(tx: Executor, ctx: RequestContext, id: number): Promise<PackageRow> {
    const row = await loadOr404(tx, ctx, id, true);
    assertMayChange(ctx, row);
    return row;
  }

  async function detailOf(ex: Executor, row: PackageRow): Promise<PackageDetail> {
    const steps = await listSteps(ex, row.id);
    return { ...toSummary(row, steps.length, await lastDeployment(ex, row.id)), steps: steps.map(toStep) };
  }

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

    async addStep(ctx: RequestContext, packageId: number, input: StepInput): Promise<PackageStep> {
      return db.transaction(async (tx) => {
        const pkg = await loadForChange(tx, ctx, packageId);
        assertStepFitsTarget(pkg.targetOs, input.step_type);
        if ((await countSteps(tx, packageId)) >= MAX_STEPS_PER_PACKAGE) {
          throw badRequest(messages.stepLimitReached(MAX_STEPS_PER_PACKAGE), 'TOO_MANY_STEPS');
        }
        const [row] = await addSteps(tx, ctx, packageId, [input], await nextStepOrder(tx, packageId));
        const step = toStep(row!);
        await touchPackage(tx, packageId, editorOf(ctx));
        await writeAudit(tx, ctx, {
          action: 'Add Package Step',
          resourceType: 'package',
          resourceId: packageId,
          ...auditSiteOf(pkg.siteId),
          details: `Added step ${step.step_order} "${step.step_name}" (${step.step_type})`,
          newValues: step,
        });
        return step;
      });
    },

    async updateStep(
      ctx: RequestContext,
      packageId: number,
      stepId: number,
      input: StepInput,
    ): Promise<PackageStep> {
      return db.transaction(async (tx) => {
        const pkg = await loadForChange(tx, ctx, packageId);
        assertStepFitsTarget(pkg.targetOs, input.step_type);
        const before = await findStep(tx, packageId, stepId);
        if (!before) {
          throw notFound(messages.stepNotFound, 'STEP_NOT_FOUND');
        }
        const [resolved] = await resolveStepFiles(tx, ctx, [input]);
        const row = await updateStepRow(tx, stepId, stepColumns(input, resolved!.details));
        await replaceStepFiles(tx, stepId, resolved!.fileIds);
        await touchPackage(tx, packageId, editorOf(ctx));
        const step = toStep(row);
        await writeAudit(tx, ctx, {
          action: 'Update Package Step',
          resourceType: 'package',
          resourceId: packageId,
          ...auditSiteOf(pkg.siteId),
          details: `Updated step ${step.step_order} "${step.step_name}"`,
          oldValues: toStep(before),
          newValues: step,
        });
        return step;
      });
    },

    // spec §2.3: deleting renumbers step_order from 1.
    async removeStep(ctx: RequestContext, packageId: number, stepId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const pkg = await loadForChange(tx, ctx, packageId);
        const step = await findStep(tx, packageId, stepId);
        if (!step) {
          throw notFound(messages.stepNotFound, 'STEP_NOT_FOUND');
        }
        await deleteStep(tx, stepId);
        await writeStepOrder(
          tx,
          (await listSteps(tx, packageId)).map((s) => s.id),
        );
        await touchPackage(tx, packageId, editorOf(ctx));
        await writeAudit(tx, ctx, {
          action: 'Delete Package Step',
          resourceType: 'package',
          resourceId: packageId,
          ...auditSiteOf(pkg.siteId),
          details: `Deleted step ${step.stepOrder} "${step.stepName}"`,
          oldValues: toStep(step),
        });
      });
    },

    // spec §2.3 and §7: {stepOrders} lists every step once; the result is numbered from 1.
    async reorder(ctx: RequestContext, packageId: number, body: StepReorderBody): Promise<PackageStep[]> {
      return db.transaction(async (tx) => {
        const pkg = await loadForChange(tx, ctx, packageId);
        const steps = await listSteps(tx, packageId);
        const given = new Set(body.stepOrders.map((s) => s.id));
        const isComplete =
          given.size === body.stepOrders.length &&
          given.size === steps.length &&
          steps.every((s) => given.has(s.id));
        if (!isComplete) {
          throw badRequest(messages.reorderMismatch, 'REORDER_MISMATCH');
        }
        const ordered = body.stepOrders
          .map((s, index) => ({ ...s, index }))
          .sort((a, b) => a.step_order - b.step_order || a.index - b.index)
          .map((s) => s.id);
        await writeStepOrder(tx, ordered);
        await touchPackage(tx, packageId, editorOf(ctx));
        const before = steps.map((s) => ({ id: s.id, step_order: s.stepOrder }));
        await writeAudit(tx, ctx, {
          action: 'Reorder Package Steps',
          resourceType: 'package',
          resourceId: packageId,
          ...auditSiteOf(pkg.siteId),
          details: `Reordered ${ordered.length} steps`,
          oldValues: before,
          newValues: ordered.map((id, i) => ({ id, step_order: i + 1 })),
        });
        return (await listSteps(tx, packageId)).map(toStep);
      });
    },

    // Beyond the spec: a copy of a package with its steps, or the same saved as a template.
    async duplicate(
      ctx: RequestContext,
      packageId: number,
      body: PackageDuplicateInput,
    ): Promise<PackageDetail> {
      return db.transaction(async (tx) => {
        const source = await loadOr404(tx, ctx, packageId);
        const siteId = await siteForNewPackage(tx, ctx, body.site_id, source.siteId);
        const isTemplate = body.is_template ?? source.isTemplate;
        const name =
          body.name ?? `${source.name} (${isTemplate && !source.isTemplate ? 'template' : 'copy'})`;
        const row = await insertPackage(tx, ctx, {
          name,
          description: source.description,
          target_os: source.targetOs === 'macos' ? undefined : source.targetOs,
          os_version_requirement: source.osVersionRequirement,
          architecture: source.architecture,
          package_version: source.packageVersion,
          is_template: isTemplate,
          siteId,
        });
        await addSteps(tx, ctx, row.id, (await listSteps(tx, packageId)).map(fromRow));
        await writeAudit(tx, ctx, {
          action: isTemplate && !source.isTemplate ? 'Save Package as Template' : 'Duplicate Package',
          resourceType: 'package',
          resourceId: row.id,
          ...auditSiteOf(siteId),
          details: `Copied package ${source.name} (id ${source.id}) to ${row.name}`,
          newValues: { site_id: siteId },
        });
        return detailOf(tx, row);
      });
    },

    async exportPackage(ctx: RequestContext, packageId: number): Promise<PackageExportDocument> {
      const row = await loadOr404(db, ctx, packageId);
      const steps = await listSteps(db, packageId);
      const files = await fileLookup.findByIds(db, ctx, referencedFileIds(steps));
      return toExportDocument(row, steps, files);
    },

    // One insert for the steps and one for their files, whatever their number (R2-6).
    async importPackage(
      ctx: RequestContext,
      doc: PackageImportInput,
      query: PackageImportQuery,
    ): Promise<PackageDetail> {
      return db.transaction(async (tx) => {
        const siteId = await siteForNewPackage(tx, ctx, query.site_id);
        const steps = await resolveImportedSteps(tx, ctx, doc);
        const row = await insertPackage(tx, ctx, { ...doc.package, siteId });
        await addSteps(tx, ctx, row.id, steps);
        await writeAudit(tx, ctx, {
          action: 'Import Package',
          resourceType: 'package',
          resourceId: row.id,
          ...auditSiteOf(siteId),
          details: `Imported package ${row.name} with ${steps.length} steps`,
          newValues: { ...doc, site_id: siteId },
        });
        return detailOf(tx, row);
      });
    },
  };
}

export type PackagesService = ReturnType<typeof createPackagesService>;
