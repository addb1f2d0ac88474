import type { Readable } from 'node:stream';
import type {
  DeploymentCreateInput,
  DeploymentJob,
  DeploymentJobDetail,
  DeploymentListFilters,
  StepLogsResponse,
} from '@outpost/contract/deployments';
import { SCHEDULE_PAST_TOLERANCE_MS, agentUpdateStepName } from '@outpost/contract/deployments';
import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import {
  messages as commonMessages,
  deploymentMessages as messages,
  packageMessages,
} from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { badRequest, notFound, unauthorized } from '../../lib/errors';
import { tenantOnly } from '../../lib/scope';
import type { CommandQueue } from '../../live/command-queue';
import type { RequestContext } from '../../lib/context';
import { authenticateAgent } from '../agents/agent-auth';
import type { DevicesService } from '../devices/devices.service';
import { fileLookup } from '../files/files.service';
import type { BlobStore } from '../files/blob-store';
import { packageLookup } from '../packages/packages.service';
import type { DeploymentEngine } from './engine/deployment-engine';
import {
  countActiveJobsForPackage,
  countRunningJobs,
  deviceMayDownload,
  findDeviceDeployment,
  findJob,
  insertPendingDeviceDeployments,
  insertJob,
  insertJobFiles,
  listDeviceDeployments,
  listJobs,
  toDeviceDeployment,
  toJob,
} from './deployments.queries';
import type { JobRow } from './deployments.queries';
import { listStepLogsPage, toStepLog } from './step-logs.queries';
import { withOfflineWaits } from './offline-devices.service';
import { snapshotSteps } from './snapshot-steps';
import { createPolicyJobs, policyJobs } from './policy-jobs';
import type { PolicyJobInput, PolicyJobResult } from './policy-jobs';
import { deploymentResultsCsv } from './deployment-export';
import { resolveTargets, runnableMembers } from './deployment-targets';
import { cancelJob } from './cancel-job';
import { createRolloutActions } from './rollout-actions';
import { rolloutOf } from './rollout-view';
import type {
  ResumeRolloutBody,
  RolloutAction,
  RolloutActionResponse,
  SkipGateBody,
} from '@outpost/contract/rollouts';
import { createAgentUpdateJob } from './agent-update-jobs';
import type { AgentUpdateJobInput } from './agent-update-jobs';
import { checkRollout, groupUnionTargets, rolloutColumns, writeRollout } from './rollout-create';

export type DeploymentsServiceDeps = {
  db: Db;
  engine: Pick<DeploymentEngine, 'kick' | 'publishJob' | 'settleJob' | 'rollouts'>;
  commandQueue: Pick<
    CommandQueue,
    'queueCommand' | 'queueCommands' | 'dispatch' | 'finishCommand' | 'finishCommands'
  >;
  devices: Pick<DevicesService, 'findManyInScope'>;
  /** where uploaded files are kept (the agent downloads them from it) */
  blobStore: Pick<BlobStore, 'open'>;
};

/** What an agent's file download presents: its device guid header (null when absent) and secret. */
export type AgentCredentials = { deviceGuid: string | null; secret: string };

function stepNameOf(job: JobRow, order: number | null): string | null {
  if (job.kind === 'agent_update') {
    // its one pseudo step (docs/product/rollouts.md#agent-updates-in-waves)
    return agentUpdateStepName(versionsOf(job));
  }
  return order === null ? null : (job.steps.find((s) => s.stepOrder === order)?.stepName ?? null);
}

const versionsOf = (job: JobRow) =>
  [...new Set(Object.values(job.agentUpdate ?? {}).map((t) => t.version))].sort();

/**
 * What other modules ask of deployments inside their own transactions: how many unfinished jobs
 * use a package (a package in use is not deleted).
 */
export const deploymentLookup = {
  activeJobsForPackage: (tx: Executor, tenantId: number, packageId: number) =>
    countActiveJobsForPackage(tx, tenantOnly(tenantId), packageId),
};

