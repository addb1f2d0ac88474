import { packageMessages as messages } from '@outpost/contract/messages';
import type { PackageDetail, PackageStep } from '@outpost/contract/packages';
import { ApiError } from '../../../lib/api-client';
import type { StepPayload } from '../api/save-package';
import { packageBody } from './builder-state';
import type { PackageBody, PackageInfo, StepDraft } from './builder-state';

// docs/product/packages.md#saving — create or update the package, then add new steps and update
// changed ones one at a time, then put them in the builder's order; docs/product/packages.md#saving names each failure.
// Saved steps removed in the builder are deleted here, first, not when removed: leaving without
// saving keeps them (docs/decisions/2026-11-26-step-delete-on-save.md).

export type SaveDeps = {
  createPackage: (body: PackageBody) => Promise<PackageDetail>;
  updatePackage: (id: number, body: PackageBody) => Promise<PackageDetail>;
  addStep: (packageId: number, step: StepPayload) => Promise<PackageStep>;
  updateStep: (packageId: number, stepId: number, step: StepPayload) => Promise<PackageStep>;
  deleteStep: (packageId: number, stepId: number) => Promise<unknown>;
  reorderSteps: (packageId: number, orderedIds: number[]) => Promise<PackageStep[]>;
};

export type SaveResult =
  | { ok: true; packageId: number }
  /** What was saved before the failure is kept (ids filled in), so a retry does not repeat it. */
  | {
      ok: false;
      packageId: number | null;
      steps: StepDraft[];
      /** the removed saved steps not deleted yet */
      deletedStepIds: number[];
      error: string;
    };

const reason = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));

const payloadOf = (s: StepDraft): StepPayload => ({
  step_name: s.step_name.trim(),
  step_type: s.step_type,
  step_details: s.step_details,
  fail_deployment_on_error: s.fail_deployment_on_error,
  timeout_seconds: s.timeout_seconds,
  retry_count: s.retry_count,
  conditions: s.conditions ?? [],
});

export async function savePackage(
  deps: SaveDeps,
  input: { packageId: number | null; info: PackageInfo; steps: StepDraft[]; deletedStepIds?: number[] },
): Promise<SaveResult> {
  const info = packageBody({ ...input.info, name: input.info.name.trim() });
  let packageId = input.packageId;
  const steps = input.steps.map((s) => ({ ...s }));
  const deletedStepIds = [...(input.deletedStepIds ?? [])];
  const failure = (error: string): SaveResult => ({ ok: false, packageId, steps, deletedStepIds, error });
  try {
    if (packageId === null) {
      packageId = (await deps.createPackage(info)).id;
    } else {
      await deps.updatePackage(packageId, info);
    }
  } catch (err) {
    const prefix = packageId === null ? messages.packageCreate : messages.packageUpdate;
    return failure(`${prefix}: ${reason(err)}`);
  }

  // Deleted first: the package never holds more steps than the builder shows.
  while (packageId !== null && deletedStepIds.length > 0) {
    try {
      await deps.deleteStep(packageId, deletedStepIds[0]!);
    } catch (err) {
      // a step already gone (deleted elsewhere) is what was wanted
      if (!(err instanceof ApiError && err.status === 404)) {
        return failure(`${messages.stepDeleteFailed}: ${reason(err)}`);
      }
    }
    deletedStepIds.shift();
  }

  for (const step of steps) {
    if (step.id !== null && !step.isDirty) {
      continue;
    }
    const name = step.step_name.trim();
    try {
      if (step.id === null) {
        const saved = await deps.addStep(packageId, payloadOf(step));
        step.id = saved.id;
      } else {
        await deps.updateStep(packageId, step.id, payloadOf(step));
      }
      step.isDirty = false;
    } catch (err) {
      const error =
        step.id === null
          ? messages.stepAddFailed(name, reason(err))
          : messages.stepUpdateFailed(name, reason(err));
      return failure(error);
    }
  }

  const ids = steps.map((s) => s.id).filter((id): id is number => id !== null);
  if (ids.length > 1) {
    try {
      await deps.reorderSteps(packageId, ids);
    } catch (err) {
      return failure(`${messages.packageSave}: ${reason(err)}`);
    }
  }
  return { ok: true, packageId };
}
