import type { AgentUpdateTargets } from '@outpost/contract/agent-protocol';
import { agentUpdateJobName } from '@outpost/contract/deployments';
import type { RolloutPlanInput } from '@outpost/contract/rollouts';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { insertJob, insertPendingDeviceDeployments, toJob } from './deployments.queries';
import type { JobTarget } from './deployments.queries';
import type { Db } from '../../db/client';
import type { DevicesService } from '../devices/devices.service';
import type { DeploymentEngine } from './engine/deployment-engine';
import { checkRollout, writeRollout } from './rollout-create';

// Agent self-updates in waves (docs/product/rollouts.md#agent-updates-in-waves): a job of kind
// agent_update whose device rows are the agents to update. The rollout engine dispatches it like
// any job; the dispatcher gives each row an update_agent command instead of run_deployment, and
// the update's answer ends the row, so gates, halts and the rollout actions work unchanged.

export type AgentUpdateJobInput = {
  plan: RolloutPlanInput;
  /** the agents to update (the caller applied its skip rules), each with its target version */
  targets: readonly (JobTarget & { to: string })[];
  /** per OS type: the version and its executables */
  agentUpdate: AgentUpdateTargets;
};

/**
 * Checks the plan (400 with the rollout messages; groups in the caller's scope, 404), then, in
 * one transaction, writes the job, its rows and its waves and runs `alsoInTx` (the caller's
 * audit) before the commit; kicks the engine after it.
 */
export async function createAgentUpdateJob(
  deps: { db: Db; devices: Pick<DevicesService, 'findManyInScope'>; engine: Pick<DeploymentEngine, 'kick'> },
  ctx: RequestContext,
  input: AgentUpdateJobInput,
  alsoInTx: (tx: Executor, jobId: number) => Promise<void>,
) {
  const body = { rollout: input.plan };
  const { groups } = await checkRollout(deps, ctx, body);
  const versions = [...new Set(input.targets.map((t) => t.to))].sort();
  const job = await deps.db.transaction(async (tx) => {
    const row = await insertJob(tx, {
      tenantId: ctx.tenantId,
      kind: 'agent_update',
      agentUpdate: input.agentUpdate,
      packageId: null,
      packageName: 'Outpost agent',
      packageVersion: versions.join(', '),
      name: agentUpdateJobName(versions),
      description: null,
      steps: [],
      scheduledAt: null,
      totalDevices: input.targets.length,
      createdBy: ctx.userId,
      createdByName: ctx.name,
      rollout: input.plan,
      rolloutState: 'running',
      currentWave: 0,
    });
    const targets = input.targets.map(({ to: _to, ...t }) => t);
    await insertPendingDeviceDeployments(tx, { jobId: row.id, tenantId: ctx.tenantId }, targets);
    await writeRollout(
      tx,
      body,
      row.id,
      targets.map((t) => t.id),
      groups,
    );
    await alsoInTx(tx, row.id);
    return row;
  });
  deps.engine.kick();
  return toJob(job);
}
