import { deploymentMessages, packageMessages } from '@outpost/contract/messages';
import { rolloutMessages as messages } from '@outpost/contract/rollout-messages';
import type {
  ResumeRolloutBody,
  RolloutAction,
  RolloutActionResponse,
  SkipGateBody,
} from '@outpost/contract/rollouts';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { endUnfinishedRows } from './cancel-job';
import { emitJobEvent } from './job-events';
import { countDeviceDeploymentsOutside, findJob, insertJobFiles, updateJob } from './deployments.queries';
import type { DeviceDeploymentRow, JobRow } from './deployments.queries';
import type { DeploymentEngine } from './engine/deployment-engine';
import { isTerminal } from './engine/job-updates';
import type { RolloutChange } from './engine/rollout';
import { oneWaveCounts, setRolloutState, updateWave } from './engine/rollout.queries';
import { announceEnded } from './end-device-deployment';
import type { EndingQueue } from './end-device-deployment';
import { jobSiteIds } from './job-sites.queries';
import { rolloutOf } from './rollout-view';
import { snapshotSteps } from './snapshot-steps';

// The rollout actions (docs/product/rollouts.md#rollout-actions): pause, resume, abort and
// skip-gate, each with the job cancel's permissions and scope, an audit entry and a
// deployment_update. An action that does not fit the rollout's state is a 409.

export type RolloutActionDeps = {
  db: Db;
  engine: Pick<DeploymentEngine, 'rollouts' | 'publishJob' | 'settleJob'>;
  commandQueue: EndingQueue;
};

type Outcome = { change: RolloutChange | null; ended?: { ended: DeviceDeploymentRow[]; stopped: number[] } };

const who = (ctx: RequestContext) => ctx.name ?? ctx.email;

/** The caller's job, locked, with a rollout; the cancel's rules on scope. */
async function lockForAction(tx: Executor, ctx: RequestContext, id: number): Promise<JobRow> {
  const job = await findJob(tx, ctx, id, { lock: true });
  if (!job) {
    throw notFound(deploymentMessages.notFound, 'DEPLOYMENT_NOT_FOUND');
  }
  if ((await countDeviceDeploymentsOutside(tx, ctx, id)) > 0) {
    throw forbidden(deploymentMessages.cancelOutsideScope, 'DEPLOYMENT_OUTSIDE_SCOPE');
  }
  if (!job.rolloutState || job.currentWave === null) {
    throw conflict(messages.noRollout, 'ROLLOUT_NONE');
  }
  return job;
}

const ACTION_NAMES: Record<RolloutAction, string> = {
  pause: 'Pause Rollout',
  resume: 'Resume Rollout',
  abort: 'Abort Rollout',
  'skip-gate': 'Skip Rollout Gate',
};

async function pause(
  deps: RolloutActionDeps,
  tx: Executor,
  ctx: RequestContext,
  job: JobRow,
): Promise<Outcome> {
  if (job.rolloutState !== 'running') {
    throw conflict(messages.notRunning(job.rolloutState!), 'ROLLOUT_NOT_RUNNING');
  }
  const wave = job.currentWave!;
  const rows = await deps.engine.rollouts.holdUntaken(
    tx,
    job,
    wave,
    'halted',
    messages.heldByPause(who(ctx)),
  );
  await updateWave(tx, job.id, wave, { soakUntil: null });
  const after = await setRolloutState(
    tx,
    job.id,
    { rolloutState: 'paused', rolloutStateReason: messages.paused(who(ctx)) },
    new Date(),
  );
  return { change: { job: after, woken: [], rows } };
}

async function resume(
  deps: RolloutActionDeps,
  tx: Executor,
  ctx: RequestContext,
  job: JobRow,
  body: ResumeRolloutBody,
): Promise<Outcome> {
  if (job.rolloutState !== 'paused' && job.rolloutState !== 'halted') {
    throw conflict(messages.notResumable(job.rolloutState!), 'ROLLOUT_NOT_RESUMABLE');
  }
  const wave = job.currentWave!;
  if (job.rolloutState === 'halted') {
    // the failures so far were seen: the wave halts again only on a new one
    const counts = await oneWaveCounts(tx, job.id, wave);
    await updateWave(tx, job.id, wave, { resumedFailedDevices: counts.failed });
  }
  let steps: JobRow['steps'] | undefined;
  if (body.use_current_package) {
    const snapshot = job.packageId === null ? null : await snapshotSteps(tx, ctx, job.packageId);
    if (!snapshot) {
      throw notFound(packageMessages.packageNotFound, 'PACKAGE_NOT_FOUND');
    }
    steps = snapshot.steps;
    await insertJobFiles(tx, job.id, snapshot.fileIds);
  }
  const resumed = await setRolloutState(
    tx,
    job.id,
    { rolloutState: 'running', rolloutStateReason: messages.resumed(who(ctx)), ...(steps && { steps }) },
    new Date(),
  );
  const { rows, woken } = await deps.engine.rollouts.release(tx, resumed, wave, ['halted']);
  const next = await deps.engine.rollouts.evaluateLocked(tx, resumed);
  return {
    change: {
      job: next?.job ?? resumed,
      woken: [...woken, ...(next?.woken ?? [])],
      rows: [...rows, ...(next?.rows ?? [])],
    },
  };
}