/** `create` of the deployments service: the dialog's rules checked again, then the job and its device rows. */
async function createJob(
  deps: DeploymentsServiceDeps,
  ctx: RequestContext,
  body: DeploymentCreateInput,
): Promise<DeploymentJob> {
  const { db, engine } = deps;
  if (body.package_id === undefined) {
    throw badRequest(messages.selectPackage, 'PACKAGE_REQUIRED');
  }
  const fromWaveGroups =
    body.rollout?.mode === 'groups' && body.device_ids.length === 0 && body.group_id === undefined;
  if (body.device_ids.length === 0 && body.group_id === undefined && !fromWaveGroups) {
    throw badRequest(messages.selectDevice, 'DEVICES_REQUIRED');
  }
  const name = body.job_name.trim();
  if (!name) {
    throw badRequest(messages.jobNameRequired, 'JOB_NAME_REQUIRED');
  }
  const { groups: waveGroups } = await checkRollout(deps, ctx, body);
  const {
    ids: chosenIds,
    targets: candidates,
    group,
  } = fromWaveGroups
    ? { ids: [], targets: await groupUnionTargets(deps, ctx, waveGroups), group: null }
    : await resolveTargets(deps, ctx, body);
  const scheduledAt = body.scheduled_at ? new Date(body.scheduled_at) : null;
  if (scheduledAt && scheduledAt.getTime() < Date.now() - SCHEDULE_PAST_TOLERANCE_MS) {
    throw badRequest(messages.scheduledInPast, 'SCHEDULED_IN_PAST');
  }
  const job = await db.transaction(async (tx) => {
    const snapshot = await snapshotSteps(tx, ctx, body.package_id ?? 0);
    if (!snapshot) {
      throw notFound(packageMessages.packageNotFound, 'PACKAGE_NOT_FOUND');
    }
    if (snapshot.steps.length === 0) {
      throw badRequest(messages.packageHasNoSteps, 'PACKAGE_HAS_NO_STEPS');
    }
    // a group's members the package cannot reach are left out, as offline ones are
    const targets = group || fromWaveGroups ? runnableMembers(snapshot.pkg, candidates) : candidates;
    const ids = group || fromWaveGroups ? targets.map((t) => t.id) : chosenIds;
    await packageLookup.assertDeployableTo(tx, ctx, snapshot.pkg, targets);
    const row = await insertJob(tx, {
      tenantId: ctx.tenantId,
      packageId: snapshot.pkg.id,
      packageName: snapshot.pkg.name,
      packageVersion: snapshot.pkg.package_version,
      targetOs: snapshot.pkg.target_os,
      packageUpdatedAt: packageLookup.updatedAtOf(snapshot.pkg.id),
      name,
      description: body.job_description?.trim() || null,
      steps: snapshot.steps,
      scheduledAt,
      totalDevices: targets.length,
      createdBy: ctx.userId,
      createdByName: ctx.name,
      groupId: group?.id ?? null,
      groupName: group?.name ?? null,
      ...rolloutColumns(body),
      onlyInWindows: body.only_in_windows === true,
    });
    await insertPendingDeviceDeployments(tx, { jobId: row.id, tenantId: ctx.tenantId }, targets);
    const waves = await writeRollout(tx, body, row.id, ids, waveGroups);
    await insertJobFiles(tx, row.id, snapshot.fileIds);
    await writeAudit(tx, ctx, {
      action: 'Create Deployment',
      resourceType: 'deployment',
      resourceId: row.id,
      details: `${name}: ${snapshot.pkg.name} to ${targets.length} device${targets.length === 1 ? '' : 's'}${
        scheduledAt ? ` at ${scheduledAt.toISOString()}` : ''
      }`,
      newValues: {
        package_id: snapshot.pkg.id,
        device_ids: ids,
        ...(group && { group_id: group.id, group_name: group.name }),
        job_name: name,
        job_description: row.description,
        scheduled_at: scheduledAt?.toISOString() ?? null,
        ...(waves.length > 0 && {
          rollout: waves.map((w) => ({ name: w.name, devices: w.deviceIds.length, gate: w.gate })),
        }),
        ...(body.only_in_windows === true && { only_in_windows: true }),
      },
      siteIds: targets.map((t) => t.siteId),
    });
    return row;
  });
  engine.kick();
  return toJob(job);
}

