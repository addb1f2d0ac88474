import { PACKAGE_EXPORT_FORMAT, PACKAGE_EXPORT_VERSION } from '@outpost/contract/packages';
import type { PackageExportDocument, PackageImportInput, StepInput } from '@outpost/contract/packages';
import { packageMessages as messages } from '@outpost/contract/messages';
import { FileRef, STEP_CATALOG, isFieldActive } from '@outpost/contract/step-catalog';
import type { StepType } from '@outpost/contract/step-catalog';
import type { Executor } from '../../lib/db';
import { badRequest } from '../../lib/errors';
import type { TenantScope } from '../../lib/scope';
import { fileLookup } from '../files/files.service';
import type { FileRow } from '../files/files.service';
import type { PackageRow, StepRow } from './packages.queries';

// Export and import of packages as JSON documents (beyond the original product description), and the file fields of a
// step, which both the service and the transfer need.

type FileField = { key: string; label: string };

/** The step's active file fields (a field whose condition is off holds no file). */
export const fileFieldsOf = (type: StepType, details: Record<string, unknown>): FileField[] =>
  STEP_CATALOG[type].fields.filter((f) => f.type === 'file' && isFieldActive(f, details));

/** The ids of the uploaded files the steps refer to, each once. */
export function referencedFileIds(steps: StepRow[]): number[] {
  const ids = steps.flatMap((s) =>
    fileFieldsOf(s.stepType, s.stepDetails).flatMap((f) => {
      const ref = FileRef.safeParse(s.stepDetails[f.key]).data;
      return ref ? [ref.id] : [];
    }),
  );
  return [...new Set(ids)];
}

export function toExportDocument(row: PackageRow, steps: StepRow[], files: FileRow[]): PackageExportDocument {
  return {
    format: PACKAGE_EXPORT_FORMAT,
    version: PACKAGE_EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    package: {
      name: row.name,
      description: row.description,
      target_os: 'windows',
      os_version_requirement: row.osVersionRequirement,
      architecture: row.architecture,
      package_version: row.packageVersion,
      is_template: row.isTemplate,
    },
    steps: steps.map((s) => ({
      step_name: s.stepName,
      step_type: s.stepType,
      step_details: s.stepDetails,
      fail_deployment_on_error: s.failDeploymentOnError,
      timeout_seconds: s.timeoutSeconds,
      retry_count: s.retryCount,
      conditions: s.conditions,
    })),
    files: files.map((f) => ({ id: f.id, originalFilename: f.originalFilename, sha256: f.sha256 })),
  };
}

/**
 * The imported steps with their files resolved in this tenant: by id (same sha256 when the export
 * gives one), else by sha256 (an export from another organisation). An unknown file refuses the
 * whole import. The ids are looked up in one query, the hashes not found that way once each.
 */
export async function resolveImportedSteps(
  tx: Executor,
  scope: TenantScope,
  doc: PackageImportInput,
): Promise<StepInput[]> {
  const hashes = new Map(doc.files.map((f) => [f.id, f.sha256]));
  const refsOf = doc.steps.map((step) =>
    fileFieldsOf(step.step_type, step.step_details).flatMap((field) => {
      const ref = FileRef.safeParse(step.step_details[field.key]).data;
      return ref ? [{ key: field.key, ref }] : [];
    }),
  );
  const ids = [...new Set(refsOf.flat().map((r) => r.ref.id))];
  const byId = new Map((await fileLookup.findByIds(tx, scope, ids)).map((f) => [f.id, f]));
  const bySha256 = new Map<string, FileRow | null>();
  const match = async (id: number): Promise<FileRow | null> => {
    const sha256 = hashes.get(id);
    const file = byId.get(id);
    if (file && (!sha256 || file.sha256 === sha256)) {
      return file;
    }
    if (!sha256) {
      return null;
    }
    if (!bySha256.has(sha256)) {
      bySha256.set(sha256, await fileLookup.findBySha256(tx, scope, sha256));
    }
    return bySha256.get(sha256) ?? null;
  };
  const steps: StepInput[] = [];
  for (const [index, step] of doc.steps.entries()) {
    const details = { ...step.step_details };
    for (const { key, ref } of refsOf[index] ?? []) {
      const file = await match(ref.id);
      if (!file) {
        throw badRequest(messages.importUnknownFile(ref.originalFilename, ref.id), 'IMPORT_UNKNOWN_FILE');
      }
      details[key] = { id: file.id, originalFilename: file.originalFilename };
    }
    steps.push({ ...step, step_details: details });
  }
  return steps;
}
