import { MAX_DEVICES_PER_JOB } from '@outpost/contract/deployments';
import { isDeviceActionable } from '@outpost/contract/devices';
import { deploymentGroupMessages, groupMessages } from '@outpost/contract/groups';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import {
  SCRIPT_STEP_NAME,
  SCRIPT_STEP_ORDER,
  SCRIPT_STEP_TYPE,
  SECRET_MASK,
  scriptRunName,
} from '@outpost/contract/script-runs';
import type { ScriptRunSpec } from '@outpost/contract/scripts';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { conflict, notFound } from '../../lib/errors';
import type { DevicesService } from '../devices/devices.service';
import { groupLookup } from '../groups/groups.service';
import type { ScriptRunCreated, ScriptRunner, ScriptRunTarget } from '../scripts/script-runner';
import { insertJob, insertPendingDeviceDeployments } from './deployments.queries';
import type { DeploymentEngine } from './engine/deployment-engine';

// Script runs (docs/product/scripts.md#runs, docs/architecture.md "Script runs"): a job of kind
// `script` whose `script_run` holds the ScriptRunSpec (secrets sealed). Its one step is the run;
// the dispatcher gives each device row a run_script command, and the engine's offline wait,
// timeout, cancel, settle, step logs and live updates serve it as any job.

type Deps = {
  db: Db;
  devices: Pick<DevicesService, 'findManyInScope'>;
  engine: Pick<DeploymentEngine, 'kick'>;
};

type Target = {
  id: number;
  siteId: number | null;
  deviceGuid: string;
  hostname: string | null;
  ipAddress: string | null;
  status: string;
};

/** The run's devices in the caller's scope: chosen ones (any out of scope: 404) or a group's members. */
async function targetsOf(deps: Deps, ctx: RequestContext, target: ScriptRunTarget): Promise<Target[]> {
  if ('deviceIds' in target) {
    const ids = [...new Set(target.deviceIds)];
    const found = await deps.devices.findManyInScope(ctx, ids);
    if (found.length !== ids.length) {
      // another tenant's or site's device reads as one that does not exist
      throw notFound(messages.devicesOffline, 'DEVICE_NOT_FOUND');
    }
    return found;
  }
  const group = await groupLookup.membersForDeployment(deps.db, ctx, target.groupId, MAX_DEVICES_PER_JOB);
  if (!group) {
    throw notFound(groupMessages.notFound, 'GROUP_NOT_FOUND');
  }
  return deps.devices.findManyInScope(ctx, group.deviceIds);
}

/** The job's one step: the run (its log holds the output, exit code and duration). */
export const scriptStep = (timeoutSeconds: number) => ({
  stepOrder: SCRIPT_STEP_ORDER,
  stepName: SCRIPT_STEP_NAME,
  stepType: SCRIPT_STEP_TYPE,
  stepDetails: {},
  timeoutSeconds,
  retryCount: 0,
  failDeploymentOnError: true,
});

export async function createScriptJob(
  deps: Deps,
  ctx: RequestContext,
  spec: ScriptRunSpec,
  target: ScriptRunTarget,
): Promise<ScriptRunCreated> {
  const all = await targetsOf(deps, ctx, target);
  const reachable = spec.offline === 'skip' ? all.filter((t) => isDeviceActionable(t.status)) : all;
  if (reachable.length === 0) {
    throw conflict(
      all.length === 0 ? deploymentGroupMessages.noOnlineMembers : messages.devicesOffline,
      'NO_DEVICES_TO_RUN_ON',
    );
  }
  const name = scriptRunName(spec.script_name, spec.version);
  const job = await deps.db.transaction(async (tx) => {
    const row = await insertJob(tx, {
      tenantId: ctx.tenantId,
      kind: 'script',
      scriptRun: spec,
      packageId: null,
      packageName: spec.script_name,
      packageVersion: String(spec.version),
      name,
      description: null,
      steps: [scriptStep(spec.timeout_seconds)],
      scheduledAt: null,
      totalDevices: reachable.length,
      createdBy: ctx.userId,
      createdByName: ctx.name,
      groupId: 'groupId' in target ? target.groupId : null,
    });
    await insertPendingDeviceDeployments(
      tx,
      { jobId: row.id, tenantId: ctx.tenantId },
      reachable.map((t) => ({
        id: t.id,
        siteId: t.siteId,
        deviceGuid: t.deviceGuid,
        hostname: t.hostname,
        ipAddress: t.ipAddress,
      })),
    );
    // the run's one audit entry, with the job in one transaction; a secret's value is never
    // written here, only that it was given ('••••')
    const secrets = Object.fromEntries(Object.keys(spec.sealed_secrets).map((k) => [k, SECRET_MASK]));
    await writeAudit(tx, ctx, {
      action: 'script.run',
      resourceType: 'script',
      resourceId: spec.script_id,
      details: `Ran script ${spec.script_name} (version ${spec.version}) on ${reachable.length} device${reachable.length === 1 ? '' : 's'}`,
      newValues: {
        script_id: spec.script_id,
        version: spec.version,
        job_id: row.id,
        device_ids: reachable.map((t) => t.id),
        devices: reachable.length,
        skipped: all.length - reachable.length,
        ...('groupId' in target ? { group_id: target.groupId } : {}),
        params: { ...spec.params, ...secrets },
        timeout_seconds: spec.timeout_seconds,
        offline: spec.offline,
      },
      siteIds: reachable.map((t) => t.siteId),
    });
    return row;
  });
  deps.engine.kick();
  return { job_id: job.id, devices: reachable.length, skipped: all.length - reachable.length };
}

/** The ScriptRunner port the scripts module calls (wired in services.ts). */
export function createScriptRunner(deps: Deps): ScriptRunner {
  return { create: (ctx, spec, target) => createScriptJob(deps, ctx, spec, target) };
}
