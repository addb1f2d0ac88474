import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import { FileRef, referencedFileIds } from '@outpost/contract/step-catalog';
import type { Executor } from '../../lib/db';
import type { Scope } from '../../lib/scope';
import { fileLookup } from '../files/files.service';
import { packageLookup } from '../packages/packages.service';

/**
 * A package's steps as the job runs them, with the sha256 of every uploaded file a step uses so
 * the agent verifies what it downloads.
 */
export async function snapshotSteps(tx: Executor, scope: Scope, packageId: number) {
  const pkg = await packageLookup.lockWithSteps(tx, scope, packageId);
  if (!pkg) {
    return null;
  }
  const fileIds = pkg.steps.flatMap((s) => referencedFileIds(s.step_type, s.step_details));
  const files = new Map((await fileLookup.findByIds(tx, scope, fileIds)).map((f) => [f.id, f]));
  const steps: DeploymentStep[] = pkg.steps.map((s) => {
    const details: Record<string, unknown> = { ...s.step_details };
    for (const [key, value] of Object.entries(details)) {
      const ref = FileRef.safeParse(value);
      const file = ref.success ? files.get(ref.data.id) : undefined;
      if (file) {
        details[key] = { ...ref.data, sha256: file.sha256 };
      }
    }
    return {
      stepOrder: s.step_order,
      stepName: s.step_name,
      stepType: s.step_type,
      stepDetails: details,
      timeoutSeconds: s.timeout_seconds,
      retryCount: s.retry_count,
      failDeploymentOnError: s.fail_deployment_on_error,
      // docs/product/rollouts.md#step-conditions: the job keeps the conditions its steps had
      ...(s.conditions && s.conditions.length > 0 && { conditions: s.conditions }),
    };
  });
  return { pkg, steps, fileIds: [...files.keys()] };
}
