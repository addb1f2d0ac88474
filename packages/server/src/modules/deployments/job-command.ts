import type { AgentCommand } from '@outpost/contract/agent-protocol';
import { scriptRunName } from '@outpost/contract/script-runs';
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

/**
 * An agent_update job's command for one device (docs/product/rollouts.md#agent-updates-in-waves):
 * update_agent to the version the job chose for the device's OS type, with its executables.
 */
export function updateAgentOf(job: Pick<JobRow, 'agentUpdate'>, osType: string | null): AgentCommand {
  const target = job.agentUpdate?.[osType?.toLowerCase() ?? ''];
  return { kind: 'update_agent', version: target?.version ?? '0.0.0', builds: target?.builds ?? [] };
}

/**
 * A script job's command for one device row (docs/product/scripts.md#runs): run_script with the
 * version's body, the non-secret values and only the names of the secrets (sealed in the job;
 * the agent fetches their values when it starts, GET /api/agent/script-runs/{commandId}/secrets).
 */
export function runScriptOf(job: Pick<JobRow, 'id' | 'scriptRun'>, deviceDeploymentId: number): AgentCommand {
  const spec = job.scriptRun;
  if (!spec) {
    throw new Error(`job ${job.id} is a script job without its run`);
  }
  return {
    kind: 'run_script',
    jobId: job.id,
    deviceDeploymentId,
    name: scriptRunName(spec.script_name, spec.version),
    language: spec.language,
    body: spec.body,
    params: spec.params,
    secretNames: Object.keys(spec.sealed_secrets).sort(),
    timeoutSeconds: spec.timeout_seconds,
  };
}
