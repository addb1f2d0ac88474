import type { DeploymentCreateInput } from '@outpost/contract/deployments';
import { MAX_DEVICES_PER_JOB } from '@outpost/contract/deployments';
import { isDeviceActionable } from '@outpost/contract/devices';
import { deviceRunsArchitecture, deviceRunsTarget } from '@outpost/contract/targets';
import type { Architecture, TargetOs } from '@outpost/contract/targets';
import { deploymentGroupMessages, groupMessages } from '@outpost/contract/groups';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { DevicesService } from '../devices/devices.service';
import { groupLookup } from '../groups/groups.service';

type TargetDeps = { db: Db; devices: Pick<DevicesService, 'findManyInScope'> };

/**
 * The job's devices: the chosen ones, each in the caller's scope and online; or a group's members
 * the caller may see now, the online ones (docs/product/device-sets.md#groups "Deploying to a
 * group": the members at creation, offline members skipped, devices that join later are not).
 */
export async function resolveTargets(deps: TargetDeps, ctx: RequestContext, body: DeploymentCreateInput) {
  if (body.group_id === undefined) {
    const ids = [...new Set(body.device_ids)];
    const targets = await deps.devices.findManyInScope(ctx, ids);
    if (targets.length !== ids.length) {
      // another tenant's or site's device reads as one that does not exist
      throw notFound(messages.devicesOffline, 'DEVICE_NOT_FOUND');
    }
    if (targets.some((t) => !isDeviceActionable(t.status))) {
      throw conflict(messages.devicesOffline, 'DEVICE_NOT_ACTIONABLE');
    }
    return { ids, targets, group: null };
  }
  if (body.device_ids.length > 0) {
    throw badRequest(deploymentGroupMessages.devicesOrGroup, 'DEVICES_OR_GROUP');
  }
  const group = await groupLookup.membersForDeployment(deps.db, ctx, body.group_id, MAX_DEVICES_PER_JOB);
  if (!group) {
    throw notFound(groupMessages.notFound, 'GROUP_NOT_FOUND');
  }
  if (group.deviceIds.length > MAX_DEVICES_PER_JOB) {
    throw badRequest(deploymentGroupMessages.groupTooLarge(MAX_DEVICES_PER_JOB), 'GROUP_TOO_LARGE');
  }
  const targets = (await deps.devices.findManyInScope(ctx, group.deviceIds)).filter((t) =>
    isDeviceActionable(t.status),
  );
  if (targets.length === 0) {
    throw conflict(deploymentGroupMessages.noOnlineMembers, 'GROUP_NO_ONLINE_MEMBERS');
  }
  return { ids: targets.map((t) => t.id), targets, group: { id: group.id, name: group.name } };
}

/**
 * The members of a group a package reaches: its owner site's devices (a site's package) that run
 * its OS and architecture. None left is a 409 (docs/product/device-sets.md#groups).
 */
export function runnableMembers<
  T extends { siteId: number | null; osType: string | null; architecture: string | null },
>(pkg: { site_id: number | null; target_os: TargetOs; architecture: Architecture }, targets: T[]): T[] {
  const runnable = targets.filter(
    (t) =>
      (pkg.site_id === null || t.siteId === pkg.site_id) &&
      deviceRunsTarget(t.osType, pkg.target_os) &&
      deviceRunsArchitecture(t.osType, t.architecture, pkg.architecture),
  );
  if (runnable.length === 0) {
    throw conflict(deploymentGroupMessages.noRunnableMembers, 'GROUP_NO_RUNNABLE_MEMBERS');
  }
  return runnable;
}