// Deployments (docs/product/administration.md#who-may-do-what, docs/product/deployments.md#running-on-devices): any member deploys to and follows the devices in their
// scope; a job with devices outside a site-limited caller's sites is visible to them (their
// devices only) but cancelled only by someone who sees all of its devices.
export function createDeploymentsService(deps: DeploymentsServiceDeps) {
  const { db, blobStore } = deps;
  const rolloutActions = createRolloutActions(deps);
  async function loadJob(ctx: RequestContext, id: number): Promise<JobRow> {
    const job = await findJob(db, ctx, id);
    if (!job) {
      throw notFound(messages.notFound, 'DEPLOYMENT_NOT_FOUND');
    }
    return job;
  }

  return {
    // docs/product/deployments.md#deploy-dialog-rules (the dialog's rules, checked again here in its order and words), #calls.
    async create(ctx: RequestContext, body: DeploymentCreateInput): Promise<DeploymentJob> {
      return createJob(deps, ctx, body);
    },

    async list(ctx: RequestContext, f: DeploymentListFilters): Promise<ListData<DeploymentJob>> {
      const { rows, total } = await listJobs(db, ctx, f);
      return { data: rows.map(toJob), pagination: paginate(f.page, f.limit, total) };
    },

    async get(ctx: RequestContext, id: number): Promise<DeploymentJobDetail> {
      const job = await loadJob(ctx, id);
      const rows = await listDeviceDeployments(db, ctx, id);
      const devicesOf = rows.map((d) => toDeviceDeployment(d, stepNameOf(job, d.currentStepOrder)));
      return {
        ...toJob(job),
        ...(await withOfflineWaits(db, ctx, job, devicesOf)),
        rollout: await rolloutOf(db, job),
        ...(job.kind === 'agent_update' && { agent_versions: versionsOf(job) }),
        steps: job.steps.map((s) => ({
          step_order: s.stepOrder,
          step_name: s.stepName,
          step_type: s.stepType as DeploymentJobDetail['steps'][number]['step_type'],
          timeout_seconds: s.timeoutSeconds,
          retry_count: s.retryCount,
          fail_deployment_on_error: s.failDeploymentOnError,
        })),
      };
    },

    /** The job's per-device results as CSV, in the caller's scope (docs/product/device-sets.md#exports). */
    async exportCsv(ctx: RequestContext, id: number) {
      return deploymentResultsCsv(db, ctx, await loadJob(ctx, id));
    },

    // a page at a time: a device's attempts are bounded by its job, each stream by
    // STEP_LOG_MAX_CHARS, and a page by StepLogsQuery (SECURITY.md R2-13)
    async stepLogs(
      ctx: RequestContext,
      deviceDeploymentId: number,
      query: { page: number; limit: number },
    ): Promise<StepLogsResponse> {
      const dd = await findDeviceDeployment(db, ctx, deviceDeploymentId);
      const job = dd ? await findJob(db, ctx, dd.jobId) : null;
      if (!dd || !job) {
        throw notFound(messages.deviceDeploymentNotFound, 'DEVICE_DEPLOYMENT_NOT_FOUND');
      }
      const { rows, total } = await listStepLogsPage(db, dd.id, {
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return {
        device_deployment: toDeviceDeployment(dd, stepNameOf(job, dd.currentStepOrder)),
        job_id: job.id,
        logs: rows.map(toStepLog),
        pagination: paginate(query.page, query.limit, total),
      };
    },

    // docs/product/deployments.md#job-statuses — cancel while pending or running. Pending device rows end at once;
    // a running agent is told to stop (a cancel command) and its late reports change nothing.
    async cancel(ctx: RequestContext, id: number): Promise<DeploymentJob> {
      return cancelJob(deps, ctx, id);
    },

    /** pause, resume, abort or skip the gate of a job's rollout (docs/product/rollouts.md#rollout-actions) */
    rolloutAction(
      ctx: RequestContext,
      id: number,
      action: RolloutAction,
      body?: ResumeRolloutBody | SkipGateBody,
    ): Promise<RolloutActionResponse> {
      return rolloutActions.run(ctx, id, action, body);
    },

    /** agent self-updates in waves (docs/product/rollouts.md#agent-updates-in-waves); the agent-releases module asks */
    createAgentUpdateJob(
      ctx: RequestContext,
      input: AgentUpdateJobInput,
      alsoInTx: (tx: Executor, jobId: number) => Promise<void>,
    ): Promise<DeploymentJob> {
      return createAgentUpdateJob(deps, ctx, input, alsoInTx);
    },

    /**
     * An automation policy's run (docs/product/device-sets.md#automation-policies): its jobs, in
     * the caller's (the policy scheduler's) transaction; `kick` the engine after it commits.
     */
    createForPolicy(tx: Executor, input: PolicyJobInput): Promise<PolicyJobResult> {
      return createPolicyJobs(tx, input);
    },

    /** The jobs a policy created that the caller may see, newest first. */
    jobsOfPolicy(ctx: RequestContext, policyId: number, limit = 100): Promise<DeploymentJob[]> {
      return policyJobs(db, ctx, policyId, limit);
    },

    /** Look for due jobs now (after a policy run committed). */
    kick(): void {
      deps.engine.kick();
    },

    async countRunning(ctx: RequestContext): Promise<number> {
      return countRunningJobs(db, ctx);
    },

    /**
     * GET /api/agent/files/{id}: the agent proves its device like on its socket (401 otherwise),
     * and gets only a file a step of one of the device's unfinished jobs uses (404 otherwise).
     */
    async openAgentFile(
      credentials: AgentCredentials,
      fileId: number,
    ): Promise<{ name: string; size: number; sha256: string; stream: Readable }> {
      const { deviceGuid, secret } = credentials;
      if (deviceGuid === null || !secret) {
        throw unauthorized(commonMessages.agentAuthMissing, 'AGENT_AUTH_REQUIRED');
      }
      const device = await authenticateAgent(db, deviceGuid, secret);
      if (!device) {
        throw unauthorized(commonMessages.agentAuthFailed, 'AGENT_AUTH_FAILED');
      }
      const file = (await deviceMayDownload(db, device.id, fileId))
        ? (await fileLookup.findByIds(db, tenantOnly(device.tenantId), [fileId]))[0]
        : undefined;
      if (!file) {
        throw notFound(packageMessages.fileNotFound, 'FILE_NOT_FOUND');
      }
      return {
        name: file.originalFilename,
        size: file.sizeBytes,
        sha256: file.sha256,
        stream: await blobStore.open(file.storageKey),
      };
    },
  };
}

export type DeploymentsService = ReturnType<typeof createDeploymentsService>;
