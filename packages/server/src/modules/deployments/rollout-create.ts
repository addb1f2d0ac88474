import type { DeploymentCreateInput } from '@outpost/contract/deployments';
import { isDeviceActionable } from '@outpost/contract/devices';
import { groupMessages } from '@outpost/contract/groups';
import { rolloutMessages as messages } from '@outpost/contract/rollout-messages';
import { MAX_ROLLOUT_DEVICES } from '@outpost/contract/rollouts';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { DevicesService } from '../devices/devices.service';
import { groupLookup } from '../groups/groups.service';
import { groupWaves, percentWaves, planProblem } from './engine/rollout-rules';
import type { PlannedWave } from './engine/rollout-rules';
import { insertWaves, updateWave } from './engine/rollout.queries';

// A new job's rollout (docs/product/rollouts.md#waves): the plan checked, the wave groups looked
// up in the caller's scope, the devices split into waves, the waves and holds written.

type Deps = { db: Db; devices: Pick<DevicesService, 'findManyInScope'> };
export type WaveGroup = { id: number; name: string; deviceIds: number[] };

/** The plan's problems (400) and, in groups mode, its groups as the caller sees them (404). */
export async function checkRollout(
  deps: Deps,
  ctx: RequestContext,
  body: Pick<DeploymentCreateInput, 'rollout'>,
) {
  const plan = body.rollout;
  if (!plan) {
    return { groups: [] as WaveGroup[] };
  }
  const problem = planProblem(plan);
  if (problem) {
    throw badRequest(problem, 'ROLLOUT_INVALID');
  }
  const groups: WaveGroup[] = [];
  if (plan.mode === 'groups') {
    for (const w of plan.waves) {
      const group = await groupLookup.membersForDeployment(
        deps.db,
        ctx,
        w.group_id!,
        MAX_ROLLOUT_DEVICES + 1,
      );
      if (!group) {
        throw notFound(groupMessages.notFound, 'GROUP_NOT_FOUND');
      }
      groups.push(group);
    }
  }
  return { groups };
}

/**
 * Groups mode without devices or a group chosen: the job's devices are the wave groups' members
 * the caller may see, online ones.
 */
export async function groupUnionTargets(deps: Deps, ctx: RequestContext, groups: readonly WaveGroup[]) {
  const ids = [...new Set(groups.flatMap((g) => g.deviceIds))];
  if (ids.length > MAX_ROLLOUT_DEVICES) {
    throw badRequest(messages.tooManyDevices(MAX_ROLLOUT_DEVICES), 'ROLLOUT_TOO_LARGE');
  }
  const targets = (await deps.devices.findManyInScope(ctx, ids)).filter((t) => isDeviceActionable(t.status));
  if (targets.length === 0) {
    throw conflict(messages.groupsHaveNoDevices, 'ROLLOUT_NO_DEVICES');
  }
  return targets;
}

/** The job's columns of a rollout at creation. */
export const rolloutColumns = (body: DeploymentCreateInput) =>
  body.rollout ? { rollout: body.rollout, rolloutState: 'running' as const, currentWave: 0 } : {};

/** Splits the job's devices into waves and writes them; answers the waves. */
export async function writeRollout(
  tx: Executor,
  body: Pick<DeploymentCreateInput, 'rollout'>,
  jobId: number,
  deviceIds: readonly number[],
  groups: readonly WaveGroup[],
): Promise<PlannedWave[]> {
  const plan = body.rollout;
  if (!plan) {
    return [];
  }
  const waves =
    plan.mode === 'percent' ? percentWaves(plan, jobId, deviceIds) : groupWaves(plan, groups, deviceIds);
  await insertWaves(tx, jobId, waves, (i) => messages.waitingForWave(i));
  await updateWave(tx, jobId, 0, { startedAt: new Date() });
  return waves;
}
