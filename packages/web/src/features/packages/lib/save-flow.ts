import { packageMessages as messages } from '@outpost/contract/messages';
import type { PackageDetail, PackageStep } from '@outpost/contract/packages';
import type { StepPayload } from '../api/save-package';
import { packageBody } from './builder-state';
import type { PackageBody, PackageInfo, StepDraft } from './builder-state';

// spec: operations §4 Package save — create or update the package, then add new steps and update
// changed ones one at a time, then put them in the builder's order; §8 names each failure.

export type SaveDeps = {
  createPackage: (body: PackageBody) => Promise<PackageDetail>;
  updatePackage: (id: number, body: PackageBody) => Promise<PackageDetail>;
  addStep: (packageId: number, step: StepPayload) => Promise<PackageStep>;
  updateStep: (packageId: number, stepId: number, step: StepPayload) => Promise<PackageStep>;
  reorderSteps: (packageId: number, orderedIds: number[]) => Promise<PackageStep[]>;
};

export type SaveResult =
  | { ok: true; packageId: number }
  /** What was saved before the failure is kept (ids filled in), so a retry does not repeat it. */
  | { ok: false; packageId: number | null; steps: StepDraft[]; error: string };

const reason = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));

const payloadOf = (s: StepDraft): StepPayload => ({
  step_name: s.step_name.trim(),
  step_type: s.step_type,
  step_details: s.step_details,
  fail_deployment_on_error: s.fail_deployment_on_error,
  timeout_seconds: s.timeout_seconds,
  retry_count: s.retry_count,
});

export async function savePackage(
  deps: SaveDeps,
  input: { packageId: number | null; info: PackageInfo; steps: StepDraft[] },
): Promise<SaveResult> {
  const info = packageBody({ ...input.info, name: input.info.name.trim() });
  let packageId = input.packageId;
  const steps = input.steps.map((s) => ({ ...s }));
  try {
    if (packageId === null) {
      packageId = (await deps.createPackage(info)).id;
    } else {
      await deps.updatePackage(packageId, info);
    }
  } catch (err) {
    const prefix = packageId === null ? messages.packageCreate : messages.packageUpdate;
    return { ok: false, packageId, steps, error: `${prefix}: ${reason(err)}` };
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
      return { ok: false, packageId, steps, error };
    }
  }

  const ids = steps.map((s) => s.id).filter((id): id is number => id !== null);
  if (ids.length > 1) {
    try {
      await deps.reorderSteps(packageId, ids);
    } catch (err) {
      return { ok: false, packageId, steps, error: `${messages.packageSave}: ${reason(err)}` };
    }
  }
  return { ok: true, packageId };
}
