import type { JobRow } from './deployments.queries';

/**
 * What a job's run_deployment command carries besides its ids: the package's name, its target OS
 * (an agent on another OS runs none of the steps, docs/architecture.md "Package targets") and the
 * steps copied when the job was created.
 */
export const runDeploymentOf = (job: Pick<JobRow, 'packageName' | 'targetOs' | 'steps'>) => ({
  packageName: job.packageName,
  targetOs: job.targetOs,
  steps: job.steps,
});
