import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import type { ResumeRolloutBody, RolloutActionResponse, SkipGateBody } from '@outpost/contract/rollouts';
import { api } from '../../../lib/api-client';
import { useInvalidateDeployments } from '../../../lib/api/deployments';
import { useUser } from '../../../lib/auth';
import { deploymentDetailKey } from './get-deployment';

// docs/product/rollouts.md#rollout-actions — POST /customer/deployments/{id}/rollout/{pause|resume|abort|skip-gate};
// each answers the rollout as it is now.

export type RolloutActionInput =
  | { action: 'pause' }
  | { action: 'resume'; body: ResumeRolloutBody }
  | { action: 'abort' }
  | { action: 'skip-gate'; body: SkipGateBody };

export const rolloutAction = (jobId: number, input: RolloutActionInput) =>
  api.post<RolloutActionResponse>(
    `/customer/deployments/${jobId}/rollout/${input.action}`,
    'body' in input ? input.body : {},
  );

/** Runs an action; its answer shows at once on the job's page, then the job is fetched again. */
export function useRolloutAction(jobId: number) {
  const queryClient = useQueryClient();
  const user = useUser();
  const invalidate = useInvalidateDeployments();
  return useMutation({
    mutationFn: (input: RolloutActionInput) => rolloutAction(jobId, input),
    onSuccess: (answer) => {
      queryClient.setQueryData(
        deploymentDetailKey(user.tenant_id, jobId),
        (old: DeploymentJobDetail | undefined) =>
          old ? { ...old, rollout: answer.rollout, rollout_state: answer.rollout.state } : old,
      );
    },
    onSettled: () => invalidate(),
  });
}
