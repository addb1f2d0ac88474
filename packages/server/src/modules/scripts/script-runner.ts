import type { ScriptRunSpec } from '@outpost/contract/scripts';
import type { RequestContext } from '../../lib/context';

// The port between the script library and the deployment engine (docs/architecture.md "Script
// runs"): the library checks the caller, validates the parameter values and seals the secrets
// into a ScriptRunSpec; the deployments module implements `create`, writing a job of kind
// `script` whose devices the engine dispatches, times out, cancels and settles as any job.

export type ScriptRunTarget = { deviceIds: number[] } | { groupId: number };

export type ScriptRunCreated = {
  /** the run's job (deployment_jobs.id); its results at /scripts/runs/{job_id} */
  job_id: number;
  /** devices the run reaches */
  devices: number;
  /** offline devices left out because the run said `offline: 'skip'` */
  skipped: number;
};

export type ScriptRunner = {
  /** Writes the run's job in the caller's scope (devices out of scope: 404, as a deployment). */
  create(ctx: RequestContext, spec: ScriptRunSpec, target: ScriptRunTarget): Promise<ScriptRunCreated>;
};
