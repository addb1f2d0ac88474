import type { PackageCreateInput, StepInput } from '@outpost/contract/packages';
import type { Executor } from '../../lib/db';
import type { RequestContext } from '../../lib/context';
import { editorOf } from './package-access';
import { insertPackage as insertPackageRow } from './packages.queries';
import type { PackageRow, StepRow } from './packages.queries';

/** A new package row (create, duplicate, import); its target is Windows unless one is given. */
export async function insertPackage(
  tx: Executor,
  ctx: RequestContext,
  body: Omit<PackageCreateInput, 'target_os' | 'site_id'> & {
    target_os?: PackageCreateInput['target_os'];
    siteId: number | null;
  },
): Promise<PackageRow> {
  const editor = editorOf(ctx);
  return insertPackageRow(tx, {
    tenantId: ctx.tenantId,
    name: body.name,
    description: body.description,
    targetOs: body.target_os ?? 'windows',
    osVersionRequirement: body.os_version_requirement,
    architecture: body.architecture,
    packageVersion: body.package_version,
    isTemplate: body.is_template,
    siteId: body.siteId,
    createdBy: editor.userId,
    createdByName: editor.name,
    updatedBy: editor.userId,
    updatedByName: editor.name,
  });
}

/** A stored step as the input that adds it again (a duplicate's copy). */
export function fromRow(step: StepRow): StepInput {
  return {
    step_name: step.stepName,
    step_type: step.stepType,
    step_details: step.stepDetails,
    fail_deployment_on_error: step.failDeploymentOnError,
    timeout_seconds: step.timeoutSeconds,
    retry_count: step.retryCount,
    conditions: step.conditions,
  };
}
