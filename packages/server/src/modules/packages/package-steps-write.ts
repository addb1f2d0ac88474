import { packageMessages as messages } from '@outpost/contract/messages';
import type { StepInput } from '@outpost/contract/packages';
import { customFieldMessages } from '@outpost/contract/custom-fields';
import { FileRef, STEP_CATALOG } from '@outpost/contract/step-catalog';
import type { Executor } from '../../lib/db';
import { badRequest } from '../../lib/errors';
import type { TenantScope } from '../../lib/scope';
import { customFieldLookup } from '../custom-fields/custom-fields.service';
import { fileLookup } from '../files/files.service';
import { fileFieldsOf } from './package-transfer';
import { insertStepFiles, insertSteps } from './packages.queries';
import type { StepRow } from './packages.queries';

// Writing steps set-based (SECURITY.md R2-6): however many steps a request brings (at most
// MAX_STEPS_PER_PACKAGE), their files are looked up in one query and the steps and their file
// links are written in one statement each, so one request's work does not grow in round trips.

type StepLike = Pick<StepInput, 'step_type' | 'step_details'>;
export type ResolvedStep = { details: Record<string, unknown>; fileIds: number[] };

/**
 * The steps' file fields must name files of this tenant; their display names are refreshed from
 * the files table. Returns, per step, the details to store and the file ids they use.
 */
export async function resolveStepFiles(
  ex: Executor,
  scope: TenantScope,
  steps: StepLike[],
): Promise<ResolvedStep[]> {
  const refsOf = steps.map((step) =>
    fileFieldsOf(step.step_type, step.step_details).map((field) => ({
      field,
      ref: FileRef.safeParse(step.step_details[field.key]).data,
    })),
  );
  await requireKnownFields(ex, scope, steps);
  const ids = [...new Set(refsOf.flat().flatMap((r) => (r.ref ? [r.ref.id] : [])))];
  const found = new Map((await fileLookup.findByIds(ex, scope, ids)).map((f) => [f.id, f]));
  return steps.map((step, index) => {
    const details = { ...step.step_details };
    const fileIds: number[] = [];
    for (const { field, ref } of refsOf[index] ?? []) {
      if (!ref) {
        continue;
      }
      const file = found.get(ref.id);
      if (!file) {
        throw badRequest(messages.stepFileUnknown(field.label), 'FILE_NOT_FOUND');
      }
      details[field.key] = { id: file.id, originalFilename: file.originalFilename };
      fileIds.push(file.id);
    }
    return { details, fileIds };
  });
}

/**
 * docs/product/device-sets.md#custom-fields: a step that stores its output names a custom field
 * of the tenant (400 otherwise, with the field's label).
 */
async function requireKnownFields(ex: Executor, scope: TenantScope, steps: StepLike[]): Promise<void> {
  const named = steps.flatMap((step) =>
    STEP_CATALOG[step.step_type].fields
      .filter((f) => f.type === 'custom_field')
      .flatMap((f) => {
        const key = step.step_details[f.key];
        return typeof key === 'string' && key.trim() !== '' ? [{ label: f.label, key: key.trim() }] : [];
      }),
  );
  const known = await customFieldLookup.knownKeys(
    ex,
    scope,
    named.map((n) => n.key),
  );
  const unknown = named.find((n) => !known.has(n.key));
  if (unknown) {
    throw badRequest(
      `${unknown.label}: ${customFieldMessages.unknownField(unknown.key)}`,
      'CUSTOM_FIELD_UNKNOWN',
    );
  }
}

/** A step's stored columns from the API's input and its resolved details. */
export const stepColumns = (input: StepInput, details: Record<string, unknown>) => ({
  stepName: input.step_name,
  stepType: input.step_type,
  stepDetails: details,
  failDeploymentOnError: input.fail_deployment_on_error,
  timeoutSeconds: input.timeout_seconds,
  retryCount: input.retry_count,
  conditions: input.conditions,
});

/** Adds the steps to the package as orders firstOrder, firstOrder+1, …: one insert for the steps, one for their files. */
export async function addSteps(
  tx: Executor,
  scope: TenantScope,
  packageId: number,
  steps: StepInput[],
  firstOrder = 1,
): Promise<StepRow[]> {
  const resolved = await resolveStepFiles(tx, scope, steps);
  const rows = await insertSteps(
    tx,
    steps.map((step, index) => ({
      packageId,
      stepOrder: firstOrder + index,
      ...stepColumns(step, resolved[index]?.details ?? step.step_details),
    })),
  );
  await insertStepFiles(
    tx,
    rows.flatMap((row, index) =>
      (resolved[index]?.fileIds ?? []).map((fileId) => ({ stepId: row.id, fileId })),
    ),
  );
  return rows;
}
