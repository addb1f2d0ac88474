import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import type { OfflineWait } from '@outpost/contract/deployments';
import type { OfflineWaitRow } from './offline-waits.queries';

// What the details say of a device row the job waits for (docs/architecture.md, "Devices a job
// waits for"). Pure: the rows come from offline-waits.queries.ts.

/**
 * The wire shape of a waiting row. The step's timeout "passed while offline" when the running
 * attempt of the row's current step started longer ago than the step's timeout: the agent stops
 * such a step itself when it is back, and reports it timed out.
 */
export function offlineWaitOf(
  row: Pick<OfflineWaitRow, 'status' | 'expiresAt' | 'currentStepOrder' | 'offlineSince' | 'stepStartedAt'>,
  steps: readonly Pick<DeploymentStep, 'stepOrder' | 'timeoutSeconds'>[],
  now: Date,
): OfflineWait {
  const step = steps.find((s) => s.stepOrder === row.currentStepOrder);
  const timeoutAt =
    row.status === 'running' && step && row.stepStartedAt
      ? new Date(row.stepStartedAt.getTime() + step.timeoutSeconds * 1000)
      : null;
  return {
    offline_since: row.offlineSince?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    step_timeout_passed_at: timeoutAt && timeoutAt < now ? timeoutAt.toISOString() : null,
  };
}
