import { packageMessages as messages } from '@outpost/contract/messages';
import type { PackageStep, StepInput, StepReorderBody } from '@outpost/contract/packages';
import { MAX_STEPS_PER_PACKAGE } from '@outpost/contract/limits';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/errors';
import type { RequestContext } from '../../lib/context';
import { auditSiteOf, editorOf } from './package-access';
import { loadForChange } from './package-load';
import { addSteps, resolveStepFiles, stepColumns } from './package-steps-write';
import {
  countSteps,
  deleteStep,
  findStep,
  updateStep as updateStepRow,
  listSteps,
  nextStepOrder,
  replaceStepFiles,
  toStep,
  touchPackage,
  writeStepOrder,
} from './packages.queries';
import { assertStepFitsTarget } from './package-targets';

/** A package's steps: add, change, delete and reorder (part of the packages service). */
export function createPackageStepsService({ db }: { db: Db }) {
  return {
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

    // docs/product/packages.md#builder: deleting renumbers step_order from 1.
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

    // docs/product/packages.md#builder and #calls: {stepOrders} lists every step once; the result is numbered from 1.
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
  };
}