async function skipGate(
  deps: RolloutActionDeps,
  tx: Executor,
  ctx: RequestContext,
  job: JobRow,
  body: SkipGateBody,
): Promise<Outcome> {
  if (job.rolloutState !== 'running' && job.rolloutState !== 'paused' && job.rolloutState !== 'halted') {
    throw conflict(messages.notSkippable(job.rolloutState!), 'ROLLOUT_NOT_SKIPPABLE');
  }
  const wave = job.currentWave!;
  await updateWave(tx, job.id, wave, {
    gateSkippedReason: body.reason,
    gateSkippedBy: ctx.userId,
    gateSkippedByName: who(ctx),
  });
  const running = await setRolloutState(
    tx,
    job.id,
    { rolloutState: 'running', rolloutStateReason: messages.gateSkipped(wave, who(ctx), body.reason) },
    new Date(),
  );
  // the wave's held rows run along with the next wave
  const released = await deps.engine.rollouts.release(tx, running, wave, ['halted']);
  const next = await deps.engine.rollouts.advance(tx, running, wave);
  return {
    change: {
      job: next?.job ?? running,
      woken: [...released.woken, ...(next?.woken ?? [])],
      rows: [...released.rows, ...(next?.rows ?? [])],
    },
  };
}

async function abort(
  deps: RolloutActionDeps,
  tx: Executor,
  ctx: RequestContext,
  job: JobRow,
): Promise<Outcome> {
  if (job.rolloutState === 'completed' || job.rolloutState === 'aborted') {
    throw conflict(messages.notAbortable(job.rolloutState), 'ROLLOUT_NOT_ABORTABLE');
  }
  await updateWave(tx, job.id, job.currentWave!, { soakUntil: null });
  await setRolloutState(
    tx,
    job.id,
    { rolloutState: 'aborted', rolloutStateReason: messages.aborted(who(ctx)) },
    new Date(),
  );
  if (isTerminal(job.status)) {
    return { change: { job: await updateJob(tx, job.id, {}), woken: [], rows: [] } };
  }
  const ended = await endUnfinishedRows(tx, deps.commandQueue, ctx, job.id);
  await emitJobEvent(tx, await updateJob(tx, job.id, { status: 'cancelled' }));
  const { after } = await deps.engine.settleJob(tx, job.id);
  return { change: { job: after, woken: [], rows: [] }, ended };
}

export function createRolloutActions(deps: RolloutActionDeps) {
  const { db, engine } = deps;
  const { rollouts } = engine;

  async function run(
    ctx: RequestContext,
    id: number,
    action: RolloutAction,
    body: ResumeRolloutBody | SkipGateBody | undefined,
  ): Promise<RolloutActionResponse> {
    const out = await db.transaction(async (tx) => {
      const job = await lockForAction(tx, ctx, id);
      const before = { rollout_state: job.rolloutState, current_wave: job.currentWave };
      const outcome =
        action === 'pause'
          ? await pause(deps, tx, ctx, job)
          : action === 'resume'
            ? await resume(deps, tx, ctx, job, body as ResumeRolloutBody)
            : action === 'abort'
              ? await abort(deps, tx, ctx, job)
              : await skipGate(deps, tx, ctx, job, body as SkipGateBody);
      const after = outcome.change?.job ?? job;
      await writeAudit(tx, ctx, {
        action: ACTION_NAMES[action],
        resourceType: 'deployment',
        resourceId: id,
        details: `${job.name}: ${after.rolloutStateReason ?? action}`,
        oldValues: before,
        newValues: {
          rollout_state: after.rolloutState,
          current_wave: after.currentWave,
          ...(action === 'skip-gate' && { reason: (body as SkipGateBody).reason }),
          ...(action === 'resume' && {
            use_current_package: (body as { use_current_package?: boolean }).use_current_package ?? false,
          }),
          ...(outcome.change && {
            devices_changed: outcome.change.rows.length + outcome.change.woken.length,
          }),
        },
        siteIds: await jobSiteIds(tx, id),
      });
      return outcome;
    });
    if (out.ended && out.change) {
      await announceEnded(engine, deps.commandQueue, { job: out.change.job, ...out.ended });
    } else {
      await rollouts.announce(out.change);
    }
    const job = await findJob(db, ctx, id);
    const rollout = job ? await rolloutOf(db, job) : null;
    if (!rollout) {
      throw notFound(deploymentMessages.notFound, 'DEPLOYMENT_NOT_FOUND');
    }
    return { job_id: id, rollout };
  }

  return { run };
}

export type RolloutActions = ReturnType<typeof createRolloutActions>;
